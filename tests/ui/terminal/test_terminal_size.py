"""The real terminal's size wins over exported COLUMNS / LINES, at start and after a resize
(``COLUMNS=30 LINES=5`` left in the environment drew the app in a 30x5 corner)."""

from __future__ import annotations

import os

import pytest

from tests.ui.terminal.pty_app import PtyApp

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")


def test_exported_columns_and_lines_do_not_shrink_the_app(isolated_home):
    env = dict(os.environ, COLUMNS="30", LINES="5", TERM="xterm-256color")
    app = PtyApp(env, (100, 30))
    try:
        # the first-run dialog (no key) and the panes fill the real terminal
        app.wait_for(lambda: app.used_extent()[0] > 80 and app.used_extent()[1] > 20)
        app.resize(120, 40)
        app.wait_for(lambda: app.used_extent()[0] > 100 and app.used_extent()[1] > 30)
    finally:
        app.close()
