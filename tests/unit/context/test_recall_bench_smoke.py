"""The recall benchmark (bench/bench_recall.py) works end to end, on a tiny corpus.

Not a quality gate: the figures are the bench's job. These tests check that
the generator is deterministic and meets its sizes, that paraphrased questions
really are paraphrases, and that the evidence check both finds and misses.
"""

from __future__ import annotations

import itertools
import sqlite3
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[3] / "bench"
sys.path.insert(0, str(BENCH))

import bench_recall  # noqa: E402
from recall_corpus import TODAY, generate  # noqa: E402

from agenttui.core.context.assemble import AssembledPrompt  # noqa: E402
from agenttui.core.recall.text import query_terms  # noqa: E402

TINY = dict(sessions=12, messages_per_session=24, notes=60, seed=3, per_kind=2)


@pytest.fixture(scope="module")
def default_corpus():
    return generate()


def _fingerprint(corpus):
    return ([(m.role, m.text, m.created.isoformat()) for m in corpus.messages],
            [(n.text, n.scope) for n in corpus.notes],
            [(q.text, q.answer, q.evidence_messages, q.evidence_notes) for q in corpus.questions])


def test_generator_is_deterministic_and_seeded():
    assert _fingerprint(generate(**TINY)) == _fingerprint(generate(**TINY))
    assert _fingerprint(generate(**TINY)) != _fingerprint(generate(**{**TINY, "seed": 4}))


@pytest.mark.slow
def test_default_corpus_meets_the_sizes(default_corpus):
    corpus = default_corpus
    messages = corpus.messages
    assert len(corpus.sessions) >= 200 and len(messages) >= 20_000
    assert len(corpus.notes) == 2000
    kinds = {}
    for question in corpus.questions:
        kinds[question.kind] = kinds.get(question.kind, 0) + 1
    assert set(kinds) == {"single", "multi_hop", "temporal", "paraphrased", "updated", "notes_only"}
    assert min(kinds.values()) >= 25
    indonesian = sum(s.lang == "id" for s in corpus.sessions) / len(corpus.sessions)
    assert 0.25 < indonesian < 0.4
    assert {q.lang for q in corpus.questions} == {"en", "id"}
    days = [m.created.date() for m in messages]
    assert max(days) < TODAY and (TODAY - min(days)).days > 500
    assert all(a.created < b.created for a, b in itertools.pairwise(messages))
    for session in corpus.sessions:
        assert [m.role for m in session.messages] == ["user", "assistant"] * (len(session.messages) // 2)


def test_evidence_points_at_planted_user_messages(default_corpus):
    messages = default_corpus.messages
    for question in default_corpus.questions:
        if question.kind == "notes_only":
            assert question.evidence_notes and not question.evidence_messages
            continue
        assert question.evidence_messages
        for key in question.evidence_messages:
            assert messages[key].key == key and messages[key].role == "user"
        if question.kind == "multi_hop":
            sessions = {messages[k].session for k in question.evidence_messages}
            assert len(sessions) == 2, question


def _stems(text: str) -> set[str]:
    """Porter stems of the content words (SQLite's own stemmer, as recall uses)."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61 remove_diacritics 2')")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row')")
    db.execute("INSERT INTO t(x) VALUES (?)", (" ".join(query_terms(text)),))
    return {row[0] for row in db.execute("SELECT term FROM v")}


def test_paraphrased_questions_share_at_most_one_stem_with_their_fact(default_corpus):
    messages = default_corpus.messages
    paraphrased = [q for q in default_corpus.questions if q.kind == "paraphrased"]
    assert paraphrased
    for question in paraphrased:
        fact = messages[question.evidence_messages[0]].text
        shared = _stems(question.text) & _stems(fact)
        assert len(shared) <= 1, (question.text, fact, shared)


@pytest.mark.slow
def test_bench_runs_end_to_end_and_the_evidence_check_can_fail(tmp_path):
    result = bench_recall.run(**{k: v for k, v in TINY.items()}, home=tmp_path / "home")
    summary = result["summary"]
    assert result["sizes"]["messages"] == 12 * 24
    assert summary["overall"]["n"] == len(result["rows"]) == 12
    for system in bench_recall.SYSTEMS:
        assert 0.0 <= summary["overall"][system]["recall"] <= 1.0
    # on 288 messages a 2,000-token budget holds a lot: both rankers find something
    assert summary["overall"]["agenttui"]["recall"] > 0
    assert summary["overall"]["bm25"]["recall"] > 0
    assert summary["overall"]["agenttui"]["prompt_tokens"] > 0

    corpus = generate(**TINY)
    services = bench_recall.make_services(tmp_path / "again")
    loaded = bench_recall.load(services, corpus)
    question = next(q for q in corpus.questions if q.evidence_messages)
    empty = AssembledPrompt(messages=[], injected_ids=[], system_prompt="")
    assert bench_recall.evidence_found(empty, question, loaded) == [False] * len(question.evidence_messages)
    quoted = " ".join(loaded.texts[k] for k in question.evidence_messages)
    holding = AssembledPrompt(messages=[{"role": "system", "content": f"earlier: {quoted}"}],
                              injected_ids=[], system_prompt="")
    assert all(bench_recall.evidence_found(holding, question, loaded))
    noted = next(q for q in corpus.questions if q.evidence_notes)
    with_note = AssembledPrompt(messages=[], injected_ids=[loaded.note_ids[noted.evidence_notes[0]]],
                                system_prompt="")
    assert bench_recall.evidence_found(with_note, noted, loaded)[0]
    services.history.close()
