"""``agenttui profile list|create|delete`` (docs/architecture.md#profiles)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from agenttui.cli.common import add_yes, backup_first, confirm_destructive, fail, paths, warn


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("profile", help="list, create and delete profiles")
    sub = parser.add_subparsers(dest="profile_command", metavar="ACTION", required=True)

    listing = sub.add_parser("list", help="list profiles (* = the one used here)")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    listing.set_defaults(handler=run_list)

    create = sub.add_parser("create", help="create a profile, optionally bound to a directory")
    create.add_argument("name")
    create.add_argument("--path", metavar="DIR", type=Path, default=None,
                        help="bind the profile to this project directory")
    create.set_defaults(handler=run_create)

    delete = sub.add_parser("delete", help="move a profile's data to the trash (backs up first)")
    delete.add_argument("name")
    add_yes(delete)
    delete.set_defaults(handler=run_delete)


def _store():
    from agenttui.core.config.profiles import ProfileStore

    return ProfileStore(paths())


def run_list(args: argparse.Namespace) -> int:
    from agenttui.core.config.profiles import ProfileError

    store = _store()
    try:
        active = store.resolve(Path.cwd(), args.profile).name
    except ProfileError as exc:
        return fail(str(exc))
    profiles = store.list()
    for message in store.problems + store.warnings:
        warn(message)
    if args.json:
        print(json.dumps([{"name": p.name, "active": p.name == active,
                           "paths": [str(d) for d in p.paths], "model": p.model}
                          for p in profiles], indent=2))
        return 0
    for profile in profiles:
        mark = "*" if profile.name == active else " "
        bound = "  " + ", ".join(str(d) for d in profile.paths) if profile.paths else ""
        print(f"{mark} {profile.name}{bound}")
    return 0


def run_create(args: argparse.Namespace) -> int:
    from agenttui.core.config.paths import InvalidProfileName
    from agenttui.core.config.profiles import ProfileError

    try:
        profile = _store().create(args.name, bind=args.path)
    except (ProfileError, InvalidProfileName) as exc:
        return fail(str(exc))
    where = f" (bound to {profile.paths[0]})" if profile.paths else ""
    print(f"created profile {profile.name}{where}")
    return 0


def run_delete(args: argparse.Namespace) -> int:
    from agenttui.core.config.paths import InvalidProfileName
    from agenttui.core.config.profiles import ProfileError, refuse_if_in_use

    store = _store()
    try:
        directory = store.paths.profile_dir(args.name)
    except InvalidProfileName as exc:
        return fail(str(exc))
    if not directory.is_dir():
        return fail(f"no profile named {args.name!r} with data to delete; "
                    f"profiles: {', '.join(store.names())}")
    try:
        refuse_if_in_use(args.name, directory)  # before the question and the backup, not after
    except ProfileError as exc:
        return fail(str(exc))
    action = f"delete profile {args.name!r} (its history, memory and project files)"
    if not confirm_destructive(args, action, word=args.name):
        return 1
    if backup_first(f"deleting profile {args.name!r}") is None:
        return 1
    try:
        trashed = store.delete(args.name)
    except ProfileError as exc:
        return fail(str(exc))
    print(f"profile {args.name} moved to the trash: {trashed}")
    if args.name == "default":
        print("the default profile starts again empty the next time it is used")
    return 0
