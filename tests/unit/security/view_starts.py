"""Every start of a needle in a byte view, found the plain way (what located positions must equal)."""

from __future__ import annotations


def every_start(view: bytes, needle: str) -> list[int]:
    starts, pos = [], view.find(needle.encode("latin-1"))
    while pos >= 0:
        starts.append(pos)
        pos = view.find(needle.encode("latin-1"), pos + 1)
    return starts
