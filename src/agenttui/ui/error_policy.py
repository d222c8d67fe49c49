"""The CLI's error policy in the app (issue 11): no traceback on the terminal.

Textual ends the app on an unhandled exception and prints a rich traceback
*with local variables* -- API keys, message text -- to the terminal. Here
an expected failure (:func:`agenttui.core.errors.explain`: disk full,
read-only, a newer database, ...) ends the app with its one-line message,
and a bug with one line naming a redacted crash log
(:func:`agenttui.core.crash_log.write_crash_log`). Exit code 1 either way.

Expected failures the app can live with are caught where they happen and
shown as notices (history pane, chat); this is the last line.

It overrides ``App._handle_exception`` and keeps what Textual's own does for
Pilot (``_exception`` / ``_exception_event``, so tests still see the error).
"""

from __future__ import annotations

from typing import Any


def failure_line(error: BaseException, environ: Any = None) -> str:
    """What the terminal shows after the app ended on ``error``."""
    from agenttui.core.errors import explain

    inner = getattr(error, "error", None)  # textual.worker.WorkerFailed wraps the worker's error
    if isinstance(inner, BaseException):
        error = inner
    message = explain(error)
    if message is not None:
        return f"agenttui: {message}"
    from agenttui.core.crash_log import write_crash_log

    log = write_crash_log(error, ("tui",), environ)
    where = f"details are in {log}" if log else "no crash log could be written"
    return (f"agenttui: internal error ({type(error).__name__}); {where} (secrets redacted). "
            "Please report it with that file.")


class ErrorPolicyMixin:
    """Mix into the App before ``App`` (see the module doc)."""

    def _handle_exception(self, error: Exception) -> None:
        app: Any = self
        app._return_code = 1
        if app._exception is None:  # as Textual does: Pilot re-raises it in tests
            app._exception = error
            app._exception_event.set()
        services = getattr(app, "services", None)
        line = failure_line(error, getattr(services, "environ", None))
        from rich.text import Text

        app._exit_renderables.append(Text(line))
        app.bell()
        app._close_messages_no_wait()
