"""ui/one_shot: a delayed callback runs, also when the machine holds the loop up.

Textual's one-shot ``set_timer`` ends without calling back when its task is held up between its
two reads of the clock for longer than the delay; every delayed step of the app (the start-up's
pane fill, the History search's debounce, a streamed reply's batches) goes through
``one_shot.set_timer`` instead.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from unittest.mock import patch

from textual import _time as textual_time
from textual.app import App

import agenttui
from agenttui.ui.one_shot import set_timer
from tests.ui.helpers import wait_until


class _StalledClock:
    """Every clock read of ``textual.timer`` (and so of any Timer) takes longer than the delay."""

    sleep = staticmethod(textual_time.sleep)

    @staticmethod
    def get_time() -> float:
        time.sleep(0.005)
        return textual_time.get_time()


async def test_the_callback_runs_when_the_clock_is_held_up():
    app = App()
    ran: list[bool] = []
    async with app.run_test() as pilot:
        with patch("textual.timer._time", _StalledClock):
            set_timer(app, 0.001, lambda: ran.append(True))
            await wait_until(pilot, lambda: ran == [True], timeout=30)


async def test_a_stopped_timer_never_calls_back():
    app = App()
    ran: list[str] = []
    async with app.run_test() as pilot:
        stopped = set_timer(app, 0.01, lambda: ran.append("stopped"))
        set_timer(app, 0.05, lambda: ran.append("later"))
        stopped.stop()
        await wait_until(pilot, lambda: ran == ["later"], timeout=30)
        assert ran == ["later"]


def test_no_widget_uses_textuals_one_shot_timer():
    source = Path(agenttui.__file__).parent
    users = [str(p.relative_to(source)) for p in source.rglob("*.py")
             if re.search(r"\bself\.set_timer\(|\.set_timer\(", p.read_text(encoding="utf-8"))]
    assert users == []


async def test_a_timer_stopped_while_its_callback_waits_in_the_queue_never_calls_back():
    app = App()
    ran: list[str] = []
    async with app.run_test() as pilot:
        timer = set_timer(app, 0, lambda: ran.append("stopped"))
        timer._handle._run()  # the delay ran out: the callback is handed to the app's queue
        timer.stop()
        set_timer(app, 0.01, lambda: ran.append("later"))
        await wait_until(pilot, lambda: ran == ["later"], timeout=30)
        assert ran == ["later"]
