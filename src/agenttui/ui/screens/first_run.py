"""First run without an API key: how to set one; memory and history still work.

Shown once per start when ``services.api_key().value`` is None. Dismissing it
leaves the main screen fully usable (memory, history, audit); only sending a
message needs the key, and the loop says so plainly if it is still missing.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

INTRO = "agenttui talks to an OpenAI-compatible endpoint and needs an API key for it."

ENV_WAY = """\
In your shell, before starting agenttui:
       export OPENAI_API_KEY=sk-...
     (a local server also needs: export OPENAI_BASE_URL=http://localhost:11434/v1)"""

KEYRING_WAYS = """\
Saved in the system keyring (it asks for the key, kept out of shell history):
       agenttui key set

Here: open Settings ({settings_key}) and paste the key; it goes to the keyring."""

NO_KEYRING = """\
Here: open Settings ({settings_key}) and paste the key. With no usable keyring
on this system it is used for this session only, unless you turn on
"Store the key in a plain file" there (mode 0600, not encrypted).

To save it in a keyring instead, run a Secret Service provider such as
gnome-keyring or KWallet, or install keyrings.alt into agenttui's own Python:
       {python} -m pip install keyrings.alt"""

OUTRO = "Until then, memory, history and the audit all work; only sending messages needs the key."


def no_keyring(problem: str | None) -> bool:
    """The lookup's problem is core.config.api_key' "no usable keyring backend" advice."""
    from agenttui.core.config.api_key import ADVICE

    return problem is not None and problem.startswith(ADVICE.split("{", 1)[0])


def explanation(settings_key: str, problem: str | None) -> str:
    """The ways to set a key that work here: without a keyring, the env var or Settings
    (session only, or the opt-in key file).

    Listing the keyring ways and then a note that they cannot work (as this
    screen did) sent a newcomer down a path that fails.
    """
    if no_keyring(problem):
        import sys

        body = f"{INTRO}\n\n  {ENV_WAY}\n\n{NO_KEYRING.format(python=sys.executable, settings_key=settings_key)}"
    else:
        ways = [ENV_WAY, *KEYRING_WAYS.format(settings_key=settings_key).split("\n\n")]
        numbered = "\n\n".join(f"  {i}. {way}" for i, way in enumerate(ways, 1))
        body = f"{INTRO}\nSet one in any of these ways:\n\n{numbered}"
        if problem:
            body += f"\n\nNote: {problem}"
    return f"{body}\n\n{OUTRO}"


class FirstRunScreen(ModalScreen[str]):
    """Dismisses with "settings" (open the settings dialog) or "later"."""

    DEFAULT_CSS = """
    FirstRunScreen { align: center middle; }
    FirstRunScreen #first-run {
        width: 90%; max-width: 90; height: auto; max-height: 100%;
        border: thick $primary; background: $surface; padding: 0 2;
    }
    FirstRunScreen #first-run-title { text-style: bold; margin: 1 0; }
    /* The text scrolls; the buttons stay on screen, even at 80x24. */
    FirstRunScreen #first-run-body { height: auto; max-height: 60vh; }
    FirstRunScreen #first-run-buttons { height: auto; align-horizontal: right; margin-top: 1; }
    FirstRunScreen Button { margin-left: 2; }
    """
    BINDINGS = [Binding("escape", "later", "Later", id="first_run.dismiss")]

    def __init__(self, settings_key: str = "f9", problem: str | None = None) -> None:
        super().__init__()
        self.settings_key = settings_key
        self.problem = problem
        self._no_keyring = no_keyring(problem)

    def compose(self) -> ComposeResult:
        with Vertical(id="first-run"):
            yield Static(Content("Welcome to agenttui — no API key is configured"), id="first-run-title")
            with VerticalScroll(id="first-run-body"):
                yield Static(Content(explanation(self.settings_key, self.problem)), id="first-run-text")
            with Horizontal(id="first-run-buttons"):
                # also without a keyring: Settings keeps a typed key for the session
                yield Button("Open settings", id="settings", variant="primary")
                yield Button("Later", id="later")

    def on_mount(self) -> None:
        # Enter presses the button drawn as the default (it pressed "Later"); Esc is "Later"
        self.query_one("#settings", Button).focus()

    @on(Button.Pressed, "#settings")
    def _settings(self) -> None:
        self.dismiss("settings")

    @on(Button.Pressed, "#later")
    def action_later(self) -> None:
        self.dismiss("later")
