"""A hybrid logical clock: wall-clock milliseconds, a counter, the device id.

Encoded as fixed-width text so that string order is clock order, with the device id
breaking ties: every machine picks the same winner between two versions.
"""

from __future__ import annotations

import time


def encode(ms: int, counter: int, device: str) -> str:
    return f"{ms:015d}.{counter:06d}.{device}"


def decode(stamp: str) -> tuple[int, int, str]:
    ms, counter, device = stamp.split(".", 2)
    return int(ms), int(counter), device


class Clock:
    def __init__(self, device: str, last: str | None) -> None:
        self.device = device
        self.ms, self.counter = (decode(last)[:2] if last else (0, 0))

    def now(self) -> str:
        wall = int(time.time() * 1000)
        if wall > self.ms:
            self.ms, self.counter = wall, 0
        else:
            self.counter += 1
        return encode(self.ms, self.counter, self.device)

    def observe(self, stamp: str) -> None:
        """A remote stamp: later local stamps sort after it even if this clock is behind."""
        ms, counter, _ = decode(stamp)
        if (ms, counter) > (self.ms, self.counter):
            self.ms, self.counter = ms, counter

    @property
    def last(self) -> str:
        return encode(self.ms, self.counter, self.device)
