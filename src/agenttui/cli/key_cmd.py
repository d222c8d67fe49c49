"""``agenttui key set|delete``: the API key in the OS keyring, or opted in, a 0600 file
(docs/security.md#the-api-key).

The key is read from a hidden prompt on a terminal, or from stdin when piped
(``pass show openai | agenttui key set``) -- never from argv, where it would
land in shell history and ``ps`` output.

``--this-profile`` stores the key for the active profile only (a project on
OpenRouter, another on a local server); lookups try the profile's key first,
then the shared one. OPENAI_API_KEY in the environment wins over both.

``--file`` is the explicit opt-in for systems without a keyring (as the
Settings dialog's switch): the key goes to ``<config
dir>/api_key``, one line, mode 0600, not encrypted (:mod:`agenttui.core.config.key_file`);
it is shared by all profiles, so it does not combine with ``--this-profile``.
The lookup order is OPENAI_API_KEY, the keyring, then that file. Without a
keyring and without ``--file``, ``set`` fails and names both ways out.
"""

from __future__ import annotations

import argparse
import sys

from agenttui.cli.common import add_yes, confirm_destructive, fail, stdin_is_tty


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("key", help="store or remove the API key in the OS keyring (or a 0600 file)")
    sub = parser.add_subparsers(dest="key_command", metavar="ACTION", required=True)
    setter = sub.add_parser("set", help="store the API key (prompted, or read from stdin)")
    setter.set_defaults(handler=run_set)
    delete = sub.add_parser("delete", help="remove the stored API key")
    add_yes(delete)
    delete.set_defaults(handler=run_delete)
    for action in (setter, delete):
        scope = action.add_mutually_exclusive_group()
        scope.add_argument("--this-profile", action="store_true",
                           help="only for the active profile (--profile NAME, or the one bound to this directory)")
        scope.add_argument("--file", action="store_true",
                           help="the plain file <config dir>/api_key (mode 0600, NOT encrypted) instead of the "
                                "keyring: for systems without one")


def _target_profile(args: argparse.Namespace) -> str | None:
    """The profile whose key to touch, or None for the shared key."""
    if not args.this_profile:
        return None
    from pathlib import Path

    from agenttui.core.config.paths import Paths
    from agenttui.core.config.profiles import ProfileStore

    return ProfileStore(Paths.from_env()).resolve(Path.cwd(), args.profile).name


def _read_key() -> str:
    if stdin_is_tty():
        import getpass

        return getpass.getpass("API key (input hidden): ")
    return sys.stdin.readline()


def _key_file():
    from agenttui.core.config.key_file import key_file_path
    from agenttui.core.config.paths import Paths

    return key_file_path(Paths.from_env().config_dir)


FILE_WAY_OUT = ("\n  - or, without a keyring, store it in a plain file readable only by you "
                "(mode 0600, not encrypted): agenttui key set --file")


def run_set(args: argparse.Namespace) -> int:
    from agenttui.core.config.api_key import SecretsError, keyring_status, set_api_key

    if args.file:
        return _set_file()
    ok, _backend, advice = keyring_status()
    if not ok:  # say so before asking for the key
        return fail(advice + FILE_WAY_OUT)
    value = _given_key()
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


def _given_key() -> str:
    """The key typed at the prompt or piped on stdin, stripped; "" when none came."""
    try:
        return _read_key().strip()
    except EOFError:
        return ""


def _set_file() -> int:
    from agenttui.core.config.api_key import get_api_key
    from agenttui.core.config.key_file import KeyFileError, write_key_file

    value = _given_key()
    if not value:
        return fail("no key given (type it at the prompt, or pipe it on stdin)")
    path = _key_file()
    try:
        write_key_file(path, value)
    except KeyFileError as exc:
        return fail(str(exc))
    print(f"API key stored in {path} (mode 0600, not encrypted: any program running as you can read it)")
    import os

    if os.environ.get("OPENAI_API_KEY"):
        print("note: OPENAI_API_KEY is set in this environment and takes precedence")
    elif get_api_key({}).source == "keyring":
        print("note: a key stored in the keyring takes precedence over the file")
    return 0


def _delete_file(args: argparse.Namespace) -> int:
    from agenttui.core.config.key_file import KeyFileError, delete_key_file

    path = _key_file()
    if not path.exists():
        return fail(f"there is no key file ({path})")
    if not confirm_destructive(args, f"delete the API key file {path}"):
        return 1
    try:
        delete_key_file(path)
    except KeyFileError as exc:
        return fail(str(exc))
    print(f"API key file {path} removed")
    return 0


def run_delete(args: argparse.Namespace) -> int:
    from agenttui.core.config.api_key import SecretsError, delete_api_key, keyring_status

    if args.file:
        return _delete_file(args)
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
