"""At 80x24 the audit table's flags column stays on screen: the text column gives way."""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.screens.audit import AuditScreen
from agenttui.ui.widgets.audit_table import AuditTable
from tests.ui.audit.test_audit import seed
from tests.ui.data_harness import settle
from tests.ui.helpers import wait_until


def _screen_text(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
@pytest.mark.parametrize("extra", [0, 30])  # 30 more: a vertical scrollbar takes its columns too
async def test_flags_column_is_within_the_screen(services, size, extra):
    seed(services)
    for n in range(extra):
        services.memory.add_note(f"the standup on weekday {n} moved to room {n * 3}")
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        await app.run_action("open_audit")
        await wait_until(pilot, lambda: isinstance(app.screen, AuditScreen) and app.screen.query(AuditTable))
        table = app.screen.query_one(AuditTable)
        await wait_until(pilot, lambda: table.row_count == 6 + extra)
        await pilot.pause()
        visible = table.scrollable_content_region.width
        widths = [column.get_render_width(table) for column in table.columns.values()]
        assert sum(widths) <= visible, (widths, visible)  # nothing right of the screen's edge
        await wait_until(pilot, lambda: table.max_scroll_x == 0)  # its virtual size follows a refresh
        shown = _screen_text(app)
        assert "flags" in shown and "DUP" in shown and "expired" in shown
