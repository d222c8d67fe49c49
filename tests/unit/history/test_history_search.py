"""Ranked full-text search; arbitrary user text never breaks it."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agenttui.core.history.store import HIGHLIGHT_CLOSE, HIGHLIGHT_OPEN, to_fts_query
from agenttui.core.models import Message


@pytest.fixture
def corpus(store):
    deploy = store.create_conversation(title="deploy")
    cooking = store.create_conversation(title="cooking")
    old = store.create_conversation(title="old")
    store.append_many(deploy.id, [
        Message("user", "How do I deploy the app to production with docker compose?"),
        Message("assistant", "Build the image, push it, then run docker compose up on the server."),
        Message("user", "docker docker docker"),
        Message("assistant", "Use a foo-bar config and the C++ toolchain; tiếng Việt works too."),
    ])
    store.append_many(cooking.id, [
        Message("user", "Recipe for banana bread please"),
        Message("assistant", "Mash three bananas, add flour; bake. Docker is not an oven."),
    ])
    store.append(old.id, Message("user", "archived docker memories"))
    store.archive(old.id)
    return {"deploy": deploy.id, "cooking": cooking.id, "old": old.id}


def test_results_are_ranked_by_bm25(store, corpus):
    hits = store.search("docker")
    assert len(hits) == 5
    assert hits[0].snippet == f"{HIGHLIGHT_OPEN}docker{HIGHLIGHT_CLOSE} " * 2 + \
        f"{HIGHLIGHT_OPEN}docker{HIGHLIGHT_CLOSE}"  # the message that says it three times
    assert [h.rank for h in hits] == sorted(h.rank for h in hits)  # best (most negative) first
    assert hits[0].conversation_title == "deploy" and hits[0].role == "user"


def test_all_terms_must_match_and_snippet_marks_them(store, corpus):
    hits = store.search("docker compose")
    assert {h.conversation_id for h in hits} == {corpus["deploy"]}
    assert len(hits) == 2
    assert f"{HIGHLIGHT_OPEN}compose{HIGHLIGHT_CLOSE}" in hits[0].snippet
    assert store.search("docker bread") == []
    # stemmed (schema v3): "banana" finds "bananas", in the one message holding both words
    assert len(store.search("docker banana")) == 1
    assert store.search("docker oven") == store.search("docker ovens")
    assert len(store.search("docker banan")) == 1  # a prefix: "bananas"


def test_last_word_is_a_prefix_unless_finished(store, corpus):
    assert [h.conversation_id for h in store.search("bana")] == [corpus["cooking"]] * 2
    assert store.search("bana ") == []  # trailing space: the word is complete
    assert store.search("dep")  # "deploy"


def test_a_complete_word_is_not_expanded(store):
    conversation = store.create_conversation()
    store.append_many(conversation.id, [Message("user", "docker rocks"),
                                        Message("user", "edit the dockerfile")])
    assert len(store.search("dock")) == 2  # not a word: prefix
    assert len(store.search("docker")) == 1  # a word already: exact, fast on common words
    assert len(store.search("docker*")) == 1  # '*' typed by the user is literal too


def test_punctuation_diacritics_and_case(store, corpus):
    assert len(store.search("foo-bar")) == 1
    assert len(store.search("C++")) == 1
    assert len(store.search("VIET")) == 1  # diacritics and case folded
    assert len(store.search("tiếng")) == 1


def test_filters_by_conversation_and_archive(store, corpus):
    assert {h.conversation_id for h in store.search("docker", conversation_id=corpus["cooking"])} == {
        corpus["cooking"]}
    assert corpus["old"] in {h.conversation_id for h in store.search("docker")}  # archived included
    assert corpus["old"] not in {h.conversation_id for h in store.search("docker", include_archived=False)}
    assert len(store.search("docker", limit=2)) == 2
    assert store.search("docker", limit=0) == []


@pytest.mark.slow
@pytest.mark.parametrize("query", [
    "", "   ", '"', '""', "'", "(", ")", "((docker", "docker)", "-", "--", "*", "**", "^", ":",
    "docker -", "NOT docker", "docker AND", "OR", "NEAR(docker compose)", "docker OR banana",
    "col:docker", "content:docker", "{docker}", "[docker]", "docker*", "\"docker", "a\x00b",
    "\ud800docker", "\\", "%", "_", "?", "🙂", "docker" * 200, " ".join(["docker"] * 100),
    "rank", "messages_fts", "'; DROP TABLE messages; --",
])
def test_hostile_queries_never_raise(store, corpus, query):
    hits = store.search(query)
    assert isinstance(hits, list)
    assert store.count_messages(corpus["deploy"]) == 4  # and nothing happened to the data


def test_operators_are_taken_literally(store, corpus):
    # 'NOT' and 'OR' are words here, not operators: only text containing them matches.
    assert [h.message_id for h in store.search("NOT docker")] == [6]  # "Docker is not an oven"
    assert store.search("docker OR banana") == []
    assert len(store.search("((docker")) == 5


_FTS = sqlite3.connect(":memory:")
_FTS.execute("CREATE VIRTUAL TABLE t USING fts5(content, tokenize='unicode61 remove_diacritics 2')")
_FTS.execute("INSERT INTO t VALUES ('some text to match against')")


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.text(max_size=60))
def test_fuzz_generated_queries_are_valid_fts(text):
    query = to_fts_query(text)
    if query is not None:
        _FTS.execute("SELECT rowid FROM t WHERE t MATCH ?", (query,)).fetchall()  # must not raise


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(list('ab "\'()*-+^:.,NOTRAND{}[]\\') + ["docker", "NEAR", "🙂"]),
                max_size=30).map("".join))
def test_fuzz_search_never_raises(store, text):
    assert isinstance(store.search(text), list)


def test_broad_queries_rank_within_the_most_recent_matches(store, monkeypatch):
    import agenttui.core.history.store as history

    conversation = store.create_conversation()
    best_but_old = store.append(conversation.id, Message("user", "zeta zeta zeta zeta"))
    recent = store.append_many(conversation.id, [Message("user", f"zeta and filler number {i} here")
                                                 for i in range(10)])
    assert store.search("zeta ")[0].message_id == best_but_old.id  # ranked over everything
    monkeypatch.setattr(history, "RANK_WINDOW", 4)
    hits = store.search("zeta ")
    assert {h.message_id for h in hits} == {m.id for m in recent[-4:]}
    scoped = store.search("zeta ", conversation_id=conversation.id, include_archived=False)
    assert {h.message_id for h in scoped} == {m.id for m in recent[-4:]}
