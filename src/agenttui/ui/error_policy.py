"""The CLI's error policy in the app: no traceback on the terminal.

Textual ends the app on an unhandled exception and prints a rich traceback
*with local variables* -- API keys, message text -- to the terminal. Here
an expected failure (:func:`agenttui.core.errors.explain`: disk full,
read-only, a newer database, ...) ends the app with its one-line message,
and a bug with one line naming a redacted crash log
(:func:`agenttui.core.crash_log.write_crash_log`). Exit code 1 either way.

Expected failures the app can live with are caught where they happen and
shown as notices (history pane, chat); this is the last line. A bug in a
worker, a timer, or a widget's handler is survivable too
(:mod:`agenttui.ui.survivable_errors`): a notice naming the crash log, and the
app carries on; only a failure of the app's or a screen's own loop ends it. An expected
failure in a *worker* (a background load or save) is a notice too, and the
app carries on: only that worker's result is missing.

A lazy import broken by an upgrade while the app runs is neither: the app
says to restart and carries on (:mod:`agenttui.core.stale_install`).

The app's ``_handle_exception`` and ``_dispatch_action`` call
:func:`handle_exception` and :func:`dispatch_action`; what Textual's own
``_handle_exception`` does for Pilot (``_exception`` / ``_exception_event``,
so tests still see the error) is kept.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

# Imported with the app: its clock starts before any lazy import can fail.
from agenttui.core.stale_install import stale_install_message


def _unwrapped(error: BaseException) -> BaseException:
    inner = getattr(error, "error", None)  # textual.worker.WorkerFailed wraps the worker's error
    return inner if isinstance(inner, BaseException) else error


def failure_line(error: BaseException, environ: Any = None, *, incognito: bool = False) -> str:
    """What the terminal shows after the app ended on ``error`` (incognito: no crash log file)."""
    from agenttui.core.errors import explain

    error = _unwrapped(error)
    message = explain(error) or stale_install_message(error)  # an upgrade under us: no crash log
    if message is not None:
        return f"agenttui: {message}"
    if incognito:
        return (f"agenttui: internal error ({type(error).__name__}); incognito writes no crash log: "
                "do the same outside incognito to get one.")
    from agenttui.core.crash_log import write_crash_log

    log = write_crash_log(error, ("tui",), environ)
    where = f"details are in {log}" if log else "no crash log could be written"
    return (f"agenttui: internal error ({type(error).__name__}); {where} (secrets redacted). "
            "Please report it with that file.")


class PolicyApp(Protocol):
    """What the policy reads and sets of the app (``AgentTUI``)."""

    failure: str | None  # the line the terminal shows after the app ended on an error (tests read it)
    services: Services
    incognito: bool

    def notify_failure(self, message: str, title: str = "Could not complete") -> None: ...


async def dispatch_action(app: PolicyApp, dispatch: Callable[[], Awaitable[bool]]) -> bool:
    """Keys, bindings and the palette run actions here; a screen they import lazily may
    have vanished in an upgrade: a notice, and the app carries on."""
    try:
        return await dispatch()
    except ImportError as error:
        stale = stale_install_message(error)
        if stale is None:
            raise
        app.notify_failure(stale, title="Restart agenttui")
        return True


def handle_exception(app: PolicyApp, error: Exception) -> None:
    """In place of ``App._handle_exception`` (the module doc)."""
    stale = stale_install_message(_unwrapped(error))
    if stale is not None and _is_worker_failure(error):  # upgraded under us
        app.notify_failure(stale, title="Restart agenttui")
        return
    if _is_worker_failure(error):
        from agenttui.core.errors import explain

        message = explain(_unwrapped(error))
        if message is not None:  # a background load met a full disk, a newer database...
            app.notify_failure(message)
            return  # the app carries on: that worker's result is simply missing
    from textual._context import active_message_pump

    from agenttui.ui import survivable_errors

    if app.failure is None and survivable_errors.is_survivable(error, active_message_pump.get(None)):
        survivable_errors.report(app, _unwrapped(error))  # a notice and the crash log; it carries on
        return
    if app.failure is not None:
        return  # already ending on an earlier error: one line, one crash log
    textual_app: Any = app  # Textual's own exit state, as its _handle_exception sets it
    textual_app._return_code = 1
    if textual_app._exception is None:  # as Textual does: Pilot re-raises it in tests
        textual_app._exception = error
        textual_app._exception_event.set()
    line = failure_line(error, app.services.environ, incognito=app.incognito)
    app.failure = line
    from rich.text import Text

    textual_app._exit_renderables.append(Text(line))
    textual_app.bell()
    textual_app._close_messages_no_wait()


def _is_worker_failure(error: BaseException) -> bool:
    from textual.worker import WorkerFailed

    return isinstance(error, WorkerFailed)
