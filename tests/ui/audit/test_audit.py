"""Audit screen: flags shown, filter, sort, pin, merge duplicates, bulk delete."""

from __future__ import annotations

import io
import json
from contextlib import asynccontextmanager
from datetime import timedelta

import pytest
from textual.widgets import Input, OptionList

from agenttui.core.models import MemoryItem, utcnow
from agenttui.ui.app import make_app
from agenttui.ui.screens.audit import AuditScreen
from agenttui.ui.screens.confirm import ConfirmScreen
from agenttui.ui.screens.merge_choice import MergeChoiceScreen
from agenttui.ui.slash.dispatch import run_slash_command
from agenttui.ui.widgets.audit_table import AuditTable
from tests.ui.data_harness import settle
from tests.ui.helpers import wait_until


def seed(services):
    """Deterministic items written straight to the user file (hand-edit style)."""
    now = utcnow()
    old = now - timedelta(days=400)
    items = [
        MemoryItem(kind="note", scope="user", text="prefer short answers in English", source="explicit"),
        MemoryItem(kind="note", scope="user", text="Prefer short answers, in English!", source="correction"),
        MemoryItem(kind="fact", scope="user", key="editor", value="vim", source="manual"),
        MemoryItem(kind="fact", scope="user", key="language", value="id", source="explicit", use_count=3,
                   last_used=now),
        MemoryItem(kind="note", scope="user", text="old habit nobody uses", source="import",
                   created=old, updated=old),
        MemoryItem(kind="note", scope="user", text="temporary: on call this week", source="explicit",
                   expires=now - timedelta(days=1)),
    ]
    path = services.paths.user_memory_file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"schema": 1, "scope": "user",
                                "items": [i.to_dict() for i in items], "archive": []}))
    return items


def panel_text(screen) -> str:
    """What the panel under the table shows, as plain text (a Rich Group: text and a table)."""
    from rich.console import Console

    console = Console(width=160, record=True, file=io.StringIO())
    console.print(screen.query_one("#audit-reasons").content)
    return console.export_text()


@asynccontextmanager
async def audit_open(services):
    """Seeded items, and the app running with the audit screen open."""
    items = seed(services)
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        await app.run_action("open_audit")
        await settle(pilot, app)
        assert isinstance(app.screen, AuditScreen)
        yield items, app, pilot, app.screen


@pytest.mark.slow
async def test_flags_filter_sort_and_pin(services):
    async with audit_open(services) as (items, app, pilot, screen):
        table = screen.query_one(AuditTable)
        assert table.row_count == 6
        flags = {row.item.id: set(row.flags) for row in screen.rows}
        assert "duplicate" in flags[items[0].id] and "duplicate" in flags[items[1].id]
        assert "stale" in flags[items[4].id] and "expired" in flags[items[5].id]
        # filter by flag with the number keys, back to all with 0
        await pilot.press("3")  # duplicate
        await pilot.pause()
        assert {r.item.id for r in table.shown} == {items[0].id, items[1].id}
        await pilot.press("6")  # expired
        await pilot.pause()
        assert [r.item.id for r in table.shown] == [items[5].id]
        await pilot.press("0")
        await pilot.pause()
        assert table.row_count == 6
        # sort: "o" cycles the column (flags -> scope -> ... -> uses), "r" reverses
        for _ in range(7):
            await pilot.press("o")
        assert screen.sort == "uses"
        assert table.shown[-1].item.id == items[3].id  # ascending: the used one last
        await pilot.press("r")
        await pilot.pause()
        assert table.shown[0].item.id == items[3].id
        assert "sorted by uses" in str(screen.query_one("#audit-summary").render())
        # pin the highlighted row
        table.move_cursor(row=0)
        await pilot.press("p")
        await settle(pilot, app)
        assert services.memory.get(items[3].id).pinned


@pytest.mark.slow
async def test_merge_asks_which_wording_to_keep(services):
    async with audit_open(services) as (items, app, pilot, screen):
        table = screen.query_one(AuditTable)
        await pilot.press("3")
        await pilot.pause()
        table.move_cursor(row=[r.item.id for r in table.shown].index(items[1].id))
        await pilot.pause()
        # the pair side by side under the table, with why they match
        panel = panel_text(screen)
        assert "Prefer short answers, in English!" in panel and "prefer short answers in English" in panel
        assert "same text" in panel
        await pilot.press("m")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, MergeChoiceScreen)
        options = dialog.query_one(OptionList)
        assert options.option_count == 2 and options.highlighted == 0  # the highlighted row first
        await pilot.press("down", "enter")  # keep the other wording
        await settle(pilot, app)
        ids = {i.id for i in services.memory.items()}
        assert items[0].id in ids and items[1].id not in ids
        assert not any("duplicate" in row.flags for row in screen.rows)


@pytest.mark.slow
async def test_merge_cancelled_changes_nothing(services):
    async with audit_open(services) as (items, app, pilot, screen):
        table = screen.query_one(AuditTable)
        table.move_cursor(row=[r.item.id for r in table.shown].index(items[0].id))
        await pilot.press("m")
        await pilot.pause()
        await pilot.press("escape")
        await settle(pilot, app)
        assert app.screen is screen
        assert {items[0].id, items[1].id} <= {i.id for i in services.memory.items()}


