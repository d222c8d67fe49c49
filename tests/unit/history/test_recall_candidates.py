"""``HistoryStore.recall_candidates`` ranks on the FTS index alone when it can,
and must give exactly what the filtered ranking gives.

The oracle is the same method with a filter that keeps every row (``since``
before any date), which forces the ranking that reads each match's row.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message, ToolCall
from agenttui.core.recall.text import fts_or_query

WORDS = ("kopi", "cat", "vet", "naps", "tuna")
EVERY_DATE = "0000"  # a ``since`` that keeps every row: takes the filtered path


def add(store: HistoryStore, cid: str, kind: str, words: list[str]) -> None:
    text = " ".join(words)
    if kind == "tool":
        call = ToolCall(id=f"c{len(text)}", name="read_file", arguments="{}")
        store.append(cid, Message(role="assistant", content=text, tool_calls=[call]))
        store.append(cid, Message(role="tool", content=text, tool_call_id=call.id))
    else:
        store.append(cid, Message(role=kind, content=text))


def ranked(store: HistoryStore, match: str, limit: int, **scope) -> list[tuple[int, str]]:
    return [(row.message_id, row.role) for row in store.recall_candidates(match, limit, **scope)]


def test_tool_traffic_that_outranks_every_turn_is_left_out(store):
    cid = store.create_conversation().id
    for _ in range(30):  # the best matches by far: the word three times each
        add(store, cid, "tool", ["kopi kopi kopi"])
    add(store, cid, "user", ["our cat is called kopi"])
    add(store, cid, "assistant", ["kopi is a fine name"])
    rows = store.recall_candidates(fts_or_query(("kopi",)), 2)
    assert sorted(row.role for row in rows) == ["assistant", "user"]
    assert ranked(store, fts_or_query(("kopi",)), 2) == ranked(store, fts_or_query(("kopi",)), 2,
                                                              since=EVERY_DATE)


corpus = st.lists(
    st.tuples(st.sampled_from(("user", "assistant", "tool")),
              st.lists(st.sampled_from(WORDS), min_size=1, max_size=4)),
    min_size=1, max_size=30,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(messages=corpus, terms=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3, unique=True),
       limit=st.integers(1, 8), cut=st.one_of(st.none(), st.integers(1, 40)))
def test_the_index_ranking_equals_the_filtered_ranking(tmp_path_factory, messages, terms, limit, cut):
    store = HistoryStore(tmp_path_factory.mktemp("recall") / "history.sqlite3")
    try:
        cid = store.create_conversation().id
        for kind, words in messages:
            add(store, cid, kind, words)
        match = fts_or_query(tuple(terms))
        assert match is not None
        got = ranked(store, match, limit, before_id=cut)
        assert got == ranked(store, match, limit, before_id=cut, since=EVERY_DATE)
        assert all(role in ("user", "assistant") for _, role in got)
    finally:
        store.close()
