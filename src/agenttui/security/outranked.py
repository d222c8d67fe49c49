"""Spans a finder need not judge: a rule that outranks it already took them.

Candidates are merged into the union of overlapping spans, and a merged span
takes the kind of its highest-priority member (`redaction._merge`). A
candidate that starts where a non-empty candidate of strictly higher priority
starts, and ends no later, therefore changes nothing: the union is the same,
and it can never be the member that names the span. Such a candidate may be
left out before its checks run.

On secret-dense text the same token is found by a provider rule, a generated
rule and an assignment (`cloudconvert_token = <token>`): ~20 % of the
assignment finder's matches and ~25 % of the lines taken for tokens lie at
the start of a span a provider or generated rule took, and each skipped
judgement saves the ~5-10 µs of Python its checks cost. Only the start is
looked up (one dict probe): a containment query over sorted spans costs more
per candidate than it finds in addition.
"""

from __future__ import annotations

from collections.abc import Iterable

Candidate = tuple[int, int, str, int]


def outranking_ends(candidates: Iterable[Candidate], above: int) -> dict[int, int]:
    """start -> the furthest end of the non-empty candidates from that start whose
    priority is greater than `above`. A candidate of priority `above` or lower with
    `start` in it and `end <= ends[start]` is outranked (see the module docstring)."""
    ends: dict[int, int] = {}
    get = ends.get
    for start, end, _, priority in candidates:
        if priority > above and end > start and get(start, -1) < end:
            ends[start] = end
    return ends
