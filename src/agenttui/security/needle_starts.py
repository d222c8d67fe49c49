"""Where the keyword pass located a rule's needles: the only places its matches can start.

Shared by the provider rules (:mod:`agenttui.security.anchor_positions`) and the generated
rules' seeks (:mod:`agenttui.security.gitleaks_scan`).
"""

from __future__ import annotations

from collections.abc import Iterable, Set


def located_starts(needles: Iterable[str] | None, present: Set[str] | None) -> list[int] | None:
    """Every start of `needles` (keyword-pass needles, so one not `present` is absent)
    in the text, when the sparse pass located each present one; else None."""
    positions: dict[str, list[int]] | None = getattr(present, "positions", None)
    if needles is None or not positions or present is None:
        return None
    starts: list[int] = []
    for n in needles:
        if n in positions:
            starts += positions[n]
        elif n in present:
            return None  # present but common: its scan stays
    return sorted(set(starts))
