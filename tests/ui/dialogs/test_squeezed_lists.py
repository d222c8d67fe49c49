"""A list and a text box with no columns left (a dialog squeezed by a tiny terminal).

Textual wraps an option's text and a placeholder at the width given, and Rich's wrap steps
by that width: at 0 columns it raised ValueError and the app ended (a key storm with a resize
to 40x12). The app's stylesheet keeps a few columns for each (app.tcss).
"""

from __future__ import annotations

import pytest
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, TextArea

from agenttui.ui.app import make_app
from tests.ui.helpers import chat, wait_until


class _Squeezed(ModalScreen[None]):
    """Its box 3 columns wide: less than a list's border and padding."""

    DEFAULT_CSS = "#box { width: 3; }"

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield OptionList("a long option that must wrap", "another")
            yield TextArea(placeholder="type a long placeholder here")


@pytest.mark.slow
async def test_a_list_and_a_text_box_squeezed_to_nothing_leave_the_app_running(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready and chat(app).prompt is not None)
        await app.push_screen(_Squeezed())
        await pilot.pause()
        await pilot.pause()
        assert app.is_running and app.failure is None
