"""Enter pressed twice in the merge dialog (or Enter and Esc at once) answers it once.

Found by a random key storm in tmux: the dialog's answer handler ran again for a key queued
before the dialog had gone, dismissing the screen under it -- the audit, or with the audit
closed too, the last screen: Textual's ScreenStackError ended the app (crash log). A second
Enter also merged again, with the notes of the first merge gone.
"""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from agenttui.ui.app import make_app
from agenttui.ui.screens.audit import AuditScreen
from agenttui.ui.screens.merge_choice import MergeChoiceScreen
from agenttui.ui.screens.model_picker import ModelPickerScreen
from agenttui.ui.widgets.audit_table import AuditTable
from tests.ui.audit.test_audit import audit_open
from tests.ui.data_harness import settle
from tests.ui.helpers import send, type_at_once, wait_until


async def _merge_dialog(pilot, app, screen, items) -> MergeChoiceScreen:
    table = screen.query_one(AuditTable)
    table.move_cursor(row=[r.item.id for r in table.shown].index(items[0].id))
    await pilot.press("m")
    await wait_until(pilot, lambda: isinstance(app.screen, MergeChoiceScreen))
    return app.screen


@pytest.mark.slow
@pytest.mark.parametrize(("keys", "merged"), [("\r\r", 1), ("\r\x1b", 0)], ids=["enter-enter", "enter-esc"])
async def test_the_merge_dialog_answers_once_and_the_audit_stays(services, keys, merged):
    """Enter and Esc at once: Esc's binding runs as the key arrives, before the selection
    Enter posted is handled, so the dialog is cancelled (and answers nothing more)."""
    async with audit_open(services) as (items, app, pilot, screen):
        await _merge_dialog(pilot, app, screen, items)
        merges = []
        real_merge = services.memory.merge
        services.memory.merge = lambda *args, **kw: (merges.append(args), real_merge(*args, **kw))[1]
        type_at_once(app, keys)
        await wait_until(pilot, lambda: not isinstance(app.screen, MergeChoiceScreen))
        await settle(pilot, app)
        assert isinstance(app.screen, AuditScreen) and app.screen is screen
        assert len(merges) == merged
        ids = {i.id for i in services.memory.items()}
        assert items[0].id in ids and (items[1].id in ids) == (merged == 0)


@pytest.mark.slow
async def test_the_model_picker_picked_twice_over_the_main_screen_leaves_the_app_running(chat_services, fake_openai):
    """Over the main screen alone, the second dismiss had no screen left to pop: the app ended."""
    fake_openai.more_models = ["zeta-large"]
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready)
        await send(pilot, "/model")
        await wait_until(pilot, lambda: isinstance(app.screen, ModelPickerScreen))
        picker = app.screen
        await wait_until(pilot, lambda: "zeta-large" in picker.models and picker.query_one(OptionList).has_focus)
        picker.query_one(OptionList).highlighted = picker.models.index("zeta-large")
        type_at_once(app, "\r\r")
        await wait_until(pilot, lambda: "model: zeta-large" in app.sub_title)
        await settle(pilot, app)
        assert app.is_running and app.screen is app.main
