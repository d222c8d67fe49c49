"""Start the Textual app (everything heavy is imported here, not before)."""

from __future__ import annotations


def run_tui(args) -> int:
    """``args.profile``: the --profile value or None."""
    from agenttui.ui.app import run_app

    return run_app(profile=args.profile)
