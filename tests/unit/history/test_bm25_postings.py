"""bm25 from the postings the app keeps (bm25_postings.py, postings_snapshot.py) ranks as SQLite does,
bit for bit, and stays exact."""

from __future__ import annotations

import random
import sqlite3
import threading

import pytest

from agenttui.core.history import bm25_postings, postings_snapshot
from agenttui.core.history.bm25_postings import Bm25Postings, phrases_of
from agenttui.core.history.postings_snapshot import Tokenizer
from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message

TEXTS = [
    "I ate pasta with my mother in law", "we went to the market for mango", "the days are long",
    "days and days of rain, days", "mango mango mango tree in the garden of my house",
    "my mother went home", "law school starts in March", "pasta again? I ate it yesterday",
    "the kids went to bed early", "a very long message about the garden and the house and the days we spent there",
    "Café au lait at the café", "the cafe was closed",
]
# kept words, prefixes, several words in one phrase, an absent word, a repeated phrase,
# a diacritic, a stemmed form ("gardens" is "garden")
MATCHES = ['"days"', '"ate" OR "mango" OR "days"', '"mother in law" OR "mother" OR "law"',
           '"gard"* OR "went"', '"days" OR "days"', '"absent" OR "pasta"', '"café" OR "gardens"',
           '"the" OR "my" OR "house" OR "rain"',
           # prefixes: stemmed as a word is ("gardens"* is "garden"*), short ones not, diacritics folded
           '"gardens"* OR "mango"', '"ma"* OR "days"', '"caf"* OR "café"*', '"absen"*', '"the"* OR "my"*']


@pytest.fixture(autouse=True, params=[1, 3], ids=["every word kept", "rare words ranked by SQLite"])
def common_hits(request, monkeypatch):
    monkeypatch.setattr(postings_snapshot, "COMMON_HITS", request.param)
    return request.param


def sqlite_ranked(db_path, match: str, before_id: int | None, limit: int) -> list[tuple[int, float]]:
    with sqlite3.connect(db_path) as db:
        return [tuple(row) for row in db.execute(
            "SELECT rowid, bm25(messages_fts) AS score FROM messages_fts WHERE messages_fts MATCH ? "
            + ("AND rowid < ? " if before_id is not None else "") + "ORDER BY score, rowid DESC LIMIT ?",
            (match, *(() if before_id is None else (before_id,)), limit)).fetchall()]


def sqlite_count(db_path, phrase: str) -> int:
    with sqlite3.connect(db_path) as db:
        return db.execute("SELECT COUNT(*) FROM messages_fts WHERE messages_fts MATCH ?", (phrase,)).fetchone()[0]


def kept(postings: Bm25Postings, db_path, match: str, before_id: int | None = None, limit: int = 100):
    with sqlite3.connect(db_path) as db:
        return postings.ranked(db, "messages_fts", match, before_id, limit)


def fill(store: HistoryStore, texts=TEXTS) -> None:
    cid = store.create_conversation(title="t").id
    for k, text in enumerate(texts * 3):
        store.append(cid, Message(role="user" if k % 2 == 0 else "assistant", content=f"{text} {k}"))


def built(store: HistoryStore, db_path) -> Bm25Postings:
    postings = Bm25Postings()
    postings.keep(lambda: db_path)
    assert postings.snapshot is not None
    return postings


def test_phrases_are_read_from_an_or_of_phrases_only():
    assert phrases_of('"a" OR "b c"* OR "d""e"') == ['"a"', '"b c"*', '"d""e"']
    assert phrases_of('"a" AND "b"') is None
    assert phrases_of('"a" OR ".."') is None  # no word: SQLite decides what it means


def test_the_tokenizer_reads_words_as_the_index_does():
    tokenizer = Tokenizer("porter unicode61 remove_diacritics 2")
    try:
        assert tokenizer.words(["Gardens of the Café", "", "signed"]) == [("garden", "of", "the", "cafe"), (),
                                                                         ("sign",)]
    finally:
        tokenizer.close()


def same_as_sqlite(postings: Bm25Postings, db_path, match: str, common_hits: int,
                   before_id: int | None = None, limit: int = 100) -> None:
    ranked = kept(postings, db_path, match, before_id, limit)
    if ranked is None:  # SQLite must rank: only where no phrase is a kept word
        assert common_hits > 1 and ("*" in match or "absent" in match), match
        return
    assert ranked == sqlite_ranked(db_path, match, before_id, limit), match


def test_rankings_are_sqlites_bit_for_bit(store, db_path, common_hits):
    fill(store)
    postings = built(store, db_path)
    for match in MATCHES:
        for before_id, limit in ((None, 100), (20, 5), (None, 1), (None, 0)):
            same_as_sqlite(postings, db_path, match, common_hits, before_id, limit)


def test_sums_of_many_phrases_are_sqlites_bit_for_bit(store, db_path):
    """Floating-point sums depend on their order: many messages holding many of many phrases."""
    rng = random.Random(7)
    vocabulary = [f"w{k}" for k in range(40)]
    cid = store.create_conversation(title="t").id
    for _ in range(300):
        store.append(cid, Message(role="user", content=" ".join(rng.choices(vocabulary, k=rng.randint(1, 30)))))
    postings = built(store, db_path)
    for _ in range(40):
        match = " OR ".join(f'"{word}"' for word in rng.sample(vocabulary, rng.randint(2, 12)))
        assert kept(postings, db_path, match, None, 300) == sqlite_ranked(db_path, match, None, 300), match