@pytest.mark.slow
async def test_an_override_is_shown_not_flagged(services):
    items = seed(services)
    services.memory.set_fact("language", "en", scope="profile", source="explicit")
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        await app.run_action("open_audit")
        await settle(pilot, app)
        screen = app.screen
        rows = {row.item.id: row for row in screen.rows}
        user_language = rows[items[3].id]
        assert "conflict" not in user_language.flags and "override" in user_language.notes
        table = screen.query_one(AuditTable)
        table.move_cursor(row=[r.item.id for r in table.shown].index(items[3].id))
        await pilot.pause()
        assert "override" in str(table.get_row(items[3].id)[-1])
        assert "overrides 'id'" in panel_text(screen)


@pytest.mark.slow
async def test_bulk_delete_flagged_with_confirm(services):
    async with audit_open(services) as (items, app, pilot, screen):
        flagged = {row.item.id for row in screen.rows if row.flags}
        assert flagged and len(flagged) < 6
        await pilot.press("X")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert f"{len(flagged)} memory item(s)" in dialog.statement and "duplicate 2" in dialog.statement
        assert app.focused is dialog.query_one("#confirm-word", Input)  # typing goes there
        await pilot.press(*"delete", "enter")
        await settle(pilot, app)
        left = {i.id for i in services.memory.items()}
        assert left == {i.id for i in items} - flagged
        assert services.memory.last_backup is not None and services.memory.last_backup.exists()
        assert screen.query_one(AuditTable).row_count == len(left)
        # closing tells the app that memory changed; the pane reloads
        await pilot.press("escape")
        await settle(pilot, app)
        pane = app.screen.query_one("#memory-pane")
        assert set(pane.items) == left


@pytest.mark.slow
async def test_edit_from_audit_goes_through_the_gate(services):
    async with audit_open(services) as (items, app, pilot, screen):
        table = screen.query_one(AuditTable)
        table.move_cursor(row=[r.item.id for r in table.shown].index(items[2].id))
        await pilot.press("e")
        editor = screen.query_one("#audit-editor", Input)
        assert editor.value == "editor = vim"
        editor.value = "editor = helix"
        await pilot.press("enter")
        await settle(pilot, app)
        assert services.memory.get(items[2].id).value == "helix"
        table.move_cursor(row=[r.item.id for r in table.shown].index(items[3].id))
        await pilot.press("e")
        editor.value = "api_key = sk-nope"
        await pilot.press("enter")
        await settle(pilot, app)
        assert services.memory.get(items[3].id).value == "id"
        assert any(n.severity == "error" for n in app._notifications)


@pytest.mark.slow
async def test_audit_deep_lists_proposals_and_applies_only_accepted_ones(chat_services, fake_openai):
    services = chat_services
    items = seed(services)
    # the model sees items sorted by kind, key and text; m1.. in that order
    ordered = sorted(services.memory.items("all"), key=lambda i: (i.kind, i.key or "", i.display.casefold()))
    label = {item.id: f"m{n}" for n, item in enumerate(ordered, 1)}
    fake_openai.reply(json.dumps({"proposals": [
        {"action": "delete", "ids": [label[items[4].id]], "keep": None, "text": None,
         "reason": "nobody uses it"},
        {"action": "correct", "ids": [label[items[2].id]], "keep": None, "text": "helix",
         "reason": "a newer note says helix"},
    ]}))
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        chat = app.screen.query_one("#chat-pane")
        await run_slash_command(chat, "/audit deep")
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, AuditScreen) and screen.deep
        await wait_until(pilot, lambda: screen.proposals)  # the model's review has arrived
        assert [p.action for p in screen.proposals] == ["delete", "correct"]
        listed = screen.query_one("#audit-proposals", OptionList)
        assert listed.option_count == 2 and "nobody uses it" in str(listed.get_option_at_index(0).prompt)
        assert {i.id for i in services.memory.items("all")} == {i.id for i in items}  # nothing yet
        await pilot.press("n")  # reject the deletion
        await pilot.pause()
        await pilot.press("a")  # accept the correction: through the gate
        await settle(pilot, app)
        assert services.memory.get(items[2].id).value == "helix"
        assert services.memory.get(items[4].id) is not None  # rejected: kept
        assert screen.proposals == []
        sent = fake_openai.chat_requests[-1]["messages"]
        assert "<memory>" in sent[1]["content"]


@pytest.mark.slow
async def test_semantic_audit_finds_a_paraphrase_and_warns_once_when_embeddings_fail(chat_services, fake_openai):
    """With [recall] semantic on (the app's embedding backfill runs beside, so no settle())."""
    from agenttui.core.audit import vectors as audit_vectors

    audit_vectors.forget()
    services = chat_services
    services.settings.recall.semantic = True
    a = services.memory.add_note("Call my mom every Sunday evening").item
    b = services.memory.add_note("Every Sunday night I phone my mother").item
    fake_openai.embed_as(b.text, like=a.text).embed_as("phone", like="call")
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await app.run_action("open_audit")
        await wait_until(pilot, lambda: isinstance(app.screen, AuditScreen) and app.screen.rows)
        rows = {row.item.id: row for row in app.screen.rows}
        assert "duplicate" in rows[a.id].flags and "embedding cosine" in rows[a.id].matched[b.id]
    audit_vectors.forget()
    fake_openai.no_embeddings()
    services.settings.recall.semantic = False  # no backfill in this app: it would turn semantic off first
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        services.settings.recall.semantic = True
        await app.run_action("open_audit")
        await wait_until(pilot, lambda: isinstance(app.screen, AuditScreen) and app.screen.rows)
        assert len(app.screen.rows) == 2  # the lexical audit ran
        await wait_until(pilot, lambda: any("Duplicates by meaning are off" in n.message
                                            for n in app._notifications))
        assert sum("Duplicates by meaning are off" in n.message for n in app._notifications) == 1
