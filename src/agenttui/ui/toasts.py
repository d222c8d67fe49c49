"""Toasts that replace their predecessor instead of piling up.

Three retries used to leave three "Model call failed" toasts stacked; only the
latest is true. Textual has no public call to withdraw one notification, so this
uses the same private pair its own Toast uses to dismiss itself (``_notifications``,
``_unnotify``), guarded: if a Textual upgrade renames them, toasts pile up again
rather than anything breaking.
"""

from __future__ import annotations

import contextlib
from typing import Any


def dismiss_toasts(app: Any, title: str) -> None:
    """Withdraw every toast showing under ``title``."""
    notes = getattr(app, "_notifications", None)
    unnotify = getattr(app, "_unnotify", None)
    if notes is None or unnotify is None:
        return
    with contextlib.suppress(Exception):  # cosmetic: never let this break a turn
        for note in [n for n in notes if getattr(n, "title", None) == title]:
            unnotify(note)
