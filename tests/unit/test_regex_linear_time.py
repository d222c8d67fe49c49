"""Every module-level regex in agenttui runs in linear time on adversarial input up to 1 MiB.

A pasted blob froze the app: a recall regex retried from every letter of a
long run. Here each module's compiled patterns (module globals, class
attributes and the lists, tuples and dicts holding them) are scanned with
``finditer`` -- the most work any use of a pattern can do -- over the inputs
of :mod:`tests.linear_time`: letter, digit, space and newline runs, prose, a
base64 blob with a few words, a 1 MiB line with few words, and a run of each
character the pattern repeats. Time must grow about as fast as the input
(a ratio per 4x step, see :mod:`tests.linear_time`). One test per module, so
a new module's patterns are checked without listing them here.

Regexes written inline in a function (``re.search(r"…", text)``) are not
collected; the ones that see user or model text are listed and checked in
``INLINE`` below. Two entry points are also run whole on 1 MiB (the draft's
query terms, the History search query).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator

import pytest

import agenttui
from tests.linear_time import GENERIC_INPUTS, adversarial_inputs, blob_with_words, scan_all, superlinear_step

SKIPPED_MODULES = {"agenttui.__main__"}  # runs the app on import


def _modules() -> list[str]:
    return sorted(m.name for m in pkgutil.walk_packages(agenttui.__path__, "agenttui.")
                  if m.name not in SKIPPED_MODULES)


def _patterns_in(value: object, depth: int = 0) -> Iterator[re.Pattern]:
    if isinstance(value, re.Pattern):
        yield value
    elif depth < 3 and isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from _patterns_in(item, depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for item in value.values():
            yield from _patterns_in(item, depth + 1)


def module_patterns(name: str) -> dict[tuple[object, int], re.Pattern]:
    """The compiled patterns defined in module ``name`` (not those it imports from elsewhere)."""
    module = importlib.import_module(name)
    found: dict[tuple[object, int], re.Pattern] = {}
    for key, value in vars(module).items():
        owner = getattr(value, "__module__", name)
        if isinstance(value, type):
            if owner != name:
                continue
            values = list(vars(value).values())
        else:
            values = [value]
        if key.startswith("__"):
            continue
        for item in values:
            for pattern in _patterns_in(item):
                found.setdefault((pattern.pattern, pattern.flags), pattern)
    return found


def _patterns_by_module() -> dict[str, list[re.Pattern]]:
    """Each pattern once, under the first module (in name order) holding it: an imported one is not checked twice."""
    seen: set[tuple[object, int]] = set()
    by_module: dict[str, list[re.Pattern]] = {}
    for name in _modules():
        for key, pattern in module_patterns(name).items():
            if key not in seen:
                seen.add(key)
                by_module.setdefault(name, []).append(pattern)
    return by_module


PATTERNS = _patterns_by_module()


# Patterns the code only ever uses with ``fullmatch`` on a setting's value: one try at
# the start is linear, a search from every position would not be (and never happens).
FULLMATCH_ONLY = {
    r"(?i)\s*(\d+(?:\.\d+)?)\s*([kmgt]i?b?|b|bytes)?\s*",  # core/backup/limits.py _SIZE: "500 MB"
}


def _failures(pattern: re.Pattern) -> list[str]:
    failures = []
    for input_name, make in adversarial_inputs(pattern).items():
        step = superlinear_step(scan_all(pattern, anchored=pattern.pattern in FULLMATCH_ONLY), make)
        if step is not None:
            failures.append(f"{pattern.pattern!r} on {input_name}: {step}")
    return failures


@pytest.mark.slow
@pytest.mark.parametrize("module", sorted(PATTERNS))
def test_every_module_level_regex_is_linear(module):
    failures = [f for pattern in PATTERNS[module] for f in _failures(pattern)]
    assert not failures, "\n".join(failures)


# Inline patterns on user or model text (found by grepping for ``re.<call>(r"``); the
# rest of the inline ones see settings keys, paths or file names of a few characters.
INLINE = {
    "shell words (model's commands)": re.compile(r"[\w./\\-]+"),
    "backquoted commands": re.compile(r"`([^`]*)`"),
    "process substitution": re.compile(r"<\(([^()]*)\)"),
    "sed statements": re.compile(r"[;{}\n]"),
    "printf statement": re.compile(r"(?<!\s)\s*+printf?\b"),
    "parenthesised": re.compile(r"\([^()]*\)"),
    "a lone pipe": re.compile(r"(?<!\|)\|(?!\|)"),
    "recall apostrophes": re.compile(r"['’]"),
    "recall words": re.compile(r"[\w']+"),
    "recalled tag in a note": re.compile(r"</?recalled", re.I),
    "whitespace of a secret note": re.compile(r"\s+"),
    "memory key separators": re.compile(r"[\s\-]+"),
    "project memory entries": re.compile(r"(?m)^---\s*$"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(INLINE))
def test_inline_regexes_on_user_or_model_text_are_linear(name):
    assert not _failures(INLINE[name])


@pytest.mark.slow
@pytest.mark.parametrize("input_name", sorted(GENERIC_INPUTS))
def test_query_terms_of_a_pasted_draft_is_linear(input_name):
    from agenttui.core.recall.text import query_terms

    step = superlinear_step(query_terms.__wrapped__, GENERIC_INPUTS[input_name])
    assert step is None, str(step)


@pytest.mark.slow
def test_history_search_query_of_a_pasted_blob_is_linear():
    from agenttui.core.history.store import to_fts_query

    assert superlinear_step(to_fts_query, blob_with_words) is None
