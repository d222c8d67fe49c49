"""The CLI's error policy in the app (issue 11): no traceback on the terminal.

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

It overrides ``App._handle_exception`` and keeps what Textual's own does for
Pilot (``_exception`` / ``_exception_event``, so tests still see the error).
"""

from __future__ import annotations

from typing import Any

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


class ErrorPolicyMixin:
    """Mix into the App before ``App`` (see the module doc)."""

    #: The line the terminal shows after the app ended on an error (tests read it).
    failure: str | None = None

    def notify_failure(self, message: str, title: str = "Could not complete") -> None:
        """An error notice, once per text: several loads meet the same broken file."""
        app: Any = self
        seen: set[str] = app.__dict__.setdefault("_failure_notices", set())
        if message not in seen:
            seen.add(message)
            app.notify(message, title=title, severity="error", timeout=30)

    async def _dispatch_action(self, namespace: Any, action_name: str, params: Any) -> bool:
        # Keys, bindings and the palette run actions here; a screen they import lazily may
        # have vanished in an upgrade: a notice, and the app carries on (issue 12 item 22).
        try:
            return await super()._dispatch_action(namespace, action_name, params)  # type: ignore[misc]
        except ImportError as error:
            stale = stale_install_message(error)
            if stale is None:
                raise
            self.notify_failure(stale, title="Restart agenttui")
            return True

    def _handle_exception(self, error: Exception) -> None:
        app: Any = self
        stale = stale_install_message(_unwrapped(error))
        if stale is not None and _is_worker_failure(error):  # upgraded under us (issue 12 item 22)
            self.notify_failure(stale, title="Restart agenttui")
            return
        if _is_worker_failure(error):
            from agenttui.core.errors import explain

            message = explain(_unwrapped(error))
            if message is not None:  # a background load met a full disk, a newer database...
                self.notify_failure(message)
                return  # the app carries on: that worker's result is simply missing
        from textual._context import active_message_pump

        from agenttui.ui import survivable_errors

        if self.failure is None and survivable_errors.is_survivable(error, active_message_pump.get(None)):
            survivable_errors.report(self, _unwrapped(error))  # a notice and the crash log; it carries on
            return
        if self.failure is not None:
            return  # already ending on an earlier error: one line, one crash log
        app._return_code = 1
        if app._exception is None:  # as Textual does: Pilot re-raises it in tests
            app._exception = error
            app._exception_event.set()
        services = getattr(app, "services", None)
        line = failure_line(error, getattr(services, "environ", None),
                            incognito=bool(getattr(self, "incognito", False)))
        app.failure = line
        from rich.text import Text

        app._exit_renderables.append(Text(line))
        app.bell()
        app._close_messages_no_wait()


def _is_worker_failure(error: BaseException) -> bool:
    from textual.worker import WorkerFailed

    return isinstance(error, WorkerFailed)
