"""Command line entry point: ``agenttui [--profile NAME] [COMMAND …]``.

Each command group lives in its own module exposing ``register(subparsers)``;
modules import only the standard library at top level so that building the
parser costs nothing and the UI's first frame is not delayed. With no command,
the Textual app starts (imported lazily).

Exit codes (SPEC §9): 0 ok, 1 refused/failed (message on stderr), 2 usage.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from agenttui import __version__

COMMAND_MODULES = ("ask", "memory", "history", "profile", "backup", "key", "paths", "doctor")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agenttui",
        description="Chat with a personal AI agent that remembers you.",
    )
    parser.add_argument("--version", action="version", version=f"agenttui {__version__}")
    parser.add_argument("--profile", metavar="NAME", default=None,
                        help="use this profile instead of the one bound to the current directory")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"agenttui.cli.{name}_cmd")
        except ModuleNotFoundError as exc:  # a command group not built yet
            if exc.name != f"agenttui.cli.{name}_cmd":
                raise
            continue
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        from agenttui.cli.tui import run_tui

        return run_tui(args)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
