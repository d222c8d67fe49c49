"""One memory scope on disk (docs/storage.md#memory-files): a human-readable JSON file.

Format::

    {"schema": 1, "scope": "user", "items": [...], "archive": [...]}

with items in :meth:`MemoryItem.to_dict` form, ``indent=2``, UTF-8 (non-ASCII
kept readable), so ``jq '.items'`` and a text editor work.

Bad files never cost the user a note:

* The whole file unreadable (not JSON, not an object, wrong ``schema``,
  ``items``/``archive`` not lists): the file is moved aside with
  :func:`files.quarantine` (``NAME.corrupt-<timestamp>``), reported, and the
  scope starts empty; the next write creates a fresh file and never touches
  the quarantined one.
* Some items unreadable in an otherwise valid file: the good items are kept
  and used. The original file is moved aside as a whole (so the bad items are
  preserved byte for byte where the user can fix them), the good items are
  written back at once so the live file is valid again, and the report names
  the bad items and where the original went. Quarantining the whole file for
  one typo would hide all the user's memory until they fixed it by hand.

The file's own scope wins over an item's ``scope`` field (an item pasted from
the other file belongs where it now is); a duplicated id gets a fresh one.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agenttui.core import files
from agenttui.core.models import MemoryItem, Scope, new_id
from agenttui.core.well_formed import well_formed

SCHEMA = 1


@dataclass
class ScopeData:
    scope: Scope
    items: list[MemoryItem] = field(default_factory=list)
    archive: list[MemoryItem] = field(default_factory=list)


@dataclass
class LoadResult:
    data: ScopeData
    problem: str | None = None  # a sentence for the user, naming the paths
    bad_items: list[str] = field(default_factory=list)  # partial failure details
    fixed: list[str] = field(default_factory=list)  # out-of-range numbers clamped (item kept)
    fatal_detail: str | None = None  # the whole file was unusable


def stat_key(path: Path) -> tuple[int, int, int] | None:
    """Identity of the file's current content (atomic writes change the inode)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def parse(raw: str, scope: Scope) -> LoadResult:
    """Parse file text; never raises for bad content."""
    try:
        doc = json.loads(raw)
    except (json.JSONDecodeError, RecursionError) as exc:
        return LoadResult(ScopeData(scope), fatal_detail=f"not valid JSON: {exc}")
    if not isinstance(doc, dict):
        return LoadResult(ScopeData(scope), fatal_detail="the top level is not a JSON object")
    if doc.get("schema") != SCHEMA:
        return LoadResult(ScopeData(scope),
                          fatal_detail=f"unsupported schema {doc.get('schema')!r} (expected {SCHEMA})")
    data = ScopeData(scope)
    bad: list[str] = []
    fixed: list[str] = []
    surrogates = _ESCAPED_SURROGATE.search(raw) is not None  # only a \u escape can spell one
    seen: set[str] = set()
    for section in ("items", "archive"):
        entries = doc.get(section, [])
        if not isinstance(entries, list):
            return LoadResult(ScopeData(scope), fatal_detail=f"{section!r} is not a list")
        target = data.items if section == "items" else data.archive
        for n, entry in enumerate(entries):
            try:
                if not isinstance(entry, dict):
                    raise TypeError("not an object")
                item_fixed: list[str] = []
                entry = _clamped(entry, f"{section}[{n}]", item_fixed)
                if surrogates:
                    entry = _well_formed_entry(entry, f"{section}[{n}]", item_fixed)
                item = MemoryItem.from_dict({**entry, "scope": scope})
                fixed.extend(item_fixed)
            except (KeyError, ValueError, TypeError, AttributeError, OverflowError,
                    RecursionError) as exc:
                bad.append(f"{section}[{n}]: {exc}")
                continue
            if item.id in seen:
                item.id = new_id()
            seen.add(item.id)
            target.append(item)
    return LoadResult(data, bad_items=bad, fixed=fixed)


#: Bookkeeping numbers an item may carry, with their allowed range and the value
#: an out-of-range one becomes. A counter of 1e400 (json reads it as infinity)
#: must not cost the note: the number is clamped, the note kept, the file repaired.
_RANGES: dict[str, tuple[float, float]] = {
    "use_count": (0, 2**31 - 1),
    "confidence": (0.0, 1.0),
}


def _clamped(entry: dict[str, Any], where: str, fixed: list[str]) -> dict[str, Any]:
    """``entry`` with out-of-range numbers clamped (each recorded in ``fixed``)."""
    out = entry
    for key, (low, high) in _RANGES.items():
        value = entry.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue  # absent or not a number: from_dict decides
        if value != value:  # NaN
            new: float = high if key == "confidence" else low
        elif value < low:
            new = low
        elif value > high:
            new = high
        else:
            continue
        if out is entry:
            out = dict(entry)
        out[key] = new
        shown = repr(value) if isinstance(value, float) or value.bit_length() < 64 else "a huge number"
        fixed.append(f"{where}.{key} {shown} is out of range ({low}..{high}); set to {new}")
    return out


_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _well_formed_entry(entry: dict[str, Any], where: str, fixed: list[str]) -> dict[str, Any]:
    """``entry`` with half a character (a lone ``\\ud83d`` escape, from a hand edit or a
    tool that cut a pair) replaced by U+FFFD in its strings, each change recorded in
    ``fixed``: kept as it was, the item could never be written back, nor could any other."""
    out = entry
    for key, value in entry.items():
        repaired = _well_formed_value(value)
        if repaired is not value and repaired != value:  # (identity first: NaN is not equal to itself)
            if out is entry:
                out = dict(entry)
            out[key] = repaired
            fixed.append(f"{where}.{key} held half of a character (a lone \\u surrogate escape); "
                         "it was replaced by U+FFFD (\ufffd)")
    return out


