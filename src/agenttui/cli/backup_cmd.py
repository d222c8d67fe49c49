"""``agenttui backup [--output FILE]`` and ``agenttui restore FILE`` (M10, D2)."""

from __future__ import annotations

import argparse
from pathlib import Path

from agenttui.cli.common import add_yes, confirm_destructive, fail, paths


def register(subparsers: argparse._SubParsersAction) -> None:
    backup = subparsers.add_parser(
        "backup", help="write one archive of config, memory, project memory and history")
    backup.add_argument("--output", "-o", metavar="FILE", type=Path, default=None,
                        help="where to write the .tar.gz (default: the backups dir)")
    backup.set_defaults(handler=run_backup)

    restore = subparsers.add_parser(
        "restore", help="replace current data with a backup (backs up current data first)")
    restore.add_argument("archive", metavar="FILE", type=Path)
    add_yes(restore)
    restore.set_defaults(handler=run_restore)


def run_backup(args: argparse.Namespace) -> int:
    from agenttui.core.backup import create_backup

    output = args.output
    if output is not None and output.is_dir():
        return fail(f"{output} is a directory; give a file name ending in .tar.gz")
    try:
        path = create_backup(paths(), output)
    except Exception as exc:
        return fail(f"backup failed: {exc}")
    print(path)
    return 0


def run_restore(args: argparse.Namespace) -> int:
    from agenttui.core.backup import BackupError, read_manifest, restore_backup

    if not args.archive.is_file():
        return fail(f"{args.archive}: no such file")
    try:
        manifest = read_manifest(args.archive)
    except BackupError as exc:
        return fail(str(exc))
    profiles = sorted({n.split("/")[2] for n in manifest.get("contents", [])
                       if n.startswith("data/profiles/") and n.count("/") >= 3})
    print(f"backup from {manifest.get('created', '?')}: "
          f"{len(manifest.get('contents', []))} files, profiles: {', '.join(profiles) or 'none'}")
    action = ("replace ALL current config, memory, project memory and history "
              f"with {args.archive}")
    if not confirm_destructive(args, action, word="restore"):
        return 1
    try:
        before = restore_backup(paths(), args.archive)
    except BackupError as exc:
        return fail(str(exc))
    except Exception as exc:
        return fail(f"restore failed, current data left in place: {exc}")
    print(f"backup of the previous data written to {before}")
    print(f"restored from {args.archive}")
    return 0
