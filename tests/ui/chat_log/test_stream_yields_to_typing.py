"""A streaming reply repaints less often while the user types into the prompt.

Each batch shown grows the reply, and a grown reply scrolls the chat: Textual
then redraws the whole chat region, which took 50-180 ms a frame at 120x36 with
a long reply. A key typed meanwhile waited for it (``bench/bench_typing_echo.py``:
p95 111 ms, over the 100 ms goal). While keys arrive, batches wait, shown at most
every ``TYPING_INTERVAL`` instead of every ``STREAM_INTERVAL``; the moment the
typing stops (``TYPING_GAP``) the rest follows.
"""

from __future__ import annotations

import asyncio
import time

from textual.app import App, ComposeResult
from textual.containers import VerticalScroll

from agenttui.ui.widgets.message_view import TYPING_INTERVAL, AssistantMessage
from agenttui.ui.widgets.prompt_input import PromptInput


class _Chat(App[None]):
    def compose(self) -> ComposeResult:
        yield VerticalScroll()
        yield PromptInput()

    def on_mount(self) -> None:
        self.query_one(PromptInput).focus()


async def _until(condition, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout  # generous for a busy machine; a passing test never waits it
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never: {what}")
        await asyncio.sleep(0.005)


async def test_a_batch_waits_while_keys_arrive_and_shows_when_they_stop() -> None:
    app = _Chat()
    async with app.run_test() as pilot:
        view = AssistantMessage.streaming("First words.")
        await app.query_one(VerticalScroll).mount(view)
        assert view.markdown.source == "First words."
        await pilot.press("h", "i")  # through the App to the focused prompt, as typed
        prompt = app.query_one(PromptInput)
        assert time.monotonic() - prompt.typed_at < 1, "the prompt did not note the keys"
        view._flushed_at = time.monotonic()  # a batch was just shown
        await view.write(" More words.")
        await view._flush()  # the batch falls due while the user is still typing
        assert view.markdown.source == "First words.", "the batch was shown mid-typing"
        assert view._flush_timer is not None, "the batch was dropped, not postponed"
        await _until(lambda: view.markdown.source == "First words. More words.",
                     "the batch showed once the typing stopped")
        assert prompt.text == "hi"


async def test_typing_never_holds_a_batch_past_the_typing_interval() -> None:
    app = _Chat()
    async with app.run_test() as pilot:
        view = AssistantMessage.streaming("First words.")
        await app.query_one(VerticalScroll).mount(view)
        await pilot.press("h")
        view._flushed_at = time.monotonic() - TYPING_INTERVAL - 0.01
        app.query_one(PromptInput).typed_at = time.monotonic()  # still typing right now
        await view.write(" More words.")
        await view._flush()
        assert view.markdown.source == "First words. More words."


async def test_without_typing_a_due_batch_is_shown_at_once() -> None:
    app = _Chat()
    async with app.run_test():
        view = AssistantMessage.streaming("First words.")
        await app.query_one(VerticalScroll).mount(view)
        view._flushed_at = time.monotonic()
        await view.write(" More words.")
        await view._flush()
        assert view.markdown.source == "First words. More words."
