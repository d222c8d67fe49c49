"""Enter twice in the command palette runs its command and leaves the app running.

The palette is Textual's own (``CommandPalette``): its list posts a selection for every
Enter, and the second one's ``dismiss`` found only the main screen to pop -- Textual's
``ScreenStackError`` ended the app (found by a random key storm in tmux: crash log, exit 1).
The app refuses to pop its last screen (``AgentTUI.pop_screen``).
"""

from __future__ import annotations

import pytest
from textual.command import CommandPalette

from agenttui.ui.app import make_app
from tests.ui.data_harness import settle
from tests.ui.helpers import chat, type_at_once, wait_until


@pytest.mark.slow
async def test_enter_twice_in_the_command_palette(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready and chat(app).prompt is not None)
        await app.run_action("command_palette")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        type_at_once(app, "focus memory")
        await wait_until(
            pilot, lambda: app.screen.query("CommandList") and app.screen.query_one("CommandList").option_count
        )
        type_at_once(app, "\r\r")
        await wait_until(pilot, lambda: app.screen is app.main)
        await settle(pilot, app)
        assert app.is_running and app.screen is app.main


@pytest.mark.slow
@pytest.mark.parametrize("key", ["pageup", "pagedown"])
@pytest.mark.parametrize("size", [(120, 36), (40, 6)])
async def test_paging_the_command_palette_with_no_room_leaves_the_app_running(services, key, size):
    """Textual's OptionList pages by a line map its layout builds: in a list with no room (a
    small terminal; the key storm resized to 40x12) the map is empty and it raised KeyError in
    the app's own key handling: the app ended (found by the key storm: both apps, exit 1)."""
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready and chat(app).prompt is not None)
        await app.run_action("command_palette")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        type_at_once(app, "focus")
        await settle(pilot, app)
        await pilot.press(key)
        await settle(pilot, app)
        assert app.is_running and isinstance(app.screen, CommandPalette)


@pytest.mark.slow
@pytest.mark.parametrize("burst", ["\x1b[6~", "fo\x1b[5~\x1b[6~"], ids=["pagedown", "typed-pageup-pagedown"])
async def test_paging_keys_as_the_command_palette_opens_leave_the_app_running(services, burst):
    """ctrl+p and PageDown at once: the list not laid out yet, Textual's OptionList raised KeyError
    in the app's own key handling and the app ended (command_palette.py)."""
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready and chat(app).prompt is not None)
        type_at_once(app, "\x10" + burst)  # ctrl+p
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await settle(pilot, app)
        assert app.is_running and isinstance(app.screen, CommandPalette)
