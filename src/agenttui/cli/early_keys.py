"""Keys typed while the app starts keep their meaning: Enter stays Enter.

Until Textual switches the terminal to raw mode (a few hundred milliseconds
after launch, after its import), the terminal is still in the shell's
"cooked" mode. The line discipline then turns a typed Enter (CR) into a line
feed as it arrives (``ICRNL``), echoes keys over what will be the first frame
(``ECHO``) and holds them back until a line ends (``ICANON``). Textual reads
that line feed as ctrl+j, which the prompt takes as "new line", not "send":
``agenttui`` followed at once by ``hello⏎`` (a fast typist, a paste, tmux
``send-keys``) left "hello" and an empty line in the prompt, unsent.

So the UI command clears those three flags first thing, before Textual is
imported, and puts the terminal back exactly as it found it on the way out.
Textual restores, at exit, the attributes it saw at its own start (the
ones set here); :func:`keys_kept_as_typed` then restores the caller's. Keys
typed before this runs (the interpreter's own start, ~20 ms) are already
converted: the window is narrowed, not closed. Signals (``ISIG``: ctrl+c)
are left alone until Textual takes them over.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def keys_kept_as_typed() -> Iterator[None]:
    """Within: CR stays CR, no echo, no line buffering on the terminal (if stdin is one)."""
    restore = _keep_keys_as_typed()
    try:
        yield
    finally:
        if restore is not None:
            restore()


def _keep_keys_as_typed() -> Callable[[], None] | None:
    """Set the terminal up; returns what puts it back, or None when nothing was changed."""
    try:
        import termios
    except ImportError:  # Windows: the console has no line discipline of this kind
        return None
    try:
        fd = sys.__stdin__.fileno() if sys.__stdin__ is not None else -1
        before = termios.tcgetattr(fd)
        changed = [*before[:6], list(before[6])]
        changed[0] &= ~termios.ICRNL
        changed[3] &= ~(termios.ICANON | termios.ECHO)
        changed[6][termios.VMIN], changed[6][termios.VTIME] = 1, 0  # a key is ready once typed
        termios.tcsetattr(fd, termios.TCSANOW, changed)  # not TCSAFLUSH: it drops what was typed
    except (termios.error, OSError, ValueError):  # no stdin, or not a terminal (a pipe, a file)
        return None

    def restore() -> None:
        with contextlib.suppress(termios.error, OSError):
            termios.tcsetattr(fd, termios.TCSANOW, before)

    return restore
