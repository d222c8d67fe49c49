"""History search finds conversations by their titles, in any script and case."""

from __future__ import annotations

from agenttui.core.history.search import group_by_conversation, search_messages, title_hits
from agenttui.core.models import Message


def _titled(store, title, *texts):
    conversation = store.create_conversation(title=title)
    if texts:
        store.append_many(conversation.id, [Message("user", text) for text in texts])
    return store.get_conversation(conversation.id)


def test_a_cjk_word_inside_a_title_is_found_though_no_message_says_it(store):
    imported = _titled(store, "Imported 导入 chat", "hello there", "我们明天见")
    _titled(store, "weekend plans", "导 and 入 apart")
    hits = title_hits(store, "导入")
    assert [(h.conversation_id, h.message_id, h.in_title) for h in hits] == [
        (imported.id, imported.active_leaf_id, True)]  # opens where the list opens it
    assert search_messages(store, "导入") == []  # the message search alone misses it


def test_every_word_is_needed_case_folded_and_newest_first(store):
    old = _titled(store, "Über die Straße", "eins")
    new = _titled(store, "über STRASSE notes", "zwei")  # "ß" folds to "ss"
    _titled(store, "über alles", "drei")
    assert [h.conversation_id for h in title_hits(store, "ÜBER strasse")] == [new.id, old.id]


def test_archived_conversations_count_and_empty_ones_have_nowhere_to_open(store):
    archived = _titled(store, "tax return 2025", "file by April")
    store.archive(archived.id)
    _titled(store, "tax ideas")  # no message: nothing to open at
    assert [h.conversation_id for h in title_hits(store, "tax")] == [archived.id]


def test_a_query_without_words_finds_no_title(store):
    _titled(store, "??? !!!", "x")
    assert title_hits(store, "???") == []
    assert title_hits(store, "") == []


def test_a_title_hit_places_its_row_first_but_counts_no_message(store):
    both = _titled(store, "docker notes", "docker compose up", "docker ps")
    other = _titled(store, "misc", "docker again")
    hits = title_hits(store, "docker") + search_messages(store, "docker")
    groups = group_by_conversation(hits)
    assert [g.conversation_id for g in groups] == [both.id, other.id]
    first = groups[0]
    assert first.in_title and first.count == 2  # two messages matched; the title is not one
    assert not first.best.in_title  # the row opens at its best matching message
    assert not groups[1].in_title and groups[1].count == 1
