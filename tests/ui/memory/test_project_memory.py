"""Project memory screen: edit + ctrl+s saves each file; $EDITOR round trip reloads."""

from __future__ import annotations

import contextlib
import stat
import sys

import pytest
from textual.widgets import TabbedContent, TextArea

from agenttui.ui.app import make_app
from agenttui.ui.screens.project_memory import ProjectMemoryScreen
from tests.ui.data_harness import Harness, settle


@pytest.mark.slow
async def test_edit_and_save_each_file(services):
    files = services.project.files()
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        await app.run_action("open_project_memory")
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, ProjectMemoryScreen)
        area = screen.query_one("#edit-context", TextArea)
        assert app.focused is area and area.text == ""  # a missing file is fine
        area.load_text("# Context\n\nActive focus: the audit screen\n")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Active focus: the audit screen" in files["context"].read_text()
        assert services.project.context().startswith("# Context")
        # decisions tab: secrets are redacted on the way to disk
        screen.query_one(TabbedContent).active = "tab-decisions"
        await pilot.pause()
        decisions = screen.query_one("#edit-decisions", TextArea)
        decisions.load_text("## 2026-01-01 use SQLite\nkey sk-proj-abcdefghijklmnopqrstuvwxyzABCDEFGH012345\n")
        await pilot.press("ctrl+s")
        await pilot.pause()
        saved = files["decisions"].read_text()
        assert "use SQLite" in saved and "sk-proj-abcdefghijklmnop" not in saved
        assert "sk-proj-abcdefghijklmnop" not in decisions.text  # reloaded from disk
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ProjectMemoryScreen)


class _SuspendingHost(Harness):
    """A host whose terminal 'supports' suspending (the headless driver cannot)."""

    @contextlib.contextmanager
    def suspend(self):
        yield


@pytest.mark.slow
async def test_open_in_editor_runs_editor_and_reloads(services, tmp_path, monkeypatch):
    editor = tmp_path / "fake-editor"
    editor.write_text(f"#!{sys.executable}\nimport sys\nopen(sys.argv[1], 'a').write('- added in the editor\\n')\n")
    editor.chmod(editor.stat().st_mode | stat.S_IXUSR)
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(editor))
    app = _SuspendingHost(services)
    async with app.run_test(size=(120, 36)) as pilot:
        app.push_screen(ProjectMemoryScreen(services))
        await pilot.pause()
        screen = app.screen
        screen.query_one(TabbedContent).active = "tab-learnings"
        await pilot.pause()
        learnings = screen.query_one("#edit-learnings", TextArea)
        learnings.load_text("# Learnings\n")
        learnings.focus()  # the key must work from inside the TextArea
        await pilot.press("ctrl+o")  # unsaved text is saved first, then the editor runs
        await settle(pilot, app)
        on_disk = services.project.files()["learnings"].read_text()
        assert on_disk == "# Learnings\n- added in the editor\n"
        assert screen.query_one("#edit-learnings", TextArea).text == on_disk
