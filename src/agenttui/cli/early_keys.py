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
ones set here); :func:`keys_kept_as_typed` then restores the caller's.

Keys typed before this runs (the interpreter's own start, tens of ms on a
busy machine) were converted as they arrived: their Enter is a line feed
already. A paste, ``tmux send-keys "text" Enter`` or a fast typist over ssh
puts the text and its Enter there at once, and the message landed in the
prompt with a new line instead of being sent. So what is pending on the
terminal when the flags change is read here, each line feed in it turned
back into the Enter it was (in cooked mode the two are one key), and handed
to the app (:attr:`EarlyKeys.text`), which replays it ahead of everything
Textual reads. Signals (``ISIG``: ctrl+c) are left alone until Textual takes
them over.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass

MAX_EARLY_BYTES = 1 << 16  # what a terminal's input queue holds at most (n_tty: 4 KiB), with room


@dataclass
class EarlyKeys:
    """What was typed before the terminal left cooked mode, as the keys typed: "\r" for Enter."""

    text: str = ""
    modes: list | None = None  # the terminal's modes before (termios.tcgetattr), for a suspend


@contextlib.contextmanager
def keys_kept_as_typed() -> Iterator[EarlyKeys]:
    """Within: CR stays CR, no echo, no line buffering on the terminal (if stdin is one).
    Yields what had been typed already (the module doc)."""
    early = EarlyKeys()
    restore = _keep_keys_as_typed(early)
    try:
        yield early
    finally:
        if restore is not None:
            restore()


def _keep_keys_as_typed(early: EarlyKeys) -> Callable[[], None] | None:
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
    early.modes = before
    if before[0] & termios.ICRNL:  # else an Enter typed so far is a CR already
        early.text = _typed_so_far(fd)

    def restore() -> None:
        with contextlib.suppress(termios.error, OSError):
            termios.tcsetattr(fd, termios.TCSANOW, before)

    return restore


def _typed_so_far(fd: int) -> str:
    """The bytes pending on terminal ``fd`` (typed in cooked mode), each line feed back to the
    Enter it was. Non-canonical now, so a line not yet ended is readable too; read at most what
    is pending, so this never waits for a key."""
    import fcntl
    import struct
    import termios

    try:
        pending = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]
        data = os.read(fd, min(pending, MAX_EARLY_BYTES)) if pending > 0 else b""
    except OSError:
        return ""
    return data.decode("utf-8", errors="replace").replace("\n", "\r")
