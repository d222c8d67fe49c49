"""Which built-in redaction rules a sent message was redacted with.

A sender redacts every message before it enters its change log, so a receiver
with the same rules need not run them again (that was half of a large join's
time). A receiver whose rules differ -- the sender is an older or newer
agenttui, or the record names no rules -- redacts again: "secrets are redacted
before anything reaches disk" holds on each machine by its own rules.

The mark is a digest of the rule modules' own files (the code is the rule
set: generated tables, patterns and finders), so it changes whenever a rule
does, release or not.
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

FIELD = "rx"


@lru_cache(maxsize=1)
def redaction_mark() -> str:
    spec = importlib.util.find_spec("agenttui.security")
    folder = Path(next(iter(spec.submodule_search_locations or ()))) if spec else None
    digest = hashlib.sha256()
    if folder is not None:
        for path in sorted([*folder.glob("*.py"), *folder.glob("*.txt")]):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def redacted_here(records: Iterable[Mapping[str, Any]], own_patterns: Sequence[str]) -> bool:
    """True when ``records`` need no redaction here: this machine has no extra patterns of its
    own and each record was redacted by the same built-in rules as this machine's."""
    if own_patterns:
        return False
    mark = redaction_mark()
    return all(record.get(FIELD) == mark for record in records)
