"""The settings dialog: model, endpoint, API key, theme, and every other simple key.

Decisions:

* Below the endpoint block, the form is **built from the config schema**
  (:mod:`agenttui.core.config.schema`): one field per key that is a number,
  a switch, a choice or a short text, labelled with the key and its meaning
  from the schema, grouped by section. Numbers are checked against the same
  ranges as config.toml: an out-of-range value marks its field and Save
  refuses, naming the key, the value and the allowed range (nothing is
  written). Lists and key bindings are edited in config.toml.
* **At the top** what a newcomer looks for: the model, with
  a picker filled from the endpoint's ``/models`` (listed in a worker when the
  dialog opens and again when the base URL or key field is left; a gateway
  without the list says so and the name is typed), the endpoint and key, your
  name, the temperature and the system prompt (the soul, a text area; empty
  restores the default). Save and Cancel sit below the scrolling form, always
  on screen.

* Edits go to the **global** settings (``services.base_settings``) and are
  written with ``core.config.file.save_settings`` -- only what differs from the
  defaults, never a secret. A profile's own overrides still win for that
  profile, and the dialog says so when one is active.
* The **API key** never goes near config.toml: a non-empty password field is
  handed to ``core.config.api_key.set_api_key`` (the OS keyring). Without a usable
  keyring backend the typed key is **used for this session**
  (``services.session_api_key``: the next turn finds it, nothing is written),
  and a switch, off by default and labelled with the file's path and what it
  means, stores it instead in ``<config dir>/api_key`` (mode 0600, not
  encrypted; :mod:`agenttui.core.config.key_file`). When that file exists the switch
  is shown on; turning it off and saving removes the file. Everything else is
  saved either way.
* **Applied live**: after a save the services reload their settings and the
  app switches theme; the next turn uses the new model and memory options.
* Saving runs in a thread worker (keyring backends can block on D-Bus).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.validation import ValidationResult, Validator
from textual.widgets import Button, Input, Label, Select, Static, Switch, TextArea

from agenttui.ui.escape_then_key import Handover
from agenttui.ui.screens.answer_once import dismiss_once
from agenttui.ui.widgets.dialog_input import DialogInput

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

TOP_KEYS = ("user_name", "temperature")  # shown under the endpoint, not in "General"
SECTION_TITLES = {None: "General", "memory": "Memory", "history": "History", "recall": "Recall",
                  "agent": "Agent", "redaction": "Redaction", "sync": "Sync"}


def form_keys() -> list:
    """The schema keys this dialog edits: simple values marked ``in_form``."""
    from agenttui.core.config.schema import choices, plain_type, schema_keys

    simple = (bool, int, float, str)
    return [k for k in schema_keys() if k.spec is not None and k.spec.in_form
            and (plain_type(k.hint) in simple or choices(k.hint))]


def field_id(key) -> str:
    return "set-" + key.path.replace(".", "-")


class InRange(Validator):
    """The schema's type and range for one key, shown as the field is typed in."""

    def __init__(self, key) -> None:
        super().__init__()
        self.key = key

    def validate(self, value: str) -> ValidationResult:
        from agenttui.core.config.schema import check_value, optional

        if not value.strip() and optional(self.key.hint):
            return self.success()
        _, problem = check_value(self.key, value)
        return self.failure(problem) if problem else self.success()


