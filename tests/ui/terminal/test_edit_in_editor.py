"""alt+e and /edit: the draft written in the user's editor, in the real command in a pseudo-terminal.

The editor is a script that records where its file is and what it held, then
rewrites it. The app must hand the terminal over (Textual's suspend), take the
edited text back into the prompt unsent, and leave no file behind; the draft's
file is private (0600, in a 0700 directory under ``$XDG_RUNTIME_DIR``).
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from tests.ui.terminal.pty_app import PtyApp

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")

EDITOR = """#!{python}
import json, os, stat, sys
path = sys.argv[1]
seen = {{"path": path, "text": open(path, encoding="utf-8").read(),
         "file_mode": stat.S_IMODE(os.stat(path).st_mode),
         "dir_mode": stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode)}}
open({record!r}, "w").write(json.dumps(seen))
open(path, "w", encoding="utf-8").write({new_text!r})
sys.exit({status})
"""


def _editor(tmp_path: Path, new_text: str, status: int = 0) -> tuple[Path, Path]:
    record = tmp_path / "seen.json"
    script = tmp_path / "editor.py"
    script.write_text(EDITOR.format(python=sys.executable, record=str(record), new_text=new_text, status=status))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script, record


def _env(tmp_path: Path, editor: Path) -> dict[str, str]:
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700, exist_ok=True)
    env = dict(os.environ, TERM="xterm-256color", OPENAI_API_KEY="sk-test-not-used",
               OPENAI_BASE_URL="http://127.0.0.1:9/v1", EDITOR=str(editor), XDG_RUNTIME_DIR=str(runtime))
    env.pop("VISUAL", None)
    return env


def _ready(app: PtyApp) -> None:
    """The real panes are up (the first frame's prompt takes typing, not commands)."""
    app.wait_for(lambda: "0 conversations" in app.text() and "Message…" in app.text())


@pytest.mark.slow
def test_alt_e_edits_the_draft_in_the_editor_and_brings_it_back_unsent(isolated_home, tmp_path):
    editor, record = _editor(tmp_path, "the draft, rewritten in vi\nwith a second line\n")
    app = PtyApp(_env(tmp_path, editor), (100, 30))
    try:
        _ready(app)
        app.write(b"a rough draft")
        app.wait_for(lambda: "a rough draft" in app.text())
        app.write(b"\x1be")  # alt+e, as a terminal sends it
        app.wait_for(lambda: "the draft, rewritten in vi" in app.text() and "with a second line" in app.text())
        seen = json.loads(record.read_text())
        assert seen["text"] == "a rough draft"
        assert seen["file_mode"] == 0o600 and seen["dir_mode"] == 0o700
        assert Path(seen["path"]).parent.parent == tmp_path / "runtime"
        assert not Path(seen["path"]).parent.exists()  # removed once the editor exited
        app.write(b" and typed on")  # the prompt has the keys again, the text is not sent
        app.wait_for(lambda: "with a second line and typed on" in app.text())
    finally:
        app.close()


@pytest.mark.slow
def test_an_editor_quitting_with_an_error_leaves_the_prompt_as_it_was(isolated_home, tmp_path):
    editor, record = _editor(tmp_path, "changes to drop", status=1)  # vi's :cq
    app = PtyApp(_env(tmp_path, editor), (100, 30))
    try:
        _ready(app)
        app.write(b"/edit start from this\r")
        app.wait_for(lambda: "exited with status 1" in app.text())
        assert json.loads(record.read_text())["text"] == "start from this"
        assert "changes to drop" not in app.text()
        assert not Path(json.loads(record.read_text())["path"]).parent.exists()
    finally:
        app.close()
