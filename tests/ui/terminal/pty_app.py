"""The real ``agenttui`` in a pseudo-terminal, its output fed to a pyte screen.

For what a Pilot test cannot see: how the app finds the terminal's size, what it
does on SIGTSTP / SIGCONT, the terminal modes it leaves. The child is started and
ended by the test (its own pid), never by name.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pyte

AGENTTUI = str(Path(sys.executable).with_name("agenttui"))


def set_size(fd: int, columns: int, lines: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))


class PtyApp:
    def __init__(self, env: dict[str, str], size: tuple[int, int], args: tuple[str, ...] = ()) -> None:
        self.columns, self.lines = size
        self.master, slave = pty.openpty()
        set_size(slave, *size)
        self.slave = slave
        self.proc = subprocess.Popen([AGENTTUI, *args], stdin=slave, stdout=slave, stderr=slave, env=env,
                                     start_new_session=True, close_fds=True)
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)

    def pump(self, seconds: float = 0.05) -> None:
        """Read what the app wrote (for up to ``seconds``) into the screen."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.master], [], [], max(0.0, left))
            if not ready:
                return
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            self.stream.feed(data)

    def wait_for(self, predicate, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"condition not met within {timeout} s; screen:\n{self.text()}")
            if self.proc.poll() is not None:
                self.pump(0.2)
                raise AssertionError(f"agenttui exited ({self.proc.returncode}); screen:\n{self.text()}")
            self.pump(0.1)

    def resize(self, columns: int, lines: int) -> None:
        self.columns, self.lines = columns, lines
        set_size(self.master, columns, lines)
        self.screen.resize(lines, columns)
        os.kill(self.proc.pid, signal.SIGWINCH)

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def used_extent(self) -> tuple[int, int]:
        """(columns, lines) the app has drawn into: the right-most and lowest non-blank cell + 1."""
        right = bottom = 0
        for y, line in enumerate(self.screen.display):
            stripped = line.rstrip()
            if stripped:
                right = max(right, len(stripped))
                bottom = y + 1
        return right, bottom

    def local_modes(self) -> int:
        """The terminal's lflag (ICANON, ECHO ...) as the app left it."""
        return termios.tcgetattr(self.slave)[3]

    def close(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGCONT)
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(20)
        os.close(self.master)
        os.close(self.slave)
