"""Small Pilot helpers shared by the UI tests."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from textual._xterm_parser import XTermParser

from agenttui.ui.app_background import INDEXER_GROUP


async def wait_until(pilot, predicate: Callable[[], object], timeout: float = 30.0,
                     explain: Callable[[], object] | None = None) -> None:
    """Let the app run until ``predicate()`` is true (fails the test on timeout).

    The timeout is generous on purpose: CI machines are shared, and a Pilot step
    under load can take seconds; a passing test never waits for it. ``explain()``, if given,
    goes into the failure: what was there instead (a CI log is all a rare failure leaves).
    """
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            detail = f"; instead: {explain()}" if explain is not None else ""
            raise AssertionError(f"condition not met within {timeout} s{detail}")
        await pilot.pause(0.02)


# Workers that run until the app exits by design (the history indexer: semantic recall, on by
# default as "auto", indexes history in the background): never "done", so not waited for.
BACKGROUND_GROUPS = frozenset({INDEXER_GROUP})


def foreground_workers(app) -> list:
    return [w for w in app.workers if w.group not in BACKGROUND_GROUPS]


async def foreground_complete(app) -> None:
    """``app.workers.wait_for_complete()`` without the workers that only end with the app."""
    workers = foreground_workers(app)
    if workers:  # an empty list would mean "every worker" to Textual
        await app.workers.wait_for_complete(workers)


async def workers_done(pilot, timeout: float = 30.0) -> None:
    """Wait until no worker runs, and the messages they posted have been handled.

    For assertions that something did *not* happen ("said once", "nothing sent",
    "no late row"): the work that could make them fail has run by then, so they can
    fail, and a passing test waits only as long as that work takes, not a fixed time.
    """
    app = pilot.app
    for _ in range(2):  # a handler of a worker's message may start another worker
        await wait_until(pilot, lambda: all(w.is_finished for w in foreground_workers(app)), timeout)
        await pilot.pause()


def chat(app):
    from agenttui.ui.widgets.chat_pane import ChatPane

    return app.screen.query_one(ChatPane)


def replies(app) -> list[str]:
    from agenttui.ui.widgets.message_view import AssistantMessage

    return [view.text for view in app.screen.query(AssistantMessage)]


def notifications(app) -> list[tuple[str, str, str]]:
    """(severity, title, message) of the toasts raised so far."""
    return list(app.notices)


async def send(pilot, text: str) -> None:
    prompt = chat(pilot.app).prompt
    prompt.focus()
    prompt.load_text(text)
    await pilot.press("enter")


async def send_and_wait(pilot, text: str) -> list[str]:
    """Send ``text`` and wait until its reply has finished streaming; the replies shown then."""
    app = pilot.app
    pane, before = chat(app), len(replies(app))
    await send(pilot, text)
    await wait_until(pilot, lambda: not pane.streaming and len(replies(app)) == before + 1,
                     explain=lambda: f"streaming={pane.streaming}, {len(replies(app))} replies, {before} before")
    return replies(app)


async def approve(pilot, app) -> None:
    """Click Approve once the approval dialog lets it answer (ApprovalScreen.APPROVE_AFTER_S)."""
    await wait_until(pilot, lambda: not app.screen.query_one("#approve").disabled)
    await pilot.click("#approve")


def queue_shell_call(fake_openai, marker, reply: str) -> None:
    """The model's next answer asks to run a command that writes ``marker``, then says ``reply``."""
    fake_openai.tool_call("run_shell", {"command": f"echo done > {marker}", "timeout_seconds": 5})
    fake_openai.reply(reply)


async def ask_for_approval(pilot, app, text: str = "run it") -> None:
    """Send ``text`` and wait for the approval dialog its tool call opens."""
    from agenttui.ui.screens.approval import ApprovalScreen

    await send(pilot, text)
    await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.focused is not None)


@asynccontextmanager
async def approval_asked(chat_services, fake_openai, marker, reply: str,
                         size: tuple[int, int]) -> AsyncIterator[tuple[Any, Any]]:
    """The app (and its pilot) with a shell command that writes ``marker`` waiting at the
    approval dialog; the model says ``reply`` after it."""
    from agenttui.ui.app import make_app

    queue_shell_call(fake_openai, marker, reply)
    app = make_app(chat_services)
    async with app.run_test(size=size) as pilot:
        await ask_for_approval(pilot, app)
        yield app, pilot


def terminal_keys(raw: str) -> list:
    """The events Textual's own parser makes of the bytes ``raw`` typed in a terminal."""
    parser = XTermParser()
    return [*parser.feed(raw), *parser.feed("")]


def typed_in_terminal(app, raw: str) -> None:
    """``raw`` read at once by the app's own parser in a terminal (ui/escape_or_option_arrow.py),
    its events posted to the app before it handles the first."""
    from agenttui.ui.escape_or_option_arrow import EscapeAwareParser

    parser = EscapeAwareParser()
    for event in [*parser.feed(raw), *parser.feed("")]:
        app.post_message(event)


def type_at_once(app, raw: str) -> None:
    """``raw`` typed in one burst: every event posted before the app handles the first
    (as a terminal delivers fast typing; Pilot.press waits between keys)."""
    for event in terminal_keys(raw):
        app.post_message(event)


async def while_streaming(pilot, app, question: str = "tell me a long story") -> None:
    """Send ``question`` (queue a reply of "word0 word1 …" for it) and wait until that reply
    streams: "word3" shown."""
    await send(pilot, question)
    await wait_until(pilot, lambda: replies(app) and "word3" in replies(app)[0])


async def focused_prompt(pilot, app):
    """The chat's prompt, once the panes are up and it has the focus."""
    await wait_until(pilot, lambda: app.main.panes_ready and chat(app).prompt is not None)
    prompt = chat(app).prompt
    await wait_until(pilot, lambda: prompt.has_focus)
    return prompt


async def focused_field(pilot, app, selector: str):
    """The main screen's widget ``selector``, focused once the panes are up."""
    await wait_until(pilot, lambda: app.main.panes_ready and chat(app).prompt is not None)
    field = app.screen.query_one(selector)
    field.focus()
    await wait_until(pilot, lambda: field.has_focus)
    return field


async def history_list_focused(pilot, app, conversations: int):
    """The History pane, once it lists ``conversations`` and F3 has focused its list."""
    await wait_until(pilot, lambda: chat(app).prompt is not None)
    pane = app.screen.query_one("#history-pane")
    await wait_until(pilot, lambda: pane.conversation_list.option_count == conversations)
    await pilot.press("f3")
    await wait_until(pilot, lambda: pane.conversation_list.has_focus)
    return pane
