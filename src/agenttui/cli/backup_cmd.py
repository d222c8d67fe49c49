"""``agenttui backup [--output FILE]`` and ``agenttui restore FILE`` (docs/storage.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from agenttui.cli.common import add_yes, confirm_destructive, fail, paths, warn


def _size(text: str) -> int:
    from agenttui.core.backup.limits import parse_size

    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a positive whole number: {text!r}")
    return int(text)


def register(subparsers: argparse._SubParsersAction) -> None:
    backup = subparsers.add_parser(
        "backup", help="write one archive of config, memory, project memory and history")
    backup.add_argument("--output", "-o", metavar="FILE", type=Path, default=None,
                        help="where to write the .tar.gz (default: the backups dir)")
    backup.set_defaults(handler=run_backup)

    restore = subparsers.add_parser(
        "restore", help="replace current data with a backup (backs up current data first)")
    restore.add_argument("archive", metavar="FILE", type=Path)
    restore.add_argument("--max-size", metavar="SIZE", type=_size, default=None,
                         help="refuse an archive that expands to more (default 2GiB; e.g. 4G, 500M)")
    restore.add_argument("--max-files", metavar="N", type=_count, default=None,
                         help="refuse an archive with more files (default 10000)")
    restore.add_argument("--skip-unexpected", action="store_true",
                         help="leave out files a backup never holds instead of refusing the archive")
    add_yes(restore)
    restore.set_defaults(handler=run_restore)


def run_backup(args: argparse.Namespace) -> int:
    from agenttui.core.backup.archive import create_backup

    output = args.output
    if output is not None and output.is_dir():
        return fail(f"{output} is a directory; give a file name ending in .tar.gz")
    try:
        path = create_backup(paths(), output)
    except Exception as exc:
        return fail(f"backup failed: {exc}")
    _name_skipped(path)
    print(path)
    return 0


def _name_skipped(archive: Path) -> None:
    """Files in the data dir that are not agenttui's are left out: say which."""
    from agenttui.core.backup.archive import read_manifest

    try:
        skipped = read_manifest(archive).get("skipped") or []
    except Exception:  # noqa: BLE001 -- only a notice; the archive was written
        return
    if skipped:
        shown = ", ".join(skipped[:10]) + (f" and {len(skipped) - 10} more" if len(skipped) > 10 else "")
        warn(f"not in the backup (not agenttui's files, a restore would refuse them): {shown}")


def run_restore(args: argparse.Namespace) -> int:
    from agenttui.core.backup.archive import BackupError, check_archive, restore_backup
    from agenttui.core.backup.limits import RestoreLimits, human_size

    if not args.archive.is_file():
        return fail(f"{args.archive}: no such file")
    defaults = RestoreLimits()
    limits = RestoreLimits(max_bytes=args.max_size or defaults.max_bytes,
                           max_files=args.max_files or defaults.max_files,
                           skip_unexpected=args.skip_unexpected)
    try:  # every check (paths, kinds, limits) reads headers only: nothing is written yet
        summary = check_archive(args.archive, limits)
    except BackupError as exc:
        return fail(str(exc))
    manifest = summary.manifest
    contents = manifest.get("contents", []) if isinstance(manifest.get("contents"), list) else []
    profiles = sorted({n.split("/")[2] for n in contents if isinstance(n, str)
                       and n.startswith("data/profiles/") and n.count("/") >= 3})
    print(f"backup from {manifest.get('created', '?')}: {len(contents)} files "
          f"({human_size(summary.total_bytes)}), profiles: {', '.join(profiles) or 'none'}")
    if summary.skipped:
        shown = ", ".join(summary.skipped[:10]) + (
            f" and {len(summary.skipped) - 10} more" if len(summary.skipped) > 10 else "")
        warn(f"left out (not files an agenttui backup holds): {shown}")
    action = ("replace ALL current config, memory, project memory and history "
              f"with {args.archive}")
    if not confirm_destructive(args, action, word="restore"):
        return 1
    try:
        before = restore_backup(paths(), args.archive, limits)
    except BackupError as exc:
        return fail(str(exc))
    except Exception as exc:
        return fail(f"restore failed, current data left in place: {exc}")
    print(f"backup of the previous data written to {before}")
    print(f"restored from {args.archive}")
    return 0
