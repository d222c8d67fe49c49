"""Start the Textual app (everything heavy is imported here, not before)."""

from __future__ import annotations


def run_tui(args) -> int:
    """``args.profile``: the --profile value or None. Failures before the app
    runs (an unknown profile, an unreadable data dir) follow the CLI's error
    policy; once it runs, :mod:`agenttui.ui.error_policy` does."""
    import gc
    import os

    from agenttui.cli.early_keys import keys_kept_as_typed

    # shutil.get_terminal_size (Textual's driver, at start and on every SIGWINCH) and Rich's
    # console take COLUMNS / LINES over the terminal's own size: exported ones (COLUMNS=30 in
    # a shell profile) drew the app in a corner, and kept it there after a resize. The real
    # size wins; tools the app runs ask their terminal themselves.
    for name in ("COLUMNS", "LINES"):
        os.environ.pop(name, None)

    with keys_kept_as_typed() as early:  # first thing: an Enter typed during start-up stays Enter
        gc.disable()  # until the panes are up (ui/startup.py, step 0): before Textual is imported
        from agenttui.ui import suspend
        from agenttui.ui.app import run_app

        suspend.remember_terminal_modes(early.modes)  # what a ctrl+z hands the shell back

        try:
            return run_app(profile=args.profile, typed_before=early.text)
        except Exception as exc:  # noqa: BLE001 -- a sentence, or a crash log
            from agenttui.cli.common import report_failure

            return report_failure(exc, ["tui"])
