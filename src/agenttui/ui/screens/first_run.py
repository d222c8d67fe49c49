"""First run without an API key (U6): how to set one; memory and history still work.

Shown once per start when ``services.api_key().value`` is None. Dismissing it
leaves the main screen fully usable (memory, history, audit); only sending a
message needs the key, and the loop says so plainly if it is still missing.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

EXPLANATION = """\
agenttui talks to an OpenAI-compatible endpoint and needs an API key for it.
Set one in any of these ways:

  1. In your shell, before starting agenttui:
       export OPENAI_API_KEY=sk-...
     (for a local server also: export OPENAI_BASE_URL=http://localhost:11434/v1)

  2. Saved in the system keyring (read from a prompt, never from argv):
       agenttui key set

  3. Here: open Settings ({settings_key}) and paste the key; it goes to the keyring.

Until then, memory, history and the audit all work; only sending messages needs the key.\
"""


class FirstRunScreen(ModalScreen[str]):
    """Dismisses with "settings" (open the settings dialog) or "later"."""

    DEFAULT_CSS = """
    FirstRunScreen { align: center middle; }
    FirstRunScreen #first-run {
        width: 90%; max-width: 90; height: auto; max-height: 95%;
        border: thick $primary; background: $surface; padding: 1 2;
    }
    FirstRunScreen #first-run-title { text-style: bold; margin-bottom: 1; }
    FirstRunScreen #first-run-buttons { height: auto; align-horizontal: right; margin-top: 1; }
    FirstRunScreen Button { margin-left: 2; }
    """
    BINDINGS = [Binding("escape", "later", "Later", id="first_run.dismiss")]

    def __init__(self, settings_key: str = "f9", problem: str | None = None) -> None:
        super().__init__()
        self.settings_key = settings_key
        self.problem = problem

    def compose(self) -> ComposeResult:
        with Vertical(id="first-run"):
            yield Static(Content("Welcome to agenttui — no API key is configured"), id="first-run-title")
            text = EXPLANATION.format(settings_key=self.settings_key)
            if self.problem:
                text += f"\n\nNote: {self.problem}"
            yield Static(Content(text), id="first-run-text")
            with Horizontal(id="first-run-buttons"):
                yield Button("Open settings", id="settings", variant="primary")
                yield Button("Later", id="later")

    def on_mount(self) -> None:
        self.query_one("#later", Button).focus()

    @on(Button.Pressed, "#settings")
    def _settings(self) -> None:
        self.dismiss("settings")

    @on(Button.Pressed, "#later")
    def action_later(self) -> None:
        self.dismiss("later")
