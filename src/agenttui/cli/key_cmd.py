"""``agenttui key set|delete``: the API key in the OS keyring (S3).

The key is read from a hidden prompt on a terminal, or from stdin when piped
(``pass show openai | agenttui key set``) -- never from argv, where it would
land in shell history and ``ps`` output.

``--this-profile`` stores the key for the active profile only (a project on
OpenRouter, another on a local server); lookups try the profile's key first,
then the shared one. OPENAI_API_KEY in the environment wins over both.
"""

from __future__ import annotations

import argparse
import sys

from agenttui.cli.common import add_yes, confirm_destructive, fail, stdin_is_tty


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("key", help="store or remove the API key in the OS keyring")
    sub = parser.add_subparsers(dest="key_command", metavar="ACTION", required=True)
    setter = sub.add_parser("set", help="store the API key (prompted, or read from stdin)")
    setter.set_defaults(handler=run_set)
    delete = sub.add_parser("delete", help="remove the stored API key")
    add_yes(delete)
    delete.set_defaults(handler=run_delete)
    for action in (setter, delete):
        action.add_argument("--this-profile", action="store_true",
                            help="only for the active profile (--profile NAME, or the one bound to this directory)")


def _target_profile(args: argparse.Namespace) -> str | None:
    """The profile whose key to touch, or None for the shared key."""
    if not args.this_profile:
        return None
    from pathlib import Path

    from agenttui.core.paths import Paths
    from agenttui.core.profiles import ProfileStore

    return ProfileStore(Paths.from_env()).resolve(Path.cwd(), args.profile).name


def _read_key() -> str:
    if stdin_is_tty():
        import getpass

        return getpass.getpass("API key (input hidden): ")
    return sys.stdin.readline()


def run_set(args: argparse.Namespace) -> int:
    from agenttui.core.secrets import SecretsError, keyring_status, set_api_key

    ok, _backend, advice = keyring_status()
    if not ok:  # say so before asking for the key
        return fail(advice)
    try:
        value = _read_key().strip()
    except EOFError:
        value = ""
    if not value:
        return fail("no key given (type it at the prompt, or pipe it on stdin)")
    try:
        profile = _target_profile(args)
        set_api_key(value, profile=profile)
    except (SecretsError, LookupError, ValueError) as exc:
        return fail(str(exc))
    scope = f"for profile {profile!r}" if profile else "for all profiles"
    print(f"API key stored in the keyring ({_backend}) {scope}")
    import os

    if os.environ.get("OPENAI_API_KEY"):
        print("note: OPENAI_API_KEY is set in this environment and takes precedence")
    return 0


def run_delete(args: argparse.Namespace) -> int:
    from agenttui.core.secrets import SecretsError, delete_api_key, keyring_status

    ok, _backend, advice = keyring_status()
    if not ok:
        return fail(advice)
    try:
        profile = _target_profile(args)
    except (LookupError, ValueError) as exc:
        return fail(str(exc))
    which = f"profile {profile!r}'s API key" if profile else "the API key"
    if not confirm_destructive(args, f"delete {which} stored in the keyring"):
        return 1
    try:
        removed = delete_api_key(profile=profile)
    except SecretsError as exc:
        return fail(str(exc))
    if not removed:
        return fail("no API key is stored in the keyring")
    print("API key removed from the keyring")
    return 0
