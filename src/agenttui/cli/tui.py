"""Start the Textual app (everything heavy is imported here, not before)."""

from __future__ import annotations

import sys


def run_tui(args) -> int:
    """``args.profile``: the --profile value or None."""
    try:
        from agenttui.ui.app import run_app
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("agenttui.ui"):
            print("agenttui: the terminal UI is not available in this build", file=sys.stderr)
            return 1
        raise
    return run_app(profile=args.profile)
