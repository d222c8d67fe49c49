"""Never end a process holding unsaved messages.

A history write that fails during a turn (full disk, read-only file system,
the database locked) leaves the message queued in the process
(:func:`agenttui.agent.loop.flush_pending` retries it with the next turn).
When the process is about to end -- ``agenttui ask`` after its turn, the app
after it closes -- :func:`save_or_rescue` tries once more; what still cannot
be saved is written, redacted like history, to a recovery file whose path is
printed (:func:`agenttui.core.crash_log.write_recovery`), or printed itself
when no folder takes it, and the exit code becomes 1.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agenttui.bootstrap import Services


def save_or_rescue(services: Services, what: str = "of this turn") -> int:
    """0 when nothing is left unsaved; else 1 after rescuing the text (see module doc)."""
    from agenttui.cli.common import fail
    from agenttui.core.crash_log import redact, write_recovery
    from agenttui.core.errors import explain

    queue = services.session.unsaved
    error: Exception | None = None
    while queue:
        cid, message = queue[0]
        try:
            services.history.append(cid, message)
        except Exception as exc:  # noqa: BLE001 -- whatever it is, the text must not be lost
            error = exc
            break
        queue.popleft()
    if not queue or error is None:
        return 0
    reason = explain(error) or f"{type(error).__name__}: {error}"
    count = len(queue)
    body = "".join(f"## {message.role} (conversation {cid})\n\n{message.content or ''}\n\n"
                   for cid, message in queue)
    text = f"# agenttui: {count} message(s) not saved to history\n\nReason: {reason}\n\n{body}"
    patterns = services.settings.redaction.extra_patterns
    path = write_recovery(text, services.environ, patterns)
    if path is None:
        print(redact(text, patterns), file=sys.stderr)
        where = "No recovery file could be written either: their text is printed above."
    else:
        where = f"Their text (secrets redacted) is in {path}"
    queue.clear()  # handed over to the file: a later flush in this process must not save them twice
    return fail(f"{count} message(s) {what} could not be saved to history: {reason} {where}")
