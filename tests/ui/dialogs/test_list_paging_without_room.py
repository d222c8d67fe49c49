"""PageUp/PageDown on a focused list with no room left to lay it out leave the app running.

Textual's ``OptionList`` builds its option-to-line map only while it has a size; shrunk to
nothing (a dialog's list as the terminal went to 40x12 in a key storm), paging raised
``KeyError`` from the app's key handling and the app ended. The key now does nothing.
"""

from __future__ import annotations

import pytest
from textual.app import ComposeResult
from textual.screen import ModalScreen
from textual.widgets import OptionList

from agenttui.ui.app import make_app
from tests.ui.helpers import chat, wait_until


class _Picker(ModalScreen[None]):
    """A dialog with a list, as the model picker and the profiles dialog have."""

    def compose(self) -> ComposeResult:
        yield OptionList(*(f"option {n}" for n in range(40)))


@pytest.mark.slow
@pytest.mark.parametrize("key", ["pageup", "pagedown"])
async def test_paging_a_list_that_has_no_room_does_nothing(services, key):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready and chat(app).prompt is not None)
        await app.push_screen(_Picker())
        options = app.screen.query_one(OptionList)
        options.focus()
        await wait_until(pilot, lambda: options.has_focus and options.size.height > 0)
        options.styles.height = 0  # no room, as after a resize to a tiny terminal
        await wait_until(pilot, lambda: options.size.height == 0)
        options.clear_options()  # its lines are built again only once it has room
        options.add_options([f"option {n}" for n in range(40)])
        await pilot.press(key)
        await pilot.press(key)
        assert app.is_running and isinstance(app.screen, _Picker)
        assert app.failure is None
