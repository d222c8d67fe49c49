"""A stdio server's stderr: its tail in memory, a log file only while allowed.

The server writes into a pipe that a daemon thread drains (a thread, not the
event loop: a server may flood stderr while the UI is busy). Each chunk goes
to an in-memory tail (what the MCP screen shows) and, only while
``persist()`` is true, to ``<data>/mcp/logs/<profile>/<name>.stderr``. So a
server started before the app went incognito stops writing under the data
dir the moment it does -- the child keeps its pipe, we decide where its bytes
go -- and what it wrote while incognito never reaches the file later.

Decision: the file is opened (emptied) at the first chunk a start writes
while persisting, not at the start itself: a restart during incognito leaves
the previous file as it was.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

TAIL_BYTES = 16_000


class StderrSink:
    def __init__(self, path: Path | None, persist: Callable[[], bool]) -> None:
        self.path = path
        self.persist = persist
        self._tail = bytearray()
        self._lock = threading.Lock()
        self._start = 0  # which start the draining thread belongs to (a late one writes nothing)

    def open(self) -> IO[str]:
        """The write end of a new pipe for one server start (the caller closes it after the
        server has ended); a thread drains the read end until the server and we have closed it."""
        read_fd, write_fd = os.pipe()
        with self._lock:
            self._tail.clear()
            self._start += 1
            start = self._start
        threading.Thread(target=self._drain, args=(read_fd, start), daemon=True,
                         name=f"mcp-stderr:{self.path.stem if self.path else '?'}").start()
        return os.fdopen(write_fd, "w", encoding="utf-8", errors="replace")

    def _drain(self, fd: int, start: int) -> None:
        log: Any = None
        try:
            while chunk := os.read(fd, 65536):
                with self._lock:
                    if start != self._start:
                        continue
                    self._tail += chunk
                    del self._tail[:-TAIL_BYTES]
                if self.path is None or not self.persist():
                    continue
                if log is None:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                    log = open(self.path, "wb")  # noqa: SIM115 -- kept open across chunks
                log.write(chunk)
                log.flush()
        except OSError:
            pass  # a full disk or a vanished folder: the tail in memory is still shown
        finally:
            os.close(fd)
            if log is not None:
                with contextlib.suppress(OSError):
                    log.close()

    def tail(self, limit: int) -> str:
        with self._lock:
            data = bytes(self._tail[-limit:])
        return data.decode("utf-8", errors="replace")
