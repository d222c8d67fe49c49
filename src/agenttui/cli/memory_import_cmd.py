"""``agenttui memory import FILE [--scope user|profile]``.

Reads notes (and facts) from a JSON or text/Markdown file (formats and rules:
:mod:`agenttui.core.memory.importer`) and submits each to the memory write gate
with source ``import``. stdout gets the counts (added / refreshed / updated /
refused); every refusal is listed on stderr with the gate's reason. Exit 0
once the file was read, whatever the gate decided about each note (a refusal
is a result, not a failure); 1 when the file cannot be read as notes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from agenttui.cli.common import PROG, fail, inert, open_services

_SHOWN_CHARS = 80  # of a refused note on stderr


def register_import(sub: argparse._SubParsersAction, scopes: tuple[str, ...]) -> None:
    parser = sub.add_parser("import", help="remember notes from a JSON or Markdown file (each checked by the gate)")
    parser.add_argument("file", metavar="FILE", type=Path,
                        help="JSON (strings or memory list --json items) or one note per line / bullet")
    parser.add_argument("--scope", choices=scopes, default=None,
                        help="where the notes go (default: an item's own scope, else user)")
    parser.set_defaults(handler=run_import)


def _short(text: str) -> str:
    text = " ".join(inert(text).split())
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1] + "…"


def run_import(args: argparse.Namespace) -> int:
    from agenttui.core.memory.importer import MemoryImportError, import_notes, read_notes_file

    name = inert(str(args.file))
    try:
        proposals = read_notes_file(args.file)
    except MemoryImportError as exc:
        return fail(f"{name}: {exc}; nothing imported")
    services = open_services(args)
    if services is None:
        return 1
    try:
        report = import_notes(services.memory, proposals, scope=args.scope)
    finally:
        services.close()
    for proposal, reason in report.refused:
        print(f"{PROG}: refused {proposal.label} {_short(proposal.display)!r}: {inert(reason)}",
              file=sys.stderr)
    print(f"{name}: {len(report.added)} added, {len(report.refreshed)} refreshed, "
          f"{len(report.updated)} updated, {len(report.refused)} refused")
    return 0