def test_messages_appended_later_are_ranked_and_counted_too(store, db_path, common_hits):
    fill(store)
    postings = built(store, db_path)
    cid = store.create_conversation(title="later").id
    newest = store.append(cid, Message(role="user", content="days of mango, mango days")).id
    store.append(cid, Message(role="user", content="ok, a word never seen: zanzibar"))  # N and the mean length move
    for match in (*MATCHES, '"zanzibar" OR "mango"', '"zanz"* OR "mang"*'):
        same_as_sqlite(postings, db_path, match, common_hits)
    assert newest in [mid for mid, _ in kept(postings, db_path, '"mango" OR "days"')]
    with sqlite3.connect(db_path) as db:
        # a word no message held at the build, and a prefix, are counted when every word was kept
        every = postings.snapshot.every_word
        assert postings.hits(db, "messages_fts", ['"mango"', '"days"', '"zanzibar"', '"gard"*', '"zanz"*']) == [
            sqlite_count(db_path, '"mango"'), sqlite_count(db_path, '"days"'),
            *((1, sqlite_count(db_path, '"gard"*'), 1) if every else (None, None, None))]


def test_a_message_appended_since_the_snapshot_and_deleted_leaves_it_standing(store, db_path):
    fill(store)
    postings = built(store, db_path)
    snapshot = postings.snapshot
    stays = store.create_conversation(title="stays").id
    store.append(stays, Message(role="user", content="mango days again"))
    gone = store.create_conversation(title="gone").id
    store.append(gone, Message(role="user", content="mango mango mango"))
    assert kept(postings, db_path, '"mango" OR "days"') == sqlite_ranked(db_path, '"mango" OR "days"', None, 100)
    store.delete(gone)
    assert kept(postings, db_path, '"mango" OR "days"') == sqlite_ranked(db_path, '"mango" OR "days"', None, 100)
    assert postings.snapshot is snapshot  # the messages it holds are all there: no new one was needed


def test_a_deletion_sends_ranking_back_to_sqlite_until_a_new_snapshot_is_in(store, db_path, monkeypatch):
    monkeypatch.setattr(bm25_postings, "REBUILD_EVERY_S", 0.0)
    fill(store)
    gone = store.create_conversation(title="gone").id
    store.append(gone, Message(role="user", content="mango days"))
    postings = built(store, db_path)
    before = postings.snapshot
    store.delete(gone)
    assert kept(postings, db_path, '"mango"') is None  # SQLite ranks: the snapshot holds a deleted message
    for thread in threading.enumerate():
        if thread.name == "bm25-postings":
            thread.join()
    assert postings.snapshot is not None and postings.snapshot is not before
    assert kept(postings, db_path, '"mango"') == sqlite_ranked(db_path, '"mango"', None, 100)


def test_postings_that_would_not_give_sqlites_doubles_are_not_kept(store, db_path, monkeypatch):
    fill(store)
    exact = postings_snapshot.terms_of
    monkeypatch.setattr(postings_snapshot, "terms_of", lambda *args: exact(*args) * (1 + 1e-15))
    postings = Bm25Postings()
    postings.keep(lambda: db_path)
    assert postings.snapshot is None
    assert kept(postings, db_path, '"days"') is None


def test_a_build_that_fails_says_nothing_and_leaves_ranking_to_sqlite(store, db_path, capsys):
    fill(store)
    postings = Bm25Postings()

    def broken() -> None:
        raise RuntimeError("the profile's folder went away")

    postings.keep(broken, wait=False)
    for thread in threading.enumerate():
        if thread.name == "bm25-postings":
            thread.join()
    assert postings.snapshot is None and kept(postings, db_path, '"days"') is None
    assert capsys.readouterr() == ("", "")  # no traceback on the app's screen


def test_the_store_ranks_and_counts_from_postings_as_a_store_without_them(store, db_path, common_hits):
    fill(store)
    store.keep_ranking_index()
    statements: list[str] = []
    for text in ("mango days", "ok", "the mother in law ate"):
        other = HistoryStore(db_path)
        try:
            store._db().set_trace_callback(statements.append)
            for match in MATCHES:
                assert store.recall_candidates(match, 10) == other.recall_candidates(match, 10)
            words = ("mango", "days", "gardens", "absent")
            assert store.term_counts(words, cap=1000) == other.term_counts(words, cap=1000)
        finally:
            store._db().set_trace_callback(None)
            other.close()
        store.append(store.create_conversation(title="x").id, Message(role="user", content=text))
    # the kept words' matches were never scored by SQLite: only the phrase of three words was (and,
    # when rare words are left to SQLite, the prefixes and the word in no message)
    scored = [s for s in statements if "bm25(" in s]
    alone = ('"mother in law"',) if common_hits == 1 else ('*', '"mother in law"', '"absent"')
    assert scored and all(any(phrase in s for phrase in alone) for s in scored), scored
