"""Words related in meaning (core/recall/related.py): recall's bridge for paraphrases."""

from __future__ import annotations

import gzip
import sqlite3
from datetime import UTC, datetime, timedelta
from importlib import resources

from agenttui.core.context.assemble import assemble
from agenttui.core.models import Message
from agenttui.core.recall.related import MAX_RELATED, PER_WORD, related_terms, related_words
from agenttui.core.recall.retrieval import search_hits

NOW = datetime(2026, 11, 23, 12, tzinfo=UTC)


def _say(services, text: str, days_ago: int) -> None:
    cid = services.history.create_conversation().id
    services.history.append_many(cid, [
        Message(role="user", content=text, created=NOW - timedelta(days=days_ago)),
        Message(role="assistant", content="Noted.", created=NOW - timedelta(days=days_ago, minutes=-1)),
    ])


def _recalled(built) -> str:
    return "\n".join(m["content"] for m in built.messages[1:] if m["role"] == "system")


def test_the_table_ships_with_its_provenance_and_licences():
    raw = resources.files("agenttui.core.recall").joinpath("data/related_words.tsv.gz").read_bytes()
    header = [line for line in gzip.decompress(raw).decode().splitlines() if line.startswith("#")]
    text = "\n".join(header)
    assert "all-MiniLM-L6-v2" in text and "Apache-2.0" in text and "lemminflect" in text and "MIT" in text
    assert "scripts/build_related_words.py" in text


def test_related_words_bridge_common_paraphrases():
    assert {"scared", "terrified"} <= set(related_words("afraid"))
    assert "bike" in related_words("bicycle")
    assert "dog" in related_words("puppy")
    assert related_words("kopi") == ()  # not English: nothing


def test_words_the_tokenizer_splits_have_related_words_too():
    # "headache" is several word pieces to MiniLM's tokenizer: only embedding whole
    # words (not tokens) relates it to "migraine"
    assert "migraine" in related_words("headache")
    assert "migraine" in related_words("headaches")  # through its lemma


def test_an_inflected_word_uses_its_lemma_entry():
    assert related_words("puppies") == related_words("puppy") != ()


def _porter(words: list[str]) -> list[str]:
    """Stems by SQLite's porter tokenizer, the one the history index uses."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(w, tokenize = 'porter unicode61')")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    db.executemany("INSERT INTO t (rowid, w) VALUES (?, ?)", enumerate(words))
    stems = dict(db.execute("SELECT doc, term FROM v").fetchall())
    return [stems[i] for i in range(len(words))]


def test_forms_the_index_already_matches_are_not_in_the_table():
    for word in ("afraid", "bicycle", "work", "sleep", "doctor", "hate"):
        related = list(related_words(word))
        stems = _porter([word, *related])
        assert stems[0] not in stems[1:], (word, related)  # "sleeping" would be a wasted term
        assert len(set(stems[1:])) == len(related), (word, related)


def test_related_terms_are_round_robin_bounded_and_skip_known_words():
    terms = related_terms(("afraid", "planes"), known={"scared"})
    assert "scared" not in terms
    first_of_each = {related_words("afraid")[1], related_words("planes")[0]}
    assert first_of_each <= set(terms[:2])  # each word's nearest before anyone's second
    many = related_terms(tuple(f"{w}" for w in ("afraid", "planes", "puppy", "bicycle", "work", "sleep",
                                                   "hate", "doctor")), known=())
    assert len(many) <= MAX_RELATED
    assert all(len([t for t in related_words(w) if t in many]) <= PER_WORD for w in ("afraid", "planes"))


def test_a_paraphrased_question_recalls_the_fact_in_other_words(services):
    _say(services, "I'm terrified of flying, I always need a sedative before boarding.", 300)
    for k in range(30):  # distractors sharing none of the words either
        _say(services, f"Our neighbour's renovation made noise again, day {k}.", 10 + k)
    new = services.history.create_conversation().id

    built = assemble(services, new, "Am I afraid of planes?", now=NOW, mark_used=False)

    assert "terrified of flying" in _recalled(built)


def test_the_history_search_box_matches_the_typed_words_only(services):
    _say(services, "I'm terrified of flying, I always need a sedative before boarding.", 300)
    _say(services, "Are planes safer than cars?", 20)
    hits = search_hits(services.history, "planes")
    assert [h.snippet for h in hits if "terrified" in h.snippet] == []
    assert any("planes" in h.snippet.casefold() for h in hits)
