"""A bug in one UI callback is a notice, not the end of the app.

Textual ends the app on any exception a handler, timer callback or worker
raises, and it ends the *message loop* of the widget whose handler raised
(``MessagePump._process_messages_loop`` breaks), so that widget silently
leaves the DOM; a pane gone that way made the next query for it crash the
app. Here:

* :func:`dispatch_guarded` wraps a long-lived widget's ``_on_message`` (the
  main screen, the three panes, the chat log, the prompt, the data watcher):
  an exception in one of its handlers is reported and the widget keeps its
  message loop, so it stays on screen and answers the next message. A
  ``CancelledError`` that escapes a handler while the widget's own task is
  not being cancelled (one leaked from awaiting some other, cancelled task)
  counts as such a bug too: Textual would take it for the loop's end.
* :func:`is_survivable` tells the app's error policy which of the failures
  it is handed the app can live with: a worker's (its result is missing), a
  timer's or a ``call_later`` callback's (the next tick runs), a widget's
  handler (that widget is gone, the rest works). Only a failure of the app's
  own or a screen's message loop ends the app.
* :func:`report` writes the redacted crash log and shows one notice per kind
  of failure, saying the app carries on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.message import Message
    from textual.message_pump import MessagePump

# Where Textual calls the app's exception handler from, when the failing code was ...
_CALLBACK_ORIGINS = frozenset({"_tick", "_flush_next_callbacks"})  # ... a timer or a call_later callback
_LOOP_ORIGINS = frozenset({"_process_messages_loop", "_pre_process"})  # ... a handler: the loop ends


def is_survivable(error: BaseException, pump: object) -> bool:
    """True unless ``error`` ends the message loop of the app or of a screen (``pump``)."""
    from textual.app import App
    from textual.screen import Screen
    from textual.worker import WorkerFailed

    if isinstance(error, WorkerFailed):
        return True
    traceback = error.__traceback__
    origin = traceback.tb_frame.f_code.co_name if traceback is not None else ""
    if origin in _CALLBACK_ORIGINS:
        return True
    if origin in _LOOP_ORIGINS:
        return not isinstance(pump, App | Screen)
    return False


def report(app: Any, error: BaseException) -> None:
    """The crash log and a notice (once per exception type and place); the app carries on."""
    from agenttui.core.crash_log import write_crash_log

    # any App, not only agenttui's: the guarded widgets are also mounted alone (in tests)
    services = getattr(app, "services", None)
    key = (type(error).__name__, _where(error))
    seen: set[tuple[str, str]] = app.__dict__.setdefault("_survived", set())
    survived: list[BaseException] = app.__dict__.setdefault("survived_errors", [])
    survived.append(error)  # tests and `doctor`-style checks read them
    if key in seen:
        return
    seen.add(key)
    if getattr(app, "incognito", False):  # incognito writes no file, not even a crash log
        where = "incognito writes no crash log"
    else:
        log = write_crash_log(error, ("tui",), getattr(services, "environ", None))
        where = f"details are in {log} (secrets redacted)" if log else "no crash log could be written"
    app.notify(f"Something went wrong ({type(error).__name__}) and was skipped; agenttui carries on. "
               f"The {where}; please report it.", title="Internal error", severity="error", timeout=20)


async def dispatch_guarded(pump: MessagePump, message: Message,
                           dispatch: Callable[[Message], Awaitable[None]]) -> None:
    """Run ``dispatch(message)`` (the widget's ``super()._on_message``); a bug is reported."""
    try:
        await dispatch(message)
    except asyncio.CancelledError as error:
        task = asyncio.current_task()
        if task is None or task.cancelling():
            raise  # this widget's own task is being cancelled: its loop really ends
        report(pump.app, error)
    except Exception as error:  # noqa: BLE001 -- the point: one handler's bug keeps the widget alive
        report(pump.app, error)


def _where(error: BaseException) -> str:
    """The innermost frame of ours (or the innermost at all): what a repeat is recognised by."""
    traceback, where = error.__traceback__, ""
    while traceback is not None:
        code = traceback.tb_frame.f_code
        if "agenttui" in code.co_filename or not where:
            where = f"{code.co_filename}:{code.co_name}"
        traceback = traceback.tb_next
    return where
