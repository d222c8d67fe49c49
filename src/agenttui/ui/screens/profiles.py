"""The profile picker: switch, create (optionally bound here), delete.

``ProfilesScreen`` is a ``ModalScreen[str | None]``: it dismisses with the
name of the profile to switch to (``None`` = stay). The app does the switch
(``services.switch_profile`` + refresh of memory, history, chat, header), so
this screen never swaps stores under the panes' feet.

Create and delete happen here. Deleting is the most destructive action in the
app, so it needs the profile's name typed; a full backup is written first and
the profile's folder is moved to the trash rather than unlinked. The
active profile cannot be deleted (switch away first), and ``default`` always
exists.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, OptionList, Static
from textual.widgets.option_list import Option

from agenttui.ui.escape_then_key import Handover
from agenttui.ui.inert import inert_line
from agenttui.ui.screens.answer_once import dismiss_once
from agenttui.ui.widgets.dialog_input import DialogInput

if TYPE_CHECKING:
    from agenttui.bootstrap import Services


class ProfilesScreen(ModalScreen[str | None]):
    CSS_PATH = "profiles.tcss"
    BINDINGS = [
        Binding("escape", "close", "Close", id="profiles.close"),
        Binding("delete,d", "delete", "Delete profile", id="profiles.delete"),
        Binding("n", "focus_create", "New profile", id="profiles.new"),
    ]

    class _Done(Message):
        def __init__(self, verb: str, note: str, error: str | None) -> None:
            super().__init__()
            self.verb = verb
            self.note = note
            self.error = error

    def __init__(self, services: Services, cwd: Path | None = None) -> None:
        super().__init__()
        self._handover = Handover()
        self.services = services
        from agenttui.ui.folder_profile import project_folder

        # bound to the project's repository root, not the subfolder agenttui happened to start in
        self.cwd = Path(cwd) if cwd is not None else project_folder(services.workdir)

    def _bind_by_default(self) -> bool:
        """Ticked when started in a folder no profile is bound to (and not home or /).

        Unticked, the natural flow (type a name, Enter) made a profile that the
        folder it was made for did not pick at the next start.
        """
        home = Path.home().resolve()
        try:
            here = self.cwd.resolve()
            unbound = self.services.profiles.resolve(here).name == "default"
        except (OSError, ValueError):
            return False
        return unbound and here not in (home, Path(here.anchor))

    def _suggested_name(self) -> str:
        """The folder's name when a profile for it is offered (an unbound folder; see
        :mod:`agenttui.ui.folder_profile`): n, Enter makes it."""
        from agenttui.ui.folder_profile import suggested_name

        if not self._bind_by_default() or self.services.profiles.exists(suggested_name(self.cwd)):
            return ""
        return suggested_name(self.cwd)

    @property
    def active(self) -> str:
        return self.services.profile_name

    def compose(self) -> ComposeResult:
        with Vertical(id="profiles-dialog"):
            yield Static(Text("Profiles", style="bold"), id="profiles-title")
            yield Static(Text("Enter switches · d deletes · n creates · Esc closes"), id="profiles-help")
            yield OptionList(id="profiles-list", markup=False)
            with Horizontal(id="profiles-create"):
                yield DialogInput(self._suggested_name(), placeholder="new profile name", id="profile-name")
                yield Button("Create", id="profile-create", variant="primary")
            bind = Checkbox(f"bind to this folder: {inert_line(str(self.cwd), 60)}",
                            value=self._bind_by_default(), id="profile-bind")
            bind.tooltip = "agenttui started in this folder (or below it) uses the new profile"
            yield bind
            with Horizontal(id="profiles-buttons"):
                yield Button("Delete…", id="profile-delete", variant="error")
                yield Button("Switch", id="profile-switch", variant="success")
                yield Button("Close", id="profile-close")

    def on_mount(self) -> None:
        self.refresh_profiles()
        self.query_one("#profiles-list").focus()

    def refresh_profiles(self, highlight: str | None = None) -> None:
        listing = self.query_one("#profiles-list", OptionList)
        profiles = self.services.profiles.list()
        options = []
        for profile in profiles:
            label = Text(no_wrap=True, overflow="ellipsis")
            active = profile.name == self.active
            label.append("● " if active else "  ", style="bold green")
            label.append(profile.name, style="bold" if active else "")
            if active:
                label.append("  (active)", style="green")
            if profile.paths:
                bound = ", ".join(inert_line(str(p), 80) for p in profile.paths)
                label.append(f"  bound: {bound}", style="dim")
            options.append(Option(label, id=profile.name))
        listing.set_options(options)
        target = highlight or self.active
        names = [p.name for p in profiles]
        listing.highlighted = names.index(target) if target in names else 0

    def _highlighted_name(self) -> str | None:
        option = self.query_one("#profiles-list", OptionList).highlighted_option
        return option.id if option else None

    # -- switch -----------------------------------------------------------------
    @on(OptionList.OptionSelected, "#profiles-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._switch(event.option.id)

    @on(Button.Pressed, "#profile-switch")
    def _switch_pressed(self) -> None:
        self._switch(self._highlighted_name())

    def _switch(self, name: str | None) -> None:
        dismiss_once(self, None if not name or name == self.active else name)

    def on_key(self, event: events.Key) -> None:
        # Esc and the next key typed at once reach us as one alt+key (escape_then_key.py)
        self._handover.on_key(self.app, event, self.action_close)

    @on(Button.Pressed, "#profile-close")
    def action_close(self) -> None:
        dismiss_once(self, None)

    # -- create -----------------------------------------------------------------
    def action_focus_create(self) -> None:
        self.query_one("#profile-name", Input).focus()

    @on(Input.Submitted, "#profile-name")
    @on(Button.Pressed, "#profile-create")
    def _create(self) -> None:
        name = self.query_one("#profile-name", Input).value.strip()
        if not name:
            self.notify("Type a name for the new profile.", severity="warning")
            return
        bind = self.cwd if self.query_one("#profile-bind", Checkbox).value else None
        self._run("create", _create, self.services.profiles, name, bind)

    # -- delete --------------------------------------------------------
    @on(Button.Pressed, "#profile-delete")
    def action_delete(self) -> None:
        from agenttui.ui.screens.confirm import ConfirmScreen

        name = self._highlighted_name()
        if name is None:
            return
        if name == self.active:
            self.notify("This is the active profile: switch to another one first.",
                        title="Cannot delete", severity="warning")
            return
        statement = (
            f"Profile {name!r} will be deleted: its conversation history, profile memory, "
            f"project memory files and directory bindings. The folder is moved to the "
            f"trash ({self.services.paths.trash_dir})."
        )

        def done(confirmed: bool | None) -> None:
            if confirmed:
                self._run("delete", _delete, self.services, name)

        self.app.push_screen(
            ConfirmScreen(
                f"Delete profile {name!r}?", statement,
                backup=self.services.paths.backups_dir, require_word=name,
                confirm_label="Delete profile",
            ),
            done,
        )

    # -- the worker both writes go through -------------------------------------
    @work(thread=True, group="profiles-write")
    def _run(self, verb: str, fn, *args) -> None:
        try:
            note, error = fn(*args), None
        except Exception as exc:  # ProfileExists, InvalidProfileName, ProfileError …
            note, error = "", str(exc) or type(exc).__name__
        self.post_message(self._Done(verb, note, error))

    @on(_Done)
    def _done(self, message: _Done) -> None:
        if message.error:
            self.notify(message.error, title=f"Profile {message.verb} failed", severity="error")
            return
        self.notify(message.note, title="Profiles")
        if message.verb == "create":  # made to be used: the app switches to it
            self.dismiss(self.query_one("#profile-name", Input).value.strip())
        else:
            self.refresh_profiles()


def _create(profiles, name: str, bind: Path | None) -> str:
    profiles.create(name, bind=bind)
    return f"Created profile {name!r}" + (f", bound to {bind}" if bind else " (not bound to a folder)") + "."


def _delete(services: Services, name: str) -> str:
    from agenttui.core.backup.archive import create_backup
    from agenttui.core.config.profiles import refuse_if_in_use

    refuse_if_in_use(name, services.paths.profile_dir(name))  # open in another app: no backup for nothing
    backup = create_backup(services.paths)  # before anything moves
    trash = services.profiles.delete(name)
    return f"Deleted profile {name!r}. Backup: {backup}; folder moved to {trash}."
