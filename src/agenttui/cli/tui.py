"""Start the Textual app (everything heavy is imported here, not before)."""

from __future__ import annotations


def run_tui(args) -> int:
    """``args.profile``: the --profile value or None. Failures before the app
    runs (an unknown profile, an unreadable data dir) follow the CLI's error
    policy; once it runs, :mod:`agenttui.ui.error_policy` does."""
    import gc

    from agenttui.cli.early_keys import keys_kept_as_typed

    with keys_kept_as_typed() as early:  # first thing: an Enter typed during start-up stays Enter
        gc.disable()  # until the panes are up (ui/startup.py, step 0): before Textual is imported
        from agenttui.ui.app import run_app

        try:
            return run_app(profile=args.profile, typed_before=early.text)
        except Exception as exc:  # noqa: BLE001 -- a sentence, or a crash log
            from agenttui.cli.common import report_failure

            return report_failure(exc, ["tui"])
