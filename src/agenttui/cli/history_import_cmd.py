"""``agenttui history import FILE... [--format auto|agenttui|chatgpt]``.

Reads agenttui's own JSON exports or ChatGPT's ``conversations.json``
(parsing and the rules for what is kept: :mod:`agenttui.core.history.importer`)
into the active profile's history. Message times and titles are kept; text is
redacted by the store on the way in; importing a file again adds nothing
(stable conversation ids). One line of counts per file (and a total for
several files) on stdout.

Each file stands alone: an unreadable or invalid file, or a conversation in
it that cannot be read, is reported on stderr (no traceback) and the rest is
still imported; the exit code is then 1. The imported messages are then
indexed for semantic recall where it is on (:mod:`agenttui.cli.history_import_embed`;
``--no-embed`` skips it). Only the standard library is imported at the top
(see :mod:`agenttui.cli`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from agenttui.cli.common import PROG, fail, inert, open_services

FORMAT_CHOICES = ("auto", "agenttui", "chatgpt")  # = core.history.importer.FORMATS


def register_import(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("import", help="import conversations exported by agenttui or ChatGPT")
    parser.add_argument("files", nargs="+", metavar="FILE", type=Path,
                        help="agenttui history export --format json output, or ChatGPT's conversations.json")
    parser.add_argument("--format", choices=FORMAT_CHOICES, default="auto",
                        help="the files' format (default: detected per file)")
    parser.add_argument("--no-embed", action="store_true",
                        help="do not index the imported messages for semantic recall now "
                             "(the app or `agenttui history embed` does it later)")
    parser.set_defaults(handler=run_import)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _summary(counts) -> str:
    text = (f"imported {_plural(counts.imported, 'conversation')} "
            f"({_plural(counts.messages, 'message')}); {counts.present} already present, skipped")
    if counts.empty:
        text += f"; {counts.empty} with nothing to import, skipped"
    return text


def run_import(args: argparse.Namespace) -> int:
    from agenttui.core.history.importer import ImportCounts, ImportFormatError, import_into, read_export
    from agenttui.core.history.store import HistoryError

    services = open_services(args)
    if services is None:
        return 1
    total = ImportCounts()
    failed = 0
    interrupted = False
    try:
        for path in args.files:
            name = inert(str(path))
            try:
                parsed = read_export(path, args.format)
            except ImportFormatError as exc:
                failed += 1
                fail(f"{name}: {exc}; nothing imported from it")
                continue
            for problem in parsed.problems:
                print(f"{PROG}: {name}: skipped {inert(problem)}", file=sys.stderr)
            failed += bool(parsed.problems)
            try:
                counts = import_into(services.history, parsed.conversations)
            except HistoryError as exc:  # disk full, locked: what was stored before stays
                failed += 1
                fail(f"{name}: {exc}")
                continue
            total.add(counts)
            print(f"{name} ({parsed.format}): {_summary(counts)}", flush=True)
        if len(args.files) > 1:
            print(f"total: {_summary(total)}", flush=True)
        if total.messages and not args.no_embed:
            from agenttui.cli.history_import_embed import embed_imported

            interrupted = embed_imported(services) == 130
    finally:
        services.close()
    return 130 if interrupted else 1 if failed else 0
