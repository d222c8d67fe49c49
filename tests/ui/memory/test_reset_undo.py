"""After a memory reset, ``u`` in the Memory pane offers to put the snapshot back (it said
"Nothing to undo", and no in-app path restored the snapshot the reset made)."""

from __future__ import annotations

from agenttui.ui.app import make_app
from agenttui.ui.screens.confirm import ConfirmScreen
from tests.ui.helpers import wait_until

SIZE = (120, 36)


async def _dialog(pilot, app) -> ConfirmScreen:
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen) and app.screen.query("#confirm-dialog"))
    await pilot.pause()
    return app.screen


async def test_u_after_a_reset_restores_the_snapshot_after_asking(services):
    memory = services.memory
    memory.add_note("user note one")
    memory.set_fact("editor", "helix")
    memory.add_note("profile note", scope="profile")
    before = {(item.id, item.scope) for item in memory.items()}
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready)
        pane = app.main.query_one("#memory-pane")
        await wait_until(pilot, lambda: pane.option_list.option_count == 3)
        await app.run_action("reset_memory('all')")
        dialog = await _dialog(pilot, app)
        dialog.query_one("#confirm-word").focus()
        await pilot.press(*"delete", "enter")
        await wait_until(pilot, lambda: not memory.items())
        await wait_until(pilot, lambda: pane.option_list.option_count == 0)
        memory.add_note("added after the reset")

        await pilot.press("f2")  # Memory, at its add box
        await wait_until(pilot, lambda: pane.has_focus_within)
        pane.option_list.focus()  # the list's keys
        await pilot.press("u")
        dialog = await _dialog(pilot, app)
        assert "snapshot" in dialog.statement
        await pilot.press("escape")  # not yet: nothing comes back
        await wait_until(pilot, lambda: not isinstance(app.screen, ConfirmScreen))
        assert [item.text for item in memory.items()] == ["added after the reset"]

        pane.option_list.focus()
        await pilot.press("u")
        dialog = await _dialog(pilot, app)
        dialog.query_one("#confirm").press()
        await wait_until(pilot, lambda: len(memory.items()) == 4)
        assert before <= {(item.id, item.scope) for item in memory.items()}  # the same items, ids kept
        await wait_until(pilot, lambda: pane.option_list.option_count == 4)
        await wait_until(pilot, lambda: any("Restored 3 item(s)" in n[2] for n in app.notices))
