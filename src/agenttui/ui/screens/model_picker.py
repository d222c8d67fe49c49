"""``/model`` without a name: pick this conversation's model.

The configured models are listed at once (the one in use marked); the endpoint's
``/models`` follow when listed (:mod:`agenttui.agent.model_choices`: in a thread,
cached), or a line says why they are not (a gateway without the list: type
``/model NAME``). Enter picks the highlighted model, Escape keeps the current one.
Model names come from the server: they are shown through :func:`inert_line`.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from agenttui.ui.inert import inert_line
from agenttui.ui.screens.answer_once import dismiss_once

NAME_CHARS = 120


class ModelPickerScreen(ModalScreen[str | None]):
    """Dismisses with the chosen model's name, or None."""

    DEFAULT_CSS = """
    ModelPickerScreen { align: center middle; background: $background 60%; }
    ModelPickerScreen #model-dialog { width: 64; max-width: 95%; height: auto; max-height: 90%;
                                      border: thick $primary; background: $surface; padding: 1 2; }
    ModelPickerScreen #model-title { margin-bottom: 1; }
    ModelPickerScreen #model-options { height: auto; max-height: 16; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="model_picker.cancel")]

    class _Listed(Message):
        def __init__(self, models: list[str], error: str | None) -> None:
            super().__init__()
            self.models, self.error = models, error

    def __init__(self, configured: list[str], current: str, base_url: str | None,
                 api_key: Callable[[], str | None]) -> None:
        super().__init__()
        self.configured = configured
        self.current = current
        self.base_url = base_url
        self._api_key = api_key
        self.models: list[str] = []  # what the list shows, in order

    def compose(self) -> ComposeResult:
        with Vertical(id="model-dialog"):
            yield Static(Text("Model for this conversation", style="bold"), id="model-title")
            yield OptionList(id="model-options")
            yield Static("", id="model-list-status")
            yield Static(Text("Enter uses the highlighted model for this conversation (new ones use "
                              "the default). Escape keeps the current one.", style="dim"))

    def on_mount(self) -> None:
        self._show(self.configured)
        options = self.query_one(OptionList)
        options.focus()
        self._status(f"listing the models of {self.base_url or 'the OpenAI API'}…")
        self._list()

    def _status(self, text: str) -> None:
        self.query_one("#model-list-status", Static).update(Text(text, style="dim"))

    def _show(self, models: list[str]) -> None:
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        kept = self.models[highlighted] if highlighted is not None and highlighted < len(self.models) else None
        self.models = models
        options.clear_options()
        options.add_options(Option(Text(inert_line(name, NAME_CHARS) + ("  (in use)" if name == self.current
                                                                         else "")), id=f"model-{i}")
                            for i, name in enumerate(models))
        # the highlight stays where the user put it; first, the model in use
        want = kept if kept in models else self.current
        options.highlighted = models.index(want) if want in models else (0 if models else None)

    @work(thread=True, exclusive=True, group="model-picker")
    def _list(self) -> None:
        from agenttui.agent.model_choices import listed_models
        from agenttui.agent.model_list import ModelListError

        key = self._api_key()  # the keyring may block (D-Bus): here, in the thread
        if not key:
            self.post_message(self._Listed([], "No API key"))
            return
        try:
            self.post_message(self._Listed(listed_models(self.base_url, key), None))
        except ModelListError as exc:
            self.post_message(self._Listed([], str(exc)))

    @on(_Listed)
    def _listed(self, message: _Listed) -> None:
        from agenttui.agent.model_choices import ordered

        where = self.base_url or "the OpenAI API"
        if message.error:
            first = message.error.split(". ")[0].rstrip(".")  # the rest is chat-turn advice
            self._status(f"Could not list models: {first}. Type /model NAME for another.")
            return
        self._show(ordered(self.configured, message.models))
        self._status(f"{len(message.models)} model(s) listed by {where}; configured ones first.")

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        dismiss_once(self, self.models[event.option_index])

    def action_cancel(self) -> None:
        dismiss_once(self, None)
