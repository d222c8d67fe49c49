"""The app's background semantic worker (``run_background``), run in a thread until a condition holds."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from agenttui.core.recall.semantic import run_background


def run_worker_until(services, until: Callable[[], object], timeout: float = 60.0) -> list[str]:
    """Run the worker (backfill, then the language probe) until ``until()`` holds; the notices it gave.

    The deadline is generous: CI machines are shared, and a passing test never waits for it.
    """
    stop, notices = threading.Event(), []
    worker = threading.Thread(target=run_background, args=(services,),
                              kwargs={"stop": stop, "notify": notices.append, "idle": 0.05, "retry": 0.05})
    worker.start()
    try:
        deadline = time.monotonic() + timeout
        while not until():
            assert time.monotonic() < deadline, "timed out"
            time.sleep(0.02)  # polls the condition (the worker is a thread; nothing to await)
    finally:
        stop.set()
        worker.join(timeout=30)
    return notices
