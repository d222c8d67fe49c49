"""The side panes take a bounded share of the width, so the chat gets most of
it (at 100x30 they kept 28-30 columns each and left the chat 38-40); memory rows never re-wrap
when the list's scrollbar appears, and the scrollbar never sits on or against text. Read from
the screen as drawn (the compositor's strips), not from styles."""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from tests.ui.data_harness import settle
from tests.ui.helpers import chat, wait_until

THUMB = set("▁▂▃▄▅▆▇█▔")  # the scrollbar's thumb glyphs (its track is blank)


def _width(app, pane: str) -> int:
    return app.screen.query_one(f"#{pane}").region.width


@pytest.mark.slow
@pytest.mark.parametrize("size", [(100, 30), (120, 40)])
async def test_the_chat_gets_most_of_the_width_with_both_side_panes(services, size):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None and _width(app, "chat-pane") > 0)
        await settle(pilot, app)
        sides = [_width(app, "memory-pane"), _width(app, "history-pane")]
        assert all(24 <= side <= 40 for side in sides), sides  # still readable
        assert _width(app, "chat-pane") >= size[0] // 2, (sides, _width(app, "chat-pane"))


@pytest.mark.slow
async def test_a_pane_shown_at_80_columns_leaves_the_chat_most_of_the_width(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None)
        await pilot.press("f2")
        await wait_until(pilot, lambda: _width(app, "memory-pane") > 0)
        await settle(pilot, app)
        assert _width(app, "memory-pane") >= 24 and _width(app, "chat-pane") >= 50


def _list_rows(app) -> list[str]:
    """The memory list's rows as drawn, full width of its region (scrollbar column included)."""
    region = app.screen.query_one("#memory-list").region
    strips = app.screen._compositor.render_strips()
    return [strips[y].text[region.x:region.right] for y in range(region.y, region.bottom)]


def _marker_rows(rows: list[str], marker: str) -> list[str]:
    """The rows of the item ending in ``marker``: from its scope tag down to the marker."""
    end = next(i for i, row in enumerate(rows) if marker in row)
    start = max(i for i in range(end + 1) if "user" in rows[i])
    return [row.rstrip("".join(THUMB)).rstrip() for row in rows[start:end + 1]]


@pytest.mark.slow
@pytest.mark.parametrize("size", [(100, 30), (80, 24)])
async def test_memory_rows_keep_their_lines_and_the_scrollbar_stays_off_the_text(services, size):
    # Unbroken runs wrap by folding, so every row is full up to the text's right edge: a bar
    # drawn on (or against) the text shows, wherever its thumb is.
    services.memory.add_note("a" * 60 + " ENDA", scope="user")
    services.memory.add_note("b" * 45 + " ENDB", scope="user")
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None)
        if size[0] < 100:
            await pilot.press("f2")  # under 100 columns Memory is shown on demand
        pane = app.screen.query_one("#memory-pane")
        await wait_until(pilot, lambda: pane.region.width > 0 and len(pane.items) == 2)
        await settle(pilot, app)
        listing = app.screen.query_one("#memory-list")
        assert listing.max_scroll_y == 0  # two items: nothing to scroll yet
        before = {m: _marker_rows(_list_rows(app), m) for m in ("ENDA", "ENDB")}
        for n in range(30):  # now the list scrolls
            services.memory.add_note("c" * 40 + f" ENDC{n}", scope="user")
        pane.reload()
        await wait_until(pilot, lambda: len(pane.items) == 32)
        listing.focus()
        await pilot.press("end")  # the two first items are the oldest: at the bottom
        await wait_until(pilot, lambda: listing.max_scroll_y > 0 and "ENDA" in "".join(_list_rows(app)))
        await settle(pilot, app)
        rows = _list_rows(app)
        after = {m: _marker_rows(rows, m) for m in ("ENDA", "ENDB")}
        assert after == before  # not re-wrapped: every line, the last one included, is kept
        bars = [row for row in rows if row and row.rstrip()[-1:] in THUMB]
        assert bars, rows  # the thumb is drawn ...
        for row in bars:  # ... with a blank column between it and the text
            text = row.rstrip()
            assert text[-2] == " ", rows
        for _ in range(12):  # every item's last line can be reached
            await pilot.press("pageup")
        seen = set()
        for _ in range(16):
            seen |= {w for row in _list_rows(app) for w in row.split() if w.startswith("END")}
            await pilot.press("pagedown")
            await pilot.pause()
        assert seen >= {"ENDA", "ENDB", *(f"ENDC{n}" for n in range(30))}
