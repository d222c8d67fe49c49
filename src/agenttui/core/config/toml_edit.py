"""Write a TOML file so that what the user wrote survives: comments, order, formatting.

Saving config.toml (the settings dialog, ``mcp add``, ``config set``) decides the
*values* the file should hold as a plain dict; :func:`write_keeping_style` then
edits the file's own document (``tomlkit``) towards that dict, touching only keys
whose value changed, were added or were removed. Everything else -- comments,
blank lines, key order, quoting, inline tables, number formats -- stays as it was,
so a saved file differs from the one read only where a value did.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def render_keeping_style(original: str, desired: dict[str, Any]) -> str:
    """``original`` TOML text changed to hold exactly ``desired`` (see the module doc)."""
    import tomlkit  # lazy: only saving needs it

    document = tomlkit.parse(original)
    _sync(document, desired)
    return tomlkit.dumps(document)


def write_keeping_style(path: Path, desired: dict[str, Any]) -> None:
    """Atomically write ``path`` (0600) to hold ``desired``, keeping its text where unchanged.
    The caller holds the file's lock and has checked the old text parses."""
    from agenttui.core.files import atomic_write_text

    original = path.read_text(encoding="utf-8") if path.exists() else ""
    atomic_write_text(path, render_keeping_style(original, desired))


def _sync(container: Any, desired: dict[str, Any]) -> None:
    for key in [k for k in container if k not in desired]:
        del container[key]
    for key, value in desired.items():
        if key in container:
            current = container[key]
            if isinstance(value, dict) and hasattr(current, "unwrap") and isinstance(current.unwrap(), dict):
                _sync(current, value)
                continue
            old = _plain(current)
            if old == value and isinstance(old, bool) == isinstance(value, bool):
                continue  # unchanged (300 read as 300.0 too): its text and trailing comment stay
        container[key] = value


def _plain(item: Any) -> Any:
    return item.unwrap() if hasattr(item, "unwrap") else item
