"""Run a command in a real pseudo-terminal and read its screen with pyte.

Shared by the end-to-end test and the benchmarks in ``bench/``: spawn, feed
output to a ``pyte`` screen, wait for text, send keys, read the display.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import signal
import struct
import termios
import time
from collections.abc import Callable, Mapping, Sequence

import pyte

KEYS = {
    "enter": "\r", "escape": "\x1b", "tab": "\t", "up": "\x1b[A", "down": "\x1b[B",
    "ctrl+q": "\x11", "ctrl+j": "\n", "ctrl+r": "\x12", "ctrl+n": "\x0e",
    "f1": "\x1bOP", "f2": "\x1bOQ", "f3": "\x1bOR", "f4": "\x1bOS",
}


class PtyTerminal:
    def __init__(self, argv: Sequence[str], *, env: Mapping[str, str] | None = None,
                 size: tuple[int, int] = (120, 36), cwd: str | None = None) -> None:
        self.columns, self.lines = size
        self.screen = pyte.Screen(self.columns, self.lines)
        self.stream = pyte.ByteStream(self.screen)
        self.started = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:  # child
            try:
                if cwd:
                    os.chdir(cwd)
                os.execvpe(argv[0], list(argv), dict(env or os.environ))
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", self.lines, self.columns, 0, 0))
        self.exit_status: int | None = None
        self.bytes_read = 0
        # When the latest output arrived, before pyte parsed it: benchmarks time
        # a frame by its bytes' arrival (pyte is slow pure Python).
        self.last_read_at = 0.0

    # -- reading -------------------------------------------------------------
    def pump(self, timeout: float = 0.05) -> bool:
        """Read what is available (waiting up to ``timeout``); False once the child is gone."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 1 << 16)
        except OSError:
            return False
        if not data:
            return False
        self.last_read_at = time.perf_counter()
        self.bytes_read += len(data)
        self.stream.feed(data)
        return True

    def settle(self, quiet: float = 0.3, timeout: float = 5.0) -> None:
        """Pump until no output has arrived for ``quiet`` seconds."""
        deadline = time.perf_counter() + timeout
        last = self.bytes_read
        idle_since = time.perf_counter()
        while time.perf_counter() < deadline:
            if not self.pump(0.05):
                return
            if self.bytes_read != last:
                last, idle_since = self.bytes_read, time.perf_counter()
            elif time.perf_counter() - idle_since >= quiet:
                return

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, predicate: str | Callable[[str], bool], timeout: float = 15.0) -> float:
        """Pump until the screen shows ``predicate``; returns the time it took."""
        check = (lambda text: predicate in text) if isinstance(predicate, str) else predicate
        start = time.perf_counter()
        deadline = start + timeout
        while True:
            if check(self.text()):
                return time.perf_counter() - start
            if time.perf_counter() > deadline:
                raise TimeoutError(f"not on screen after {timeout} s: {predicate!r}\n{self.text()}")
            if not self.pump(0.02):
                if check(self.text()):
                    return time.perf_counter() - start
                raise EOFError(f"process ended before {predicate!r} appeared\n{self.text()}")

    # -- writing -------------------------------------------------------------
    def send(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def press(self, *keys: str) -> None:
        for key in keys:
            self.send(KEYS.get(key, key))
            self.pump(0.02)

    def type(self, text: str) -> None:
        for char in text:  # one write per key, as a typist would
            self.send(char)
        self.pump(0.05)

    # -- ending --------------------------------------------------------------
    def wait_exit(self, timeout: float = 10.0) -> int | None:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            self.pump(0.05)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.exit_status = os.waitstatus_to_exitcode(status)
                return self.exit_status
        return None

    def close(self) -> None:
        if self.exit_status is None:
            try:
                os.kill(self.pid, signal.SIGTERM)
                if self.wait_exit(3) is None:
                    os.kill(self.pid, signal.SIGKILL)
                    os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        with contextlib.suppress(OSError):
            os.close(self.fd)

    def __enter__(self) -> PtyTerminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
