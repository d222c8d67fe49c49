"""``agenttui sync [now] | init | status | leave`` (README, "Sync").

Exit codes: 0 done, 1 with one sentence on stderr (wrong passphrase, unreachable
remote, not set up), nothing half-changed in either case.
"""

from __future__ import annotations

import argparse
import sys

from agenttui.cli.common import fail, json_text, warn


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("sync", help="sync memory and history with your other machines (encrypted)")
    parser.set_defaults(handler=run_now)
    sub = parser.add_subparsers(dest="sync_command", metavar="ACTION")

    init = sub.add_parser("init", help="join or create the sync target for this machine")
    where = init.add_mutually_exclusive_group(required=True)
    where.add_argument("--git", metavar="URL", help="a git remote (a private repository, an ssh bare repository)")
    where.add_argument("--folder", metavar="DIR", help="a folder your sync tool replicates (Syncthing, Dropbox ...)")
    init.add_argument("--device", metavar="NAME", help="this machine's name (default: the host name)")
    init.add_argument("--passphrase-file", action="store_true",
                      help="keep the passphrase in <config dir>/sync_passphrase (mode 0600, NOT encrypted) "
                           "instead of the keyring: for machines without one")
    init.set_defaults(handler=run_init)

    now = sub.add_parser("now", help="send this machine's changes and apply the others' (the default)")
    now.set_defaults(handler=run_now)

    status = sub.add_parser("status", help="the target, the devices, pending changes, conflicts")
    status.add_argument("--json", action="store_true", help="machine-readable output")
    status.set_defaults(handler=run_status)

    leave = sub.add_parser("leave", help="stop syncing this machine (its data stays)")
    leave.set_defaults(handler=run_leave)


def _paths():
    from agenttui.cli.common import paths

    return paths()


def _patterns() -> tuple[str, ...]:
    """The user's extra redaction patterns from config.toml (none if it cannot be read)."""
    try:
        from agenttui.bootstrap import build_services

        return tuple(build_services().settings.redaction.extra_patterns)
    except Exception:  # noqa: BLE001 -- the built-in rules still apply
        return ()


def _passphrase() -> str | None:
    import os

    from agenttui.sync.secrets import ENV_VAR

    given = os.environ.get(ENV_VAR)
    if given:
        return given
    if not sys.stdin.isatty():  # a pipe: its first line (`pass show agenttui-sync | agenttui sync init ...`)
        line = sys.stdin.readline().rstrip("\r\n")
        if not line:
            fail(f"no sync passphrase: set {ENV_VAR}, pipe it in, or run this on a terminal")
            return None
        return line
    import getpass

    first = getpass.getpass("Sync passphrase (the same on every machine): ")
    if not first:
        fail("an empty passphrase is refused")
        return None
    if getpass.getpass("Again: ") != first:
        fail("the two passphrases differ; nothing was changed")
        return None
    return first


def _errors():
    from agenttui.core.config.key_file import KeyFileError
    from agenttui.sync.crypto import WrongPassphrase
    from agenttui.sync.secrets import NoPassphrase
    from agenttui.sync.targets import SyncError

    return (WrongPassphrase, NoPassphrase, SyncError, KeyFileError)


def run_init(args: argparse.Namespace) -> int:
    from agenttui.sync import engine

    passphrase = _passphrase()
    if passphrase is None:
        return 1
    kind, location = ("git", args.git) if args.git else ("folder", args.folder)
    try:
        print(engine.init(_paths(), kind, location, args.device, passphrase, args.passphrase_file))
    except _errors() as exc:
        return fail(f"{exc}; nothing was changed" if "nothing was changed" not in str(exc) else str(exc))
    return 0


def run_now(args: argparse.Namespace) -> int:
    from agenttui.sync import engine

    try:
        outcome = engine.sync_now(_paths(), _patterns())
    except _errors() as exc:
        return fail(str(exc))
    for line in outcome.skipped:
        warn(line)
    print(outcome.summary())
    return 0


def run_status(args: argparse.Namespace) -> int:
    from agenttui.sync import engine

    try:
        info = engine.status(_paths(), _patterns())
    except _errors() as exc:
        return fail(str(exc))
    if args.json:
        print(json_text(info, indent=2))
        return 0
    if not info["syncing"]:
        print("not syncing (agenttui sync init --git URL | --folder DIR)")
        return 0
    print(f"target: {info['target']}")
    print(f"this machine: {info['name']} ({info['device']}), last sync {info['devices'][0]['last_sync'] or 'never'}")
    for device in info["devices"][1:]:
        print(f"  {device['name']} ({device['device']}): applied up to segment {device['last_applied_segment']}, "
              f"at {device['last_sync']}")
    print(f"pending local changes: {info['pending_changes']}")
    if info["conflicts"]:
        print(f"conflicts kept ({len(info['conflicts'])}): the losing versions of items edited on two machines")
        from agenttui.sync.conflicts import conflict_line

        for conflict in info["conflicts"][-10:]:
            print(f"  {conflict_line(conflict['key'], conflict['loser'])}")
        print("  (--json shows each losing version whole)")
    return 0


def run_leave(args: argparse.Namespace) -> int:
    from agenttui.sync import engine

    try:
        print(engine.leave(_paths()))
    except _errors() as exc:
        return fail(str(exc))
    return 0
