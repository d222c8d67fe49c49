"""Project memory editor (docs/memory.md#project-memory): context.md, decisions.md, learnings.md.

One tab per file with a ``TextArea``; ``ctrl+s`` saves the visible tab, and
``ctrl+o`` opens it in ``$EDITOR`` (``App.suspend()`` hands the terminal
over; the tab is reloaded afterwards). Missing files are fine: they
show empty and are created on the first save.

Reads and writes are the core's (``ProjectMemory.read`` / ``rewrite``):
locked, atomic and redacted like every other project-memory write; the two
logs are replaced whole, since the user is editing the whole file here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Static, TabbedContent, TabPane, TextArea

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

FILES = (("context", "context.md"), ("decisions", "decisions.md"), ("learnings", "learnings.md"))


class ProjectMemoryScreen(Screen[bool]):
    CSS_PATH = "project_memory.tcss"
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="project.save"),
        Binding("ctrl+o", "open_editor", "Open in $EDITOR", id="project.editor"),
        Binding("escape", "close", "Close", id="project.close"),
    ]

    def __init__(self, services: Services) -> None:
        super().__init__()
        self.services = services
        self.saved: dict[str, str] = {}
        self.changed = False

    @property
    def project(self):
        return self.services.project

    def compose(self) -> ComposeResult:
        yield Static(Text(f"Project memory — profile '{self.services.profile_name}'", style="bold"),
                     id="project-title")
        with TabbedContent(id="project-tabs"):
            for name, filename in FILES:
                with TabPane(filename, id=f"tab-{name}"):
                    yield TextArea(id=f"edit-{name}", language="markdown", soft_wrap=True)
        yield Static(id="project-status")
        yield Footer()

    def on_mount(self) -> None:
        for name, _ in FILES:
            self._load(name)
        self.current_area().focus()

    def path(self, name: str):
        return self.project.files()[name]

    def _load(self, name: str) -> None:
        text = self.project.read(name)
        self.saved[name] = text
        self.query_one(f"#edit-{name}", TextArea).load_text(text)
        self._status(name)

    def current_name(self) -> str:
        active = self.query_one(TabbedContent).active or "tab-context"
        return active.removeprefix("tab-")

    def current_area(self) -> TextArea:
        return self.query_one(f"#edit-{self.current_name()}", TextArea)

    def _status(self, name: str | None = None) -> None:
        name = name or self.current_name()
        area = self.query_one(f"#edit-{name}", TextArea)
        dirty = area.text != self.saved.get(name, "")
        self.query_one("#project-status", Static).update(Text(
            f"{self.path(name)}{'  (modified — ctrl+s saves)' if dirty else ''}"))

    @on(TextArea.Changed)
    @on(TabbedContent.TabActivated)
    def _changed(self) -> None:
        self._status()

    def action_save(self) -> None:
        name = self.current_name()
        text = self.current_area().text
        try:
            self.write(name, text)
        except OSError as exc:
            self.notify(str(exc), title="Not saved", severity="error")
            return
        self._load(name)  # shows what is on disk (redacted)
        self.changed = True
        self.notify(f"Saved {self.path(name).name}", title="Project memory")

    def write(self, name: str, text: str) -> None:
        self.project.rewrite(name, text)

    def action_open_editor(self) -> None:
        name = self.current_name()
        area = self.current_area()
        if area.text != self.saved.get(name, ""):
            self.action_save()  # the editor must see what is on screen
        path = self.path(name)
        if not path.exists():
            self.write(name, "")
        from agenttui.ui.external_editor import run_editor

        problem = run_editor(self.app, path)
        if problem is not None:
            self.notify(problem, title="$EDITOR", severity="error")
        self._load(name)  # what the editor saved, whatever its exit status

    def action_close(self) -> None:
        dirty = [n for n, _ in FILES if self.query_one(f"#edit-{n}", TextArea).text != self.saved[n]]
        if dirty:
            from agenttui.ui.screens.confirm import ConfirmScreen

            def done(confirmed: bool | None) -> None:
                if confirmed:
                    self.dismiss(self.changed)

            self.app.push_screen(ConfirmScreen(
                "Discard changes?", f"Unsaved edits in: {', '.join(n + '.md' for n in dirty)}.",
                confirm_label="Discard"), done)
            return
        self.dismiss(self.changed)
