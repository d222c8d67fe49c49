"""Suspend and resume like other Textual apps (``App.action_suspend_process``, the driver's
SIGTSTP / SIGCONT handlers), with the two things agenttui's start-up changes put right.

Decisions:

* **Keys**: ``ctrl+z`` suspends wherever the focus is not in a text field; in the prompt
  (and the other text areas) it stays undo, their own binding winning over the app's.
  ``ctrl+\\`` suspends everywhere, the prompt included (no text field claims it). Both
  are the ``app.suspend`` binding, remappable in ``[keys]``.
* **The terminal a stopped app leaves**: Textual's driver restores, on SIGTSTP, the
  modes it found when it started. agenttui leaves cooked mode before Textual starts
  (``cli/early_keys.py``: keys typed during start-up stay as typed), so the driver
  found no echo and no line editing, and a stopped agenttui left the shell so.
  The modes from before that step are handed to the driver instead.
* **Resume**: after ``fg`` the driver starts application mode again on a fresh
  alternate screen; everything is repainted (only the prompt, whose cursor blinks,
  came back).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App

_modes_at_start: list[Any] | None = None


def remember_terminal_modes(modes: list[Any] | None) -> None:
    """The terminal's modes (``termios.tcgetattr``) before agenttui changed them; None: not a tty."""
    global _modes_at_start
    _modes_at_start = [*modes[:6], list(modes[6])] if modes else None


def install(app: App) -> None:
    """Call once the driver runs (the app's mount)."""
    driver = app._driver
    if _modes_at_start is not None and driver is not None and hasattr(driver, "attrs_before"):
        driver.attrs_before = [*_modes_at_start[:6], list(_modes_at_start[6])]
    app.app_resume_signal.subscribe(app, _repaint)


def _repaint(app: App) -> None:
    app.screen.refresh(repaint=True, layout=True)
    app.refresh(repaint=True, layout=True)
