"""``agenttui completion bash|zsh|fish``: a shell completion script on stdout.

Generated from the same argparse parser the commands run with, so it lists
every command, sub-command, option and choice there is. bash and zsh come
from shtab; shtab has no fish, so :mod:`agenttui.cli.fish_completion` writes
that one. Arguments that name a file (``--image PATH``, ``import FILE``) complete
file names; the others complete nothing of their own.
"""

from __future__ import annotations

import argparse
import sys

SHELLS = ("bash", "zsh", "fish")
INSTALL = {
    "bash": "agenttui completion bash > ~/.local/share/bash-completion/completions/agenttui",
    "zsh": "agenttui completion zsh > ~/.zfunc/_agenttui  (with fpath+=~/.zfunc before compinit in ~/.zshrc)",
    "fish": "agenttui completion fish > ~/.config/fish/completions/agenttui.fish",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "completion", help="print a shell completion script (bash, zsh or fish)",
        description="Print a completion script for SHELL on stdout.",
        epilog="Install: " + "; ".join(INSTALL.values()))
    parser.add_argument("shell", metavar="SHELL", choices=SHELLS, help="bash, zsh or fish")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(script(args.shell))
    return 0


def script(shell: str) -> str:
    """The completion script for ``shell`` from the full parser."""
    from agenttui.cli import build_parser

    parser = build_parser()
    _mark_files(parser)
    if shell == "fish":
        from agenttui.cli.fish_completion import fish_script

        return fish_script(parser)
    import shtab

    text = str(shtab.complete(parser, shell=shell))
    return text if text.endswith("\n") else text + "\n"


_FILE_WORDS = ("PATH", "FILE", "DIR", "ARCHIVE")


def takes_a_file(action: argparse.Action) -> bool:
    metavar = action.metavar if isinstance(action.metavar, str) else ""
    return action.nargs != 0 and any(word in metavar.upper() for word in _FILE_WORDS)


def _mark_files(parser: argparse.ArgumentParser) -> None:
    """shtab's mark for arguments that name a file (it completes nothing for unmarked ones)."""
    import shtab

    for action in parser._actions:
        if takes_a_file(action):
            action.complete = shtab.FILE  # type: ignore[attr-defined]
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                _mark_files(sub)
