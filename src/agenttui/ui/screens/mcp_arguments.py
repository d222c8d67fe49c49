"""The arguments of an MCP prompt, or the variables of a resource template (``/mcp``).

One input per argument, under its name, "required" or "optional", and the
server's description of it (all shown inert: it is the server's text). Enter
moves to the next input and, on the last, inserts; Esc cancels. A required
argument left empty is said and focused, nothing is sent; an optional one
left empty is not sent at all (the server's default applies).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from agenttui.ui.escape_then_key import Handover
from agenttui.ui.inert import inert_line
from agenttui.ui.screens.answer_once import dismiss_once
from agenttui.ui.widgets.dialog_input import DialogInput


@dataclass(frozen=True)
class ArgumentField:
    name: str
    description: str = ""
    required: bool = False


class McpArgumentsScreen(ModalScreen[dict[str, str] | None]):
    DEFAULT_CSS = """
    McpArgumentsScreen { align: center middle; }
    McpArgumentsScreen > Vertical { width: 80; max-width: 95%; height: auto; max-height: 85%;
                                    border: round $accent; background: $surface; padding: 0 1; }
    McpArgumentsScreen #fields { height: auto; max-height: 30; }
    McpArgumentsScreen .arg-name { text-style: bold; margin-top: 1; }
    McpArgumentsScreen .arg-help { color: $text-muted; }
    McpArgumentsScreen #buttons { height: auto; margin-top: 1; align-horizontal: right; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, fields: list[ArgumentField], about: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.about = about
        self.fields = fields
        self._handover = Handover()

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content.assemble((inert_line(self.title_text, 76), "bold")), id="arg-title")
            if self.about:
                yield Static(Content(inert_line(self.about, 300)), classes="arg-help")
            with VerticalScroll(id="fields"):
                for n, field in enumerate(self.fields):
                    need = "required" if field.required else "optional"
                    yield Static(Content.assemble((inert_line(field.name, 60), "bold"), f"  ({need})"),
                                 classes="arg-name")
                    if field.description:
                        yield Static(Content(inert_line(field.description, 300)), classes="arg-help")
                    yield DialogInput(id=f"arg-{n}", placeholder=field.name if field.required else "(empty: leave out)")
            with Horizontal(id="buttons"):
                yield Button("Insert", id="submit", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        if self.fields:
            self.query_one("#arg-0", Input).focus()

    @on(Input.Submitted)
    def _next(self, event: Input.Submitted) -> None:
        n = int((event.input.id or "arg-0").split("-")[1])
        if n + 1 < len(self.fields):
            self.query_one(f"#arg-{n + 1}", Input).focus()
        else:
            self._submit()

    @on(Button.Pressed, "#submit")
    def _submit(self) -> None:
        values: dict[str, str] = {}
        for n, field in enumerate(self.fields):
            box = self.query_one(f"#arg-{n}", Input)
            if box.value:
                values[field.name] = box.value
            elif field.required:
                self.notify(f"'{inert_line(field.name, 60)}' is required.", title="MCP", severity="warning")
                box.focus()
                return
        self.dismiss(values)

    def on_key(self, event: events.Key) -> None:
        # Esc and the next key typed at once reach us as one alt+key (escape_then_key.py)
        self._handover.on_key(self.app, event, self.action_cancel)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        dismiss_once(self, None)