def _well_formed_value(value: Any) -> Any:
    if isinstance(value, str):
        return well_formed(value)
    if isinstance(value, list):
        return [_well_formed_value(v) for v in value]
    if isinstance(value, dict):
        return {well_formed(k): _well_formed_value(v) for k, v in value.items()}
    return value


def read(path: Path, scope: Scope) -> LoadResult:
    """Read and parse ``path``; a missing file is an empty scope. A byte order mark (an
    editor's UTF-8 with BOM) is read past: the file is valid, the next write drops it."""
    try:
        raw = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return LoadResult(ScopeData(scope))
    except UnicodeDecodeError as exc:
        return LoadResult(ScopeData(scope), fatal_detail=f"not UTF-8 text: {exc}")
    return parse(raw, scope)


def dumps(data: ScopeData) -> str:
    """Exactly ``json.dumps(doc, indent=2, ensure_ascii=False)``, but fast.

    With ``indent`` the stdlib falls back to its pure-Python encoder (~30 ms
    for 1,000 items, paid on every write). Items rarely change between
    writes, so each item is encoded compactly by the C encoder and its
    indented form is cached by that compact text. The items that did change
    (``mark_used`` touches every injected item on every turn) are indented by
    :func:`_indented`, which lays out the dicts itself and leaves the strings
    to the C encoder.
    """
    head = json.dumps({"schema": SCHEMA, "scope": data.scope}, indent=2, ensure_ascii=False)[:-2]
    parts = [head]
    for section in ("items", "archive"):
        entries = getattr(data, section)
        if not entries:
            parts.append(f',\n  "{section}": []')
            continue
        body = ",\n".join(_pretty(item.to_dict()) for item in entries)
        parts.append(f',\n  "{section}": [\n{body}\n  ]')
    parts.append("\n}\n")
    return "".join(parts)


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_STRING = json.encoder.encode_basestring  # the C one when available, as json.dumps uses
_PRETTY_CACHE_SIZE = 8192
_pretty_cache: dict[str, str] = {}


def _pretty(item: dict[str, Any]) -> str:
    """One item as it appears in the file (indented 4, then by 2 per level)."""
    compact = _COMPACT(item)
    text = _pretty_cache.get(compact)
    if text is None:
        try:
            text = _indented(item, "    ")
        except TypeError:  # a value type _indented does not lay out: the stdlib can
            pretty = json.dumps(json.loads(compact), indent=2, ensure_ascii=False)
            # not splitlines: \x85, \u2028 stay inside strings
            text = "\n".join("    " + line for line in pretty.split("\n"))
        if len(_pretty_cache) >= _PRETTY_CACHE_SIZE:
            _pretty_cache.clear()
        _pretty_cache[compact] = text
    return text


def _indented(value: object, pad: str) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)``, every line prefixed by ``pad``.

    Only what ``MemoryItem.to_dict`` produces (dicts, lists, str, int, float,
    bool, None); anything else raises ``TypeError`` and the caller falls back.
    """
    if isinstance(value, str):
        return pad + _STRING(value)
    return pad + _inline(value, pad)


def _inline(value: object, pad: str) -> str:
    """``value`` encoded as it continues a line whose indentation is ``pad``."""
    if isinstance(value, str):
        return _STRING(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        return int.__repr__(value)
    if type(value) is float:
        if value != value or value in (float("inf"), float("-inf")):
            raise TypeError("non-finite float")  # the stdlib's spelling: leave it to it
        return float.__repr__(value)
    inner = pad + "  "
    if type(value) is dict:
        if not value:
            return "{}"
        lines = []
        for key, item in value.items():
            if type(key) is not str:
                raise TypeError("non-string key")
            lines.append(f"{inner}{_STRING(key)}: {_inline(item, inner)}")
        return "{\n" + ",\n".join(lines) + f"\n{pad}}}"
    if type(value) is list:
        if not value:
            return "[]"
        return "[\n" + ",\n".join(inner + _inline(item, inner) for item in value) + f"\n{pad}]"
    raise TypeError(f"unexpected {type(value).__name__}")


def write(path: Path, data: ScopeData, *, sync_dir: bool = True) -> None:
    files.atomic_write_text(path, dumps(data), sync_dir=sync_dir)


def load_repairing(path: Path, scope: Scope) -> LoadResult:
    """Read ``path`` and move bad content aside. Call with ``files.locked(path)`` held.

    Returns the usable data and, if anything was moved aside, ``problem``.
    """
    result = read(path, scope)
    if result.fatal_detail:
        err = files.quarantine(path, result.fatal_detail)
        where = f"moved to {err.moved_to}" if err.moved_to else "left in place"
        result.problem = (
            f"Memory file {path} could not be read ({result.fatal_detail}); it was {where} "
            "and nothing in it was deleted. Fix it and move it back, or copy notes from it."
        )
    elif result.bad_items or result.fixed:
        err = files.quarantine(path, "invalid items")
        write(path, result.data)
        kept = len(result.data.items) + len(result.data.archive)
        if result.bad_items:
            shown = "; ".join(result.bad_items[:5]) + (" ..." if len(result.bad_items) > 5 else "")
            what = f"{len(result.bad_items)} item(s) could not be read ({shown})"
        else:
            shown = "; ".join(result.fixed[:5]) + (" ..." if len(result.fixed) > 5 else "")
            what = f"{len(result.fixed)} value(s) were repaired ({shown})"
        result.problem = (
            f"Memory file {path}: {what}; the original file was saved as {err.moved_to}, "
            f"and the {kept} readable item(s) were kept."
        )
    return result
