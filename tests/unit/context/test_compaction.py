"""Honest context: figures of a prompt, /compact's plan, a summary sent instead.

Real stores (SQLite history, memory and project files); the model call is in
tests/ui/context/test_compact.py (the real openai client against the fake server).
"""

from __future__ import annotations

import pytest

from agenttui.agent.compact import CompactError, plan_for, store_summary
from agenttui.core.context.assemble import assemble
from agenttui.core.context.compaction import SUMMARY_INTRO, ContextFigures, figures, summary_request
from agenttui.core.models import Message


def add(services, cid, role, content) -> Message:
    return services.history.append(cid, Message(role=role, content=content))


def chat(services, cid, n: int) -> list[Message]:
    stored = []
    for k in range(n):
        stored.append(add(services, cid, "user", f"question number {k} about the kraken deploy"))
        stored.append(add(services, cid, "assistant", f"answer number {k}: run step {k}"))
    return stored


def test_figures_count_what_the_window_left_out(services):
    services.settings.history.window_messages = 4
    cid = services.history.create_conversation().id
    stored = chat(services, cid, 6)
    current = add(services, cid, "user", "what next?")
    built = assemble(services, cid, current, mark_used=False)
    numbers = figures(built)
    assert numbers.not_sent == 8 and not numbers.not_sent_more  # 12 older, 4 sent
    assert numbers.first_sent_id == stored[8].id
    assert numbers.tokens == built.tokens and numbers.budget == built.budget > 0
    assert numbers.meter().startswith("context ") and "/" in numbers.meter()
    assert numbers.not_sent_text().startswith("older turns not sent: 8 ")
    assert ContextFigures(tokens=1234, budget=16000).meter() == "context 1.2k/16k"


def test_a_stored_summary_is_sent_instead_of_what_it_covers(services):
    services.settings.history.window_messages = 30
    services.memory.add_note("pinned: deploys happen on Fridays")
    services.project.write_context("Kraken is the billing service.")
    cid = services.history.create_conversation().id
    stored = chat(services, cid, 5)
    plan = plan_for(services, cid)
    assert plan is not None
    # the newest two user turns stay verbatim; everything before them is summarised
    assert [m.id for m in plan.messages] == [m.id for m in stored[:6]]
    assert (plan.first_id, plan.last_id, plan.replaced) == (stored[0].id, stored[5].id, 6)
    request = summary_request(plan, 16000)
    assert "question number 0" in request[1]["content"] and "question number 3" not in request[1]["content"]
    summary = store_summary(services, cid, "The user deploys kraken in steps 0-2.", plan)
    assert summary.summary_of == (stored[0].id, stored[5].id)

    current = add(services, cid, "user", "and step 5?")
    built = assemble(services, cid, current, mark_used=False)
    contents = [m["content"] for m in built.messages]
    assert "pinned: deploys happen on Fridays" in contents[0]  # memory and project are never dropped
    assert "Kraken is the billing service." in contents[0]
    summaries = [c for c in contents if c.startswith(SUMMARY_INTRO)]
    assert summaries == [f"{SUMMARY_INTRO}\n<summary>\nThe user deploys kraken in steps 0-2.\n</summary>"]
    turns = [m["content"] for m in built.messages if m["role"] != "system"]
    assert turns == [m.content for m in stored[6:]] + ["and step 5?"]
    assert built.messages.index({"role": "system", "content": summaries[0]}) < len(built.messages) - len(turns)
    numbers = figures(built)
    assert numbers.not_sent == 0 and numbers.summary_id == summary.id
    # the originals stay in history and search
    assert [m.content for m in services.history.messages(cid)][:2] == [stored[0].content, stored[1].content]
    assert any(hit.message_id == stored[0].id for hit in services.history.search("question number 0"))
    reread = services.history.messages(cid)
    assert next(m for m in reread if m.id == summary.id).summary_of == summary.summary_of


def test_compacting_again_folds_the_previous_summary_in(services):
    cid = services.history.create_conversation().id
    first = chat(services, cid, 3)
    store_summary(services, cid, "Steps 0 done.", plan_for(services, cid))
    later = chat(services, cid, 3)
    plan = plan_for(services, cid)
    assert plan is not None and plan.previous is not None
    assert plan.first_id == first[0].id and plan.last_id == later[1].id
    assert plan.messages[0].content == "Steps 0 done."  # the old summary is summarised with them
    assert [m.id for m in plan.messages[1:]] == [m.id for m in first[2:]] + [later[0].id, later[1].id]


def test_nothing_to_compact_and_empty_summaries(services):
    cid = services.history.create_conversation().id
    chat(services, cid, 2)
    assert plan_for(services, cid) is None  # two turns: both stay verbatim
    chat(services, cid, 1)
    with pytest.raises(CompactError):
        store_summary(services, cid, "   ", plan_for(services, cid))


def test_a_summary_survives_json_export_and_import_and_an_incognito_save(services, paths):
    """Its range names messages by id: copied elsewhere (import, a saved incognito chat) the
    ids are new, and the range follows them."""
    import json

    from agenttui.core.history.importer import import_into, parse_export
    from agenttui.core.history.store import HistoryStore
    from agenttui.core.incognito import incognito_services, save_conversation

    cid = services.history.create_conversation("Kraken").id
    stored = chat(services, cid, 4)
    summary = store_summary(services, cid, "Steps 0 and 1 done.", plan_for(services, cid))
    document = json.loads(services.history.export_json(cid))
    assert document["messages"][-1]["summary_of"] == [stored[0].id, stored[3].id]

    other = HistoryStore(paths.data_dir / "other.sqlite3")
    try:
        other.create_conversation("filler")  # ids in the new store differ from the old ones
        for k in range(5):
            other.append(other.list_conversations()[0].id, Message(role="user", content=f"filler {k}"))
        parsed = parse_export(document)
        assert import_into(other, parsed.conversations).imported == 1
        new_cid = parsed.conversations[0].conversation.id
        copied = other.messages(new_cid)
        assert copied[-1].summary_of == (copied[0].id, copied[3].id) != summary.summary_of
    finally:
        other.close()

    twin = incognito_services(services)
    chat_id = twin.history.create_conversation().id
    for k in range(3):
        twin.history.append(chat_id, Message(role="user", content=f"secret question {k}"))
        twin.history.append(chat_id, Message(role="assistant", content=f"secret answer {k}"))
    kept = store_summary(twin, chat_id, "Question 0 answered.", plan_for(twin, chat_id))
    assert kept.summary_of is not None
    save_conversation(twin, chat_id, services.history)
    saved = services.history.messages(chat_id)
    assert saved[-1].summary_of == (saved[0].id, saved[1].id)
    built = assemble(services, chat_id, Message(role="user", content="next?"), mark_used=False)
    assert any(m["content"].startswith(SUMMARY_INTRO) for m in built.messages)
    assert "secret question 0" not in [m["content"] for m in built.messages]