class SettingsScreen(ModalScreen[bool]):
    """Dismisses with ``True`` when settings were saved."""

    CSS_PATH = "settings.tcss"
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="settings.save"),
        Binding("escape", "cancel", "Cancel", id="settings.cancel"),
    ]

    class _KeyringChecked(Message):
        def __init__(self, ok: bool, backend: str, advice: str, key_file: bool) -> None:
            super().__init__()
            self.ok, self.backend, self.advice, self.key_file = ok, backend, advice, key_file

    class _ModelsListed(Message):
        def __init__(self, base: str | None, models: list[str], error: str | None) -> None:
            super().__init__()
            self.base, self.models, self.error = base, models, error

    class _Saved(Message):
        def __init__(self, error: str | None, key_note: str, key_ok: bool = True,
                     session_key: str | None = None) -> None:
            super().__init__()
            self.error = error
            self.key_note = key_note
            self.key_ok = key_ok
            self.session_key = session_key  # the typed key, when it is kept for this session only

    def __init__(self, services: Services) -> None:
        super().__init__()
        self.services = services
        self._key_file_offered = False  # the file switch was shown (no keyring, or a file exists)
        self._handover = Handover()

    @property
    def key_file(self):
        from agenttui.core.config.key_file import key_file_path

        return key_file_path(self.services.paths.config_dir)

    def _themes(self) -> list[str]:
        return sorted(self.app.available_themes)

    def compose(self) -> ComposeResult:
        base = self.services.base_settings
        themes = self._themes()
        theme = base.theme if base.theme in themes else (self.app.theme if self.app.theme in themes else None)
        with Vertical(id="settings-dialog"):
            yield Static(Text("Settings", style="bold"), id="settings-title")
            with VerticalScroll(id="settings-form"):
                yield Label("Model")
                with Horizontal(id="model-row"):
                    yield DialogInput(base.model, id="set-model")
                    yield Select([], prompt="pick a listed model", id="set-model-list")
                yield Static(Text(""), id="model-list-status", classes="hint")
                yield Label("Base URL (empty = the OpenAI API)")
                yield DialogInput(base.base_url or "", placeholder="https://…/v1", id="set-base-url")
                yield from self._env_overrides()
                yield Label("API key (saved to the OS keyring, never to config.toml)", id="api-key-label")
                yield DialogInput(password=True, placeholder="leave empty to keep the current key", id="set-api-key")
                yield Static(Text("checking the keyring…"), id="keyring-status")
                with Horizontal(classes="switch-row", id="key-file-row"):  # shown once the check says so
                    yield Switch(False, id="set-key-file")
                    yield Label(Text.assemble(
                        ("Store the key in a plain file", "bold"), f" {self.key_file} (mode 0600, "
                        "not encrypted: any program running as you can read it). Off: a typed key is "
                        "used for this session only."))
                for key in form_keys():  # who you are and how the model answers, before the details
                    if key.path in TOP_KEYS:
                        yield from self._field(key, base)
                yield Label(Text.assemble(("System prompt", "bold"), "  the soul: how the assistant "
                                          "behaves, sent first with every request (empty = the default)"))
                yield TextArea(base.soul, id="set-soul", soft_wrap=True, show_line_numbers=False)
                yield Label("Theme")
                yield Select([(name, name) for name in themes], value=theme or Select.NULL,
                             allow_blank=theme is None, id="set-theme")
                if self.services.profile_name != "default":
                    yield Static(Text(
                        f"Profile '{self.services.profile_name}' may override some of these."
                    ), classes="hint")
                yield from self._schema_fields(base)
                yield Static(Text(f"Lists and key bindings: edit {self.services.paths.config_file}"
                                  " (README: Configuration reference)."), classes="hint")
            with Horizontal(id="settings-buttons"):
                # the keys on the buttons: a modal dialog has no footer to show them
                yield Button("Cancel  esc", id="settings-cancel")
                yield Button("Save  ctrl+s", id="settings-save", variant="primary")

    def _schema_fields(self, base):
        section: object = object()
        for key in form_keys():
            if key.path in TOP_KEYS:
                continue  # shown at the top
            if key.section != section:
                section = key.section
                yield Static(Text(SECTION_TITLES.get(key.section, str(key.section)), style="bold"),
                             classes="section-title")
            yield from self._field(key, base)

    def _field(self, key, base):
        from agenttui.core.config.schema import allowed, choices, optional, plain_type

        value = getattr(getattr(base, key.section) if key.section else base, key.name)
        hint = plain_type(key.hint)
        label = Text.assemble((key.path, "bold"), "  ", key.spec.doc)
        if hint in (int, float):
            label.append(f"  ({allowed(key)})", style="dim")
        if hint is bool:
            with Horizontal(classes="switch-row"):
                yield Switch(bool(value), id=field_id(key))
                yield Label(label)
        elif values := choices(key.hint):
            options = key.spec.labels or tuple((str(v), v) for v in values)
            yield Label(label)
            yield Select(options, value=value, allow_blank=False, id=field_id(key))
        elif hint in (int, float):
            yield Label(label)
            yield DialogInput("" if value is None else str(value), id=field_id(key),
                        type="integer" if hint is int else "number",
                        placeholder="unset" if optional(key.hint) else "",
                        validators=[InRange(key)])
        else:
            yield Label(label)
            yield DialogInput(str(value or ""), id=field_id(key))

    def _env_overrides(self):
        """Say when the environment wins over these fields (the header showed
        AGENTTUI_MODEL's model while this form showed config.toml's)."""
        environ = self.services.environ
        for var, what in (("AGENTTUI_MODEL", "model"), ("OPENAI_BASE_URL", "base URL")):
            if environ.get(var):
                yield Static(Text(f"{var} is set, so this session uses {what} {environ[var]!r}; "
                                  "the field is what config.toml keeps."), classes="hint")

    def on_mount(self) -> None:
        self.query_one("#set-model").focus()
        self._check_keyring()
        self._refresh_model_list()

    # -- the endpoint's models -----------------------------
    def _endpoint(self) -> tuple[str | None, str | None]:
        """(base URL, key) a turn would use with this form's values."""
        environ = self.services.environ
        base = environ.get("OPENAI_BASE_URL") or self.query_one("#set-base-url", Input).value.strip() or None
        typed = self.query_one("#set-api-key", Input).value.strip()
        return base, typed or self.services.api_key().value

    def _refresh_model_list(self) -> None:
        base, key = self._endpoint()
        status = self.query_one("#model-list-status", Static)
        if not key:
            status.update(Text("Set an API key to pick from the endpoint's models; or type the name."))
            return
        status.update(Text(f"listing the models of {base or 'the OpenAI API'}…"))
        self._list_models(base, key)

    @work(thread=True, exclusive=True, group="settings-models")
    def _list_models(self, base: str | None, key: str) -> None:
        from agenttui.agent.model_list import ModelListError, list_models

        try:
            self.post_message(self._ModelsListed(base, list_models(base, key), None))
        except ModelListError as exc:
            self.post_message(self._ModelsListed(base, [], str(exc)))

    @on(_ModelsListed)
    def _models_listed(self, message: _ModelsListed) -> None:
        where = message.base or "the OpenAI API"
        status = self.query_one("#model-list-status", Static)
        if message.error:
            first = message.error.split(". ")[0].rstrip(".")  # the rest is chat-turn advice
            status.update(Text(f"Could not list models: {first}. Type the name."))
            return
        picker = self.query_one("#set-model-list", Select)
        picker.set_options((name, name) for name in message.models)
        status.update(Text(f"{len(message.models)} model(s) listed by {where}." if message.models
                           else f"{where} lists no models; type the name."))

    @on(Select.Changed, "#set-model-list")
    def _model_picked(self, event: Select.Changed) -> None:
        event.stop()
        if isinstance(event.value, str):
            self.query_one("#set-model", Input).value = event.value

    @on(Input.Blurred, "#set-base-url")
    @on(Input.Blurred, "#set-api-key")
    def _endpoint_edited(self, event: Input.Blurred) -> None:
        if self._endpoint() != getattr(self, "_listed_for", None):
            self._listed_for = self._endpoint()
            self._refresh_model_list()

    @work(thread=True, group="settings-keyring")
    def _check_keyring(self) -> None:
        from agenttui.core.config.api_key import keyring_status

        self.post_message(self._KeyringChecked(*keyring_status(), self.key_file.exists()))

    @on(_KeyringChecked)
    def _keyring_checked(self, message: _KeyringChecked) -> None:
        status = self.query_one("#keyring-status", Static)
        if message.ok:
            status.update(Text(f"keyring: {message.backend}", style="green"))
        else:  # one short paragraph; the long advice is agenttui doctor's
            self.query_one("#api-key-label", Label).update("API key (never saved to config.toml)")
            status.update(Text(
                "No usable keyring here: a key typed above is used for this session only, unless you "
                "store it in a file below. Or export OPENAI_API_KEY before starting agenttui "
                "(agenttui doctor shows how to add a keyring).", style="yellow"))
        self._key_file_offered = not message.ok or message.key_file
        self.query_one("#key-file-row").display = self._key_file_offered
        self.query_one("#set-key-file", Switch).value = message.key_file

    def collect(self):
        """The edited copy of the global settings and the problems found (pure: reads the form only)."""
        from agenttui.core.config.schema import check_value, optional, plain_type

        settings = copy.deepcopy(self.services.base_settings)
        settings.model = self.query_one("#set-model", Input).value.strip() or settings.model
        settings.base_url = self.query_one("#set-base-url", Input).value.strip() or None
        theme = self.query_one("#set-theme", Select).value
        if isinstance(theme, str):
            settings.theme = theme
        from agenttui.core.config.settings import DEFAULT_SOUL

        settings.soul = self.query_one("#set-soul", TextArea).text.strip() or DEFAULT_SOUL
        problems: list[tuple[str, str]] = []  # (field id, message)
        for key in form_keys():
            widget = self.query_one(f"#{field_id(key)}")
            table = getattr(settings, key.section) if key.section else settings
            if isinstance(widget, Switch | Select):
                value = widget.value
            elif not isinstance(widget, Input):  # _field yields only these three
                raise TypeError(f"unexpected settings field {widget!r}")
            elif plain_type(key.hint) in (int, float):
                text = widget.value.strip()
                if not text and optional(key.hint):
                    value = None
                else:
                    value, problem = check_value(key, text)
                    if problem:
                        problems.append((field_id(key), problem))
                        continue
            else:
                value = widget.value.strip()
            setattr(table, key.name, value)
        return settings, problems

    @on(Button.Pressed, "#settings-save")
    @on(Input.Submitted)  # Enter in a field saves, as in most forms (ctrl+s too)
    def action_save(self) -> None:
        if self.query_one("#settings-save", Button).disabled:
            return  # a save under way (Enter pressed twice, Enter then ctrl+s): it answers
        settings, problems = self.collect()
        if problems:  # nothing is written while a field is out of range
            self.notify("\n".join(message for _, message in problems), title="Settings not saved",
                        severity="error", timeout=15)
            self.query_one(f"#{problems[0][0]}").focus()
            return
        self.query_one("#settings-save", Button).disabled = True
        to_file = self._key_file_offered and self.query_one("#set-key-file", Switch).value
        self._save(settings, self.query_one("#set-api-key", Input).value.strip(),
                   to_file if self._key_file_offered else None)

    def _store_key(self, api_key: str, to_file: bool | None) -> tuple[str, bool, str | None]:
        """``(note, ok, session key)``; ``to_file`` is None when the file switch was not offered."""
        from agenttui.core.config.api_key import NoKeyringBackend, SecretsError, set_api_key
        from agenttui.core.config.key_file import KeyFileError, delete_key_file, write_key_file

        if not api_key:
            if to_file is False and self.key_file.exists():  # the user turned the file off
                try:
                    delete_key_file(self.key_file)
                    return f"Removed the key file {self.key_file}.", True, None
                except KeyFileError as exc:
                    return str(exc), False, None
            return "", True, None
        if to_file:
            try:
                write_key_file(self.key_file, api_key)
                return f"API key saved to {self.key_file} (mode 0600, not encrypted).", True, None
            except KeyFileError as exc:
                return f"{exc}. The key is used for this session only.", False, api_key
        try:
            set_api_key(api_key)
            return "API key saved to the keyring.", True, None
        except NoKeyringBackend:
            return ("API key used for this session only: there is no keyring, and storing it in a file "
                    "is off. Turn that on in Settings, or export OPENAI_API_KEY, to keep it."), False, api_key
        except SecretsError as exc:
            return f"API key not saved ({exc}); it is used for this session only.", False, api_key

    @work(thread=True, group="settings-save")
    def _save(self, settings, api_key: str, to_file: bool | None = None) -> None:
        from agenttui.core.config.file import save_settings

        key_note, key_ok, session_key = self._store_key(api_key, to_file)
        if api_key and self.services.environ.get("OPENAI_API_KEY"):
            key_note += " OPENAI_API_KEY is set in this environment and is used first."
        try:
            save_settings(self.services.paths, settings)
            self.services.reload_settings()
            error = None
        except Exception as exc:  # e.g. ConfigError: the file on disk is broken
            error = str(exc)
        self.post_message(self._Saved(error, key_note.strip(), key_ok, session_key))

    @on(_Saved)
    def _saved(self, message: _Saved) -> None:
        self.query_one("#settings-save", Button).disabled = False
        if message.session_key or message.key_note:  # a stored key no longer needs the session's
            self.services.session_api_key = message.session_key
        if message.key_note:
            ok = message.key_ok
            self.notify(message.key_note, title="API key", severity="information" if ok else "warning",
                        timeout=6 if ok else 20)
        if message.error:
            self.notify(message.error, title="Settings not saved", severity="error", timeout=15)
            return
        theme = self.services.base_settings.theme
        if theme in self.app.available_themes:
            self.app.theme = theme
        self.notify(f"Saved to {self.services.paths.config_file}", title="Settings")
        dismiss_once(self, True)

    def on_key(self, event: events.Key) -> None:
        # Esc and the next key typed at once reach us as one alt+key (escape_then_key.py)
        self._handover.on_key(self.app, event, self.action_cancel)

    @on(Button.Pressed, "#settings-cancel")
    def action_cancel(self) -> None:
        dismiss_once(self, False)
