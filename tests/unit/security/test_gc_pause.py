"""The collector pause shared by redaction and the audit, which run in worker threads at once.

Each used to save ``gc.isenabled()`` and restore it on its own: a thread that read
"off" (another thread's pause) and turned it off after that other thread had turned it
back on left the collector off for the rest of the process. Counted pauses cannot.
"""

from __future__ import annotations

import gc
import threading

import pytest

from agenttui.security import redact_secrets
from agenttui.security.gc_pause import collector_paused, collector_resumed


@pytest.fixture(autouse=True)
def _collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_overlapping_pauses_restore_the_collector_when_the_last_one_ends():
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, bool] = {}

    def a() -> None:
        with collector_paused():
            a_in.set()
            b_in.wait(10)
        a_out.set()

    def b() -> None:
        a_in.wait(10)
        with collector_paused():
            b_in.set()
            a_out.wait(10)
            seen["after a ended, b still paused"] = gc.isenabled()

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert seen == {"after a ended, b still paused": False}
    assert gc.isenabled()


def test_a_program_that_turned_the_collector_off_keeps_it_off():
    gc.disable()
    with collector_paused(), collector_resumed():
        assert not gc.isenabled()  # resuming gives back what the program chose, no more
    assert not gc.isenabled()


def test_resumed_inside_a_pause_turns_it_on_for_the_block_only():
    with collector_paused():
        assert not gc.isenabled()
        with collector_resumed():
            assert gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_many_threads_redacting_at_once_leave_the_collector_on():
    text = "token ghp_" + "a1B2c3D4e5F6g7H8i9J0" * 2 + "\npassword = hunter2hunter2\n" * 50
    barrier = threading.Barrier(8)

    def redact() -> None:
        barrier.wait(10)
        for _ in range(20):
            redact_secrets(text)

    threads = [threading.Thread(target=redact) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert gc.isenabled()
