"""The Textual app: ``AgentTUI`` over a ``Services`` object, and ``run_app``.

Start-up is kept to what a usable prompt needs: settings and profile
resolution (``build_services`` opens no database), the start theme and the
first frame, whose early prompt takes keys (:mod:`agenttui.ui.startup` holds
every start-up trick and says why). SQLite, the keyring and the openai client
are touched in workers after the first frame (the panes load their data on
mount, the API-key check and the agent-loop import run in threads).

Keys: every action is an App binding with an id from :mod:`bindings`,
remapped from ``[keys]`` in config.toml through ``App.set_keymap``; those the
table gives a pane as target run that pane's method (:mod:`action_targets`).
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events, on, work
from textual.app import App, SystemCommand
from textual.await_complete import AwaitComplete
from textual.binding import Binding

from agenttui.ui import error_policy
from agenttui.ui.action_targets import run_targeted
from agenttui.ui.app_background import save_theme_choice, start_history_indexer
from agenttui.ui.bindings import (
    ALL_ACTIONS,
    APP_ACTIONS,
    TARGETED,
    effective_key,
    keymap_from_settings,
    prioritise_remapped,
    to_bindings,
)
from agenttui.ui.header_line import UsageLabel, header_line
from agenttui.ui.messages import ProfileSwitched
from agenttui.ui.one_shot import set_timer
from agenttui.ui.palette_commands import AgentCommands
from agenttui.ui.screens.main import MainScreen
from agenttui.ui.startup import (
    COLLECT_AFTER_S,
    TypeAhead,
    add_default_css,
    freeze_startup_objects,
    keys_typed_before,
    register_widget_css,
    resume_collection,
    set_start_theme,
    subscribe_after_start,
    warm_markdown,
)
from agenttui.ui.themes import load_themes, register_start_theme
from agenttui.ui.typed_text import as_paste

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from textual.screen import Screen

    from agenttui.bootstrap import Services
    from agenttui.ui.host import AppParts
    from agenttui.ui.widgets.chat_pane import ChatPane

APP_NAME = "agenttui"
HEADER_CHROME = 8 + 10  # Textual's Header: the icon's column and the clock's space on the right
_HERE = Path(__file__).parent  # as Textual resolves CSS_PATH: same strings, no re-parse
SWITCH_SHOWN_S = 10.0  # what is typed during a profile switch waits this long at most for the panes
EMBED_AFTER_S = 2.0  # the embeddings backfill starts once start-up work is done
PREPARE_FALLBACK_S = 1.0  # the first turn is prepared once the panes are up, or by then at the latest
PREPARE_AFTER_PANES_S = 0.15
# Actions that need the chat pane (disabled for the moment before it mounts).
_CHAT_ACTIONS = frozenset({"help"} | {spec.action for spec in TARGETED.values() if spec.target == "chat"})


class AgentTUI(App[int]):
    # main.tcss here too: the screen's own CSS_PATH then finds it already loaded,
    # instead of re-parsing the whole stylesheet when the main screen is pushed.
    # Absolute, so subclasses elsewhere (tests) find them too.
    CSS_PATH = [_HERE / "app.tcss", _HERE / "screens" / "main.tcss"]
    TITLE = APP_NAME
    BINDINGS = to_bindings(APP_ACTIONS)
    COMMANDS = App.COMMANDS | {AgentCommands}

    def __init__(self, services: Services, *, check_api_key: bool = True, defer_panes: bool | None = None,
                 typed_before: str = "") -> None:
        super().__init__()
        self._typed_before = typed_before  # keys typed before the terminal left cooked mode (startup step 8)
        self.services = services
        self.check_api_key = check_api_key
        self._palette: Screen[Any] | None = None  # the command palette last opened (on_event)
        self.defer_panes = defer_panes  # None: after the first frame in a terminal (see screens.main)
        self.keymap_ids, self._warnings = keymap_from_settings(services.settings.keys)
        self._warnings = list(services.config_warnings) + self._warnings
        self.agent_themes: list[str] = []
        self.notices: list[tuple[str, str, str]] = []  # (severity, title, message), for tests and logs
        self._themes_loaded = False
        self._start_notices: list[tuple[str, str]] = []  # (title, message) errors to toast on mount
        self._deferred_theme: str | None = None
        self._can_notify = False  # toasts need the screen: queued until on_mount
        self.type_ahead = TypeAhead()  # keys from the first frame on reach the prompt (see on_event)
        self._failure_notices: set[str] = set()
        self._switching = asyncio.Lock()  # profile switches, one after the other
        self.refresh_header()

    # -- errors: one line + a crash log, not a traceback (ui/error_policy.py) ----------
    failure: str | None = None  # the line the terminal shows after the app ended on an error

    def notify_failure(self, message: str, title: str = "Could not complete") -> None:
        """An error notice, once per text: several loads meet the same broken file."""
        if message not in self._failure_notices:
            self._failure_notices.add(message)
            self.notify(message, title=title, severity="error", timeout=30)

    def _handle_exception(self, error: Exception) -> None:
        error_policy.handle_exception(self, error)

    async def _dispatch_action(self, namespace: Any, action_name: str, params: Any) -> bool:
        spec = TARGETED.get(action_name) if namespace is self else None
        if spec is not None:  # a pane's work, the table says (ui/action_targets.py)
            return await error_policy.dispatch_action(self, lambda: run_targeted(spec, self._action_target, params))
        return await error_policy.dispatch_action(self, lambda: self._textual_dispatch(namespace, action_name, params))

    async def _textual_dispatch(self, namespace: Any, action_name: str, params: Any) -> bool:
        try:
            return await super()._dispatch_action(namespace, action_name, params)
        except KeyError as error:
            from agenttui.ui.list_paging import paging_unlaid_list

            if paging_unlaid_list(namespace, action_name, error):
                return True  # nothing laid out to page through
            raise

    def _action_target(self, name: str) -> object:
        """The pane a binding's ``target`` names (``bindings.ActionSpec``)."""
        if name == "chat":
            return self.main.chat
        raise ValueError(f"no action target {name!r}")

    def notify(self, message: str, *, title: str = "", severity="information", **kwargs) -> None:
        # Every toast may carry model or tool text (a note, an endpoint's error): inert, never markup.
        from agenttui.core.visible_text import inert_line, inert_text

        message, title = inert_text(message), inert_line(title, 120)
        kwargs.setdefault("markup", False)
        self.notices.append((severity, title, message))
        super().notify(message, title=title, severity=severity, **kwargs)

    # -- start-up --------------------------------------------------------------
    def on_load(self) -> None:
        # Load comes after the CSS sources are read and before they are first parsed: the
        # screen's ToastRack and Tooltip add their CSS now, not in a re-parse each when they mount.
        from textual.widgets._toast import ToastRack
        from textual.widgets._tooltip import Tooltip

        add_default_css(self, [ToastRack, Tooltip])
        self._select_start_theme()
        for event in keys_typed_before(self._typed_before):  # before the driver's: typed first
            self.post_message(event.set_sender(self))

    def on_mount(self) -> None:
        self._can_notify = True
        for title, message in self._start_notices:
            self.notify(message, title=title, severity="error", timeout=15)
        if self._deferred_theme is not None:
            self.theme = self._deferred_theme
        # the start theme is not saved as a choice
        subscribe_after_start(self, lambda theme: save_theme_choice(self, self.services, theme))
        prioritise_remapped(self._bindings, self.keymap_ids)
        self.set_keymap(self.keymap_ids)
        if self.services.config_error:
            self.notify(f"{self.services.config_error}\nUsing defaults; the file was not changed.",
                        title="config.toml has an error", severity="error", timeout=20)
        for warning in self._warnings:
            self.notify(warning, title="config.toml", severity="warning", timeout=10)
        # The other theme files and the keyring (on PanesReady) and the openai imports wait
        # until the first frames are out (imports hold the GIL for a while).
        set_timer(self, PREPARE_FALLBACK_S, self._prepare_first_turn)
        if self.services.settings.recall.semantic:
            set_timer(self, EMBED_AFTER_S, lambda: start_history_indexer(self, self.services,
                                                                        paused=lambda: self.incognito))
        from agenttui.ui import suspend  # ctrl+z / SIGTSTP give the terminal back as found

        suspend.install(self)

    def get_default_screen(self) -> MainScreen:
        """The main screen is the base of the stack, composed with the app.

        Pushed from ``on_mount`` instead, it would be laid out and rendered once
        inside the app's start-up batch, a frame Textual then discards.
        """
        return MainScreen(self.services, defer_panes=self.defer_panes)

    def _select_start_theme(self) -> None:
        """Pick the configured theme before the stylesheet is first parsed (``startup.set_start_theme``,
        ``themes.register_start_theme``); a light theme takes the usual path, from ``on_mount``."""
        name, notice = register_start_theme(self, self.services.settings.theme,
                                             self.services.paths.user_themes_dir, self._load_all_themes)
        if notice:
            self._start_notices.append(("Theme", notice))
        if not set_start_theme(self, name):
            self._deferred_theme = name

    def on_ready(self) -> None:
        """Textual's Ready: the DOM is up and the start-up batch is over."""
        set_timer(self, COLLECT_AFTER_S, resume_collection)  # at the latest (startup step 0)
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                screen.first_frame_shown()

    def action_command_palette(self) -> None:
        """Textual's, with the palette whose list keys are safe as it opens (command_palette)."""
        from agenttui.ui.command_palette import SafeCommandPalette

        if self.use_command_palette and not isinstance(self.screen, SafeCommandPalette):
            palette = self._palette = SafeCommandPalette(id="--command-palette")
            self.push_screen(palette)

    def pop_screen(self) -> AwaitComplete:
        """Textual's, except that the last screen is never popped. A list or a text box answers a
        dialog once per Enter: two Enters typed at once reached its handler twice, and the second
        dismiss, its dialog gone, found only the main screen to pop -- Textual's ScreenStackError
        ended the app. The app's dialogs answer once (screens/answer_once); this covers Textual's
        own command palette, and any dialog that does not."""
        if len(self.screen_stack) <= 1:
            return AwaitComplete(asyncio.sleep(0))
        return super().pop_screen()

    # -- type-ahead: keys from the first frame on reach the prompt, in order --
    async def on_event(self, event: events.Event) -> None:
        """Keys and pastes the early prompt cannot take wait for the real prompt (``startup.TypeAhead``).

        Textual hands a key to the focused widget, or to the screen when nothing
        has focus, by posting it to that one's queue; while the screen swaps its
        first-frame slots for the panes its queue is blocked, and a key queued
        to a widget being removed was handled by no one (the text of a fast
        typist, a paste or ``tmux send-keys`` vanished, or its Enter did).
        """
        event = as_paste(event)  # a full-width space, a joiner: typed, not dropped (typed_text)
        if self._palette is not None and self._palette.is_current:
            from agenttui.ui.command_palette import close_on_merged_escape

            handed = await close_on_merged_escape(self, event)  # Esc merged with typing: closes it,
            if handed is None:  # the typing goes on below
                return
            event = handed
        if (isinstance(event, (events.Key, events.Paste)) and self.type_ahead.active
                and self.type_ahead.hold(event, self.focused, self._app_keys)):
            return
        await super().on_event(event)

    def _app_keys(self) -> set[str]:
        keys = {key.strip() for spec in APP_ACTIONS for key in self.key_for(spec.id).split(",")}
        return keys | set(self._bindings.key_to_bindings)  # Textual's own: ctrl+q, ctrl+c, ctrl+p

    async def _release_held_input(self) -> None:
        """The panes are up: focus the prompt (if nothing else has focus) and replay the held keys."""
        held = self.type_ahead.release()
        if not held:
            return
        main = self.main
        if self.screen is main and self.focused is None:
            main.set_focus(main.chat.prompt)  # now, not on the next turn of the queue (Widget.focus)
        for event in held:
            await super().on_event(event)  # handled in this call: later keys wait in the queue behind it

    @on(MainScreen.PanesReady)
    async def _panes_ready_now(self) -> None:
        await self._release_held_input()
        resume_collection()  # start-up is over (startup step 0)
        self._load_all_themes()
        if self.check_api_key and not self._key_looked_up:  # the keyring import: after the panes
            self._key_looked_up = True
            set_timer(self, 0.3, self._look_up_api_key)
        # The UI is up: get the turn ready once its frame has reached the terminal (Textual's
        # writer thread would otherwise wait on the preparation's imports for the GIL).
        set_timer(self, PREPARE_AFTER_PANES_S, self._prepare_first_turn)
        from agenttui.ui.mcp_servers import START_AFTER_S, start_mcp  # MCP servers, if any

        set_timer(self, START_AFTER_S, lambda: start_mcp(self))

    def _load_all_themes(self) -> None:
        """Register every theme file (built-in and user), once; report the bad ones."""
        if self._themes_loaded:
            return
        self._themes_loaded = True
        loaded = load_themes(self.services.paths.user_themes_dir)
        active = self.theme
        before = self.get_theme(active)
        for theme in loaded.themes.values():
            self.register_theme(theme)
        self.agent_themes = sorted(loaded.themes)
        for error in loaded.errors:
            if self._can_notify:
                self.notify(error, title="Bad theme file (skipped)", severity="error", timeout=15)
            else:
                self._start_notices.append(("Bad theme file (skipped)", error))
        if self._can_notify and before is not None and before != loaded.themes.get(active, before):
            self.refresh_css(animate=False)  # a user file of another name replaced it

    _key_looked_up = False

    @work(thread=True, group="startup")
    def _look_up_api_key(self) -> None:
        lookup = self.services.api_key()  # imports keyring: after the first frame
        if lookup.value is None:
            self.call_from_thread(self._show_first_run, lookup.problem)

    def _show_first_run(self, problem: str | None) -> None:
        from agenttui.ui.screens.first_run import FirstRunScreen

        async def closed(choice: str | None) -> None:
            if choice == "settings":  # run_action is a coroutine: un-awaited, nothing opened
                await self.run_action("open_settings")

        self.push_screen(FirstRunScreen(self.key_for("app.open_settings"), problem), closed)

    # -- the first turn, prepared ahead (agent/prepare.py) ----------------------------
    _prepare_started = False
    _turn_ready: object | None = None  # asyncio.Event, set once the preparation is over
    _prepared_client: object | None = None  # the cached client the turn will find, once built
    _warmed_at = 0.0  # monotonic time of the last connection warm-up

    def _prepare_again(self) -> None:
        """After a settings or profile change: prepare for the (maybe new) endpoint, once started."""
        if self._prepare_started:
            self._prepare_started, self._prepared_client, self._warmed_at = False, None, 0.0
            self._prepare_first_turn()

    def _prepare_first_turn(self) -> None:
        if not self._prepare_started:
            import asyncio

            self._prepare_started = True
            self._turn_ready = asyncio.Event()
            self._prepare_turn()

    @property
    def turn_preparation_started(self) -> bool:
        return self._turn_ready is not None

    async def first_turn_ready(self, timeout: float = 15.0) -> None:
        """For the chat: wait while the preparation runs (doing its work twice at once is slower)."""
        import asyncio

        ready = self._turn_ready
        if isinstance(ready, asyncio.Event) and not ready.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ready.wait(), timeout)

    @work(group="prepare-turn", exit_on_error=False)
    async def _prepare_turn(self) -> None:
        """Client, then (the connection warmed meanwhile) the prompt path; never shown, never fails."""
        import asyncio

        from agenttui.agent.prepare import prepare_client, prepare_prompt

        try:
            self._prepared_client = await asyncio.to_thread(prepare_client, self.services,
                                                            asyncio.get_running_loop())
            self._rewarm()
            await asyncio.to_thread(prepare_prompt, self.services)
            await asyncio.to_thread(warm_markdown)
            register_widget_css(self)
            if not self._has_conversation_on_screen():
                freeze_startup_objects()
        finally:
            if isinstance(self._turn_ready, asyncio.Event):
                self._turn_ready.set()

    def _has_conversation_on_screen(self) -> bool:
        """Whether a message is mounted yet: on a busy machine the first turn (or an opened
        conversation) can come before the preparation ends, and a frozen message would never be
        collected (widgets live in reference cycles), so then nothing is frozen."""
        return any(screen.query("UserMessage, AssistantMessage") for screen in self.screen_stack)

    async def _warm_connection(self) -> None:
        import time

        from agenttui.agent.prepare import warm_connection

        client = self._prepared_client
        if client is None or not self.services.settings.agent.warm_up:
            return
        self._warmed_at = time.monotonic()
        await warm_connection(client, self.services.model)

    def on_text_area_changed(self, event) -> None:  # TextArea.Changed (not imported before the first frame)
        """The user is writing a message: open the connection again if it went idle (httpx drops it after 5 s)."""
        import time

        from agenttui.agent.prepare import KEEPALIVE_S
        from agenttui.ui.widgets.prompt_input import PromptInput

        # Not on the prompt emptied by sending: the turn's own request opens the connection, and a
        # warm-up then only competed with it (Enter -> first words).
        if (isinstance(event.text_area, PromptInput) and event.text_area.text and self._prepared_client is not None
                and time.monotonic() - self._warmed_at > KEEPALIVE_S):
            self._warmed_at = time.monotonic()
            self._rewarm()

    @work(group="warm-connection", exclusive=True, exit_on_error=False)
    async def _rewarm(self) -> None:
        await self._warm_connection()

    def get_system_commands(self, screen: Screen[Any]) -> Iterator[SystemCommand]:
        """Textual's palette entries less those the app's own table has (Quit was listed twice)."""
        from agenttui.ui.bindings import APP_ACTIONS

        ours = {spec.description.casefold() for spec in APP_ACTIONS}
        for command in super().get_system_commands(screen):
            if command.title.casefold() not in ours:
                yield command

    def action_next_theme(self) -> None:
        self._load_all_themes()
        names = self.agent_themes or sorted(self.available_themes)
        index = names.index(self.theme) + 1 if self.theme in names else 0
        self.theme = names[index % len(names)]
        self.notify(self.theme, title="Theme")

    # -- helpers -----------------------------------------------------------------
    def key_for(self, binding_id: str) -> str:
        spec = next(s for s in ALL_ACTIONS if s.id == binding_id)
        return effective_key(spec, self.keymap_ids)

    incognito = False  # the chat is incognito (widgets/incognito_mode.py): the header's badge
    context_meter: str | None = None  # "context 3.2k/16k" of the chat's last prompt (widgets/context_meter.py)
    usage_total: UsageLabel | None = None  # "Σ 1.2k tok · $0.003" of the open conversation (widgets/usage_total.py)
    chat_model: str | None = None  # the open conversation's own model (/model), else the default is shown

    def refresh_header(self) -> None:
        """Profile, model, the context meter and the usage total, fitted to the width
        (:mod:`agenttui.ui.header_line`: shorter labels, then fewer items, never a cut number)."""
        room = self.size.width - HEADER_CHROME - len(self.title) - len(" — ")
        self.sub_title = header_line(room, profile=self.services.profile_name,
                                     model=self.chat_model or self.services.model, incognito=self.incognito,
                                     meter=self.context_meter, usage=self.usage_total)

    @property
    def main(self) -> MainScreen:
        return next(s for s in self.screen_stack if isinstance(s, MainScreen))

    @property
    def panes_ready(self) -> bool:
        """The main screen's real panes are mounted (not the first frame's slots)."""
        return any(isinstance(s, MainScreen) and s.panes_ready for s in self.screen_stack)

    def show_pane(self, name: str) -> None:
        self.main.show_pane(name)

    # -- actions -----------------------------------------------------------------
    async def action_help(self) -> None:
        from agenttui.ui.slash.table import COMMANDS, help_text

        keys = [(s.id, self.key_for(s.id), s.description) for s in ALL_ACTIONS]
        keys.append(("app.command_palette", self.COMMAND_PALETTE_BINDING, "Command palette"))
        log = self.main.chat.chat_log
        notice = await log.notice(help_text(COMMANDS, keys))
        # Its first line at the top (it is taller than the chat): reading starts there.
        log.release_anchor()
        log.call_after_refresh(log.scroll_to_widget, notice, animate=False, top=True)

    def action_toggle_memory(self) -> None:
        self.main.toggle_pane("memory")

    def action_toggle_history(self) -> None:
        self.main.toggle_pane("history")

    def action_focus_pane(self, name: str) -> None:
        self.main.focus_pane(name)

    def action_inspect_prompt(self) -> None:
        from agenttui.agent.prompt_capture import last_prompt
        from agenttui.ui.screens.prompt_inspector import PromptInspectorScreen

        if isinstance(self.screen, PromptInspectorScreen):
            return  # F4 again inside it: one inspector is enough
        if self.panes_ready:  # with what the last reply used, actionable (see chat_pane)
            self.main.chat.turn_view.open_inspector(last=True)
        else:
            self.push_screen(PromptInspectorScreen(last_prompt(self.services)))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in _CHAT_ACTIONS and not self.panes_ready:
            return False  # the chat pane mounts just after the first frame
        if action in ("cancel_turn", "retry_turn"):
            if not isinstance(self.screen, MainScreen):
                return False  # a dialog's own Esc is meant (the footer showed "esc Cancel" under it)
            # Retry is always there: after a finished reply it says what it can do.
            chat = self.main.chat  # Esc leaves the footer once pressed
            if action == "cancel_turn":  # or, while editing an earlier question, give it up
                return (chat.streaming and not chat.turns.stopping) or chat.editing is not None
            return True
        return True

    # The screens are imported when first opened, not at start-up (first paint).
    def action_open_audit(self) -> None:
        from agenttui.ui.screens.audit import AuditScreen

        self.push_screen(AuditScreen(self.services), self.reload_memory_pane)

    def action_open_project_memory(self) -> None:
        from agenttui.ui.screens.project_memory import ProjectMemoryScreen

        self.push_screen(ProjectMemoryScreen(self.services))

    def action_open_settings(self) -> None:
        from agenttui.ui.screens.settings import SettingsScreen

        self.push_screen(SettingsScreen(self.services), self._after_settings)

    def action_open_mcp(self) -> None:
        from agenttui.ui.screens.mcp import McpScreen

        def insert(text: str | None) -> None:  # a resource or prompt: into the prompt, not sent
            if text:
                prompt = self.main.chat.prompt
                prompt.insert(text)
                prompt.focus()

        self.push_screen(McpScreen(self.services), insert)

    async def action_quit(self) -> None:
        """Quit; messages queued during a reply are asked about first (ui/screens/quit_confirm.py),
        an incognito chat offers to be saved (ui/widgets/incognito_mode.py)."""
        chat = self.main.chat if self.panes_ready else None
        if chat is not None and chat.turns.unsent:
            from agenttui.ui.screens.quit_confirm import QuitConfirm

            question = None if isinstance(self.screen, QuitConfirm) else QuitConfirm.for_queue(
                chat.turns.unsent, chat.waiting_for())
            if question is not None:  # (asked already: ctrl+q again quits)
                self.push_screen(question, self._quit_if_confirmed)
                return
        await self._quit_now()

    async def _quit_if_confirmed(self, confirmed: bool | None) -> None:
        if confirmed:
            await self._quit_now()

    async def _quit_now(self) -> None:
        chat = self.main.chat if self.panes_ready else None
        if chat is not None and chat.commands.quit_after(self._quit_now):  # /remember on a lock: it says so
            return
        if chat is not None and chat.incognito:
            await chat.incognito_mode.leave(then=self.exit)
            return
        working = chat.commands.still_working() if chat is not None else None
        if working is None:
            self.exit()
            return
        from rich.text import Text

        self.exit(message=Text(working))  # shown once the terminal is back, while the write ends

    async def on_unmount(self) -> None:
        with contextlib.suppress(Exception):  # ended another way (SIGTERM): its connection closed
            self.main.chat.incognito_mode.drop()
        from agenttui.ui.mcp_servers import stop_mcp

        await stop_mcp(self)  # every MCP server process stopped before the loop ends

    def action_open_profiles(self) -> None:
        from agenttui.ui.screens.profiles import ProfilesScreen

        self.push_screen(ProfilesScreen(self.services), self._switch_profile)

    @work(group="reset-memory")
    async def action_reset_memory(self, scope: str = "") -> None:
        """Empty a scope of memory, or all of it, after a backup (:mod:`agenttui.ui.memory_reset`)."""
        from agenttui.ui.memory_reset import reset_memory

        if await reset_memory(self, self.services, scope):
            self.reload_memory_pane()

    def reload_memory_pane(self, _result: object = None) -> None:
        if isinstance(self.screen, MainScreen) and self.screen.panes_ready:
            from agenttui.ui.widgets.memory_pane import MemoryPane

            self.main.query_one("#memory-pane", MemoryPane).reload()

    def _after_settings(self, saved: bool | None) -> None:
        if saved:
            self.keymap_ids, warnings = keymap_from_settings(self.services.settings.keys)
            prioritise_remapped(self._bindings, self.keymap_ids)
            self.set_keymap(self.keymap_ids)
            self.refresh_header()
            self._prepare_again()  # the endpoint, model or key may have changed

    def switch_profile(self, name: str | None) -> None:
        self._switch_profile(name)

    def _switch_profile(self, name: str | None) -> None:
        if not name:
            return
        chat = self.main.chat_or_none()
        # held from this moment, not from when the worker runs: the command or dialog that
        # asked for the switch may end first, and what is typed after it is for the new profile
        release = chat.commands.hold_input("profile") if chat is not None else None
        self._switch_profile_after_turn(name, chat, release)

    @work(group="profile-switch")  # not exclusive: cancelled before it ran, the hold would stay
    async def _switch_profile_after_turn(self, name: str, chat: ChatPane | None,
                                         release: Callable[[], None] | None) -> None:
        """A reply streaming stops first and is saved in this profile (``stop_for_profile_switch``);
        what is sent meanwhile waits until the panes show the new profile. One switch at a time."""
        try:
            async with self._switching:
                await self._switch_profile_now(name, chat)
        finally:
            if release is not None:
                release()

    async def _switch_profile_now(self, name: str, chat: ChatPane | None) -> None:
        if chat is not None:
            await chat.stop_for_profile_switch()
        try:
            self.services.switch_profile(name)
        except (KeyError, ValueError, OSError) as exc:
            self.notify(str(exc), title="Profile not switched", severity="error")
            return
        self.refresh_header()
        self._prepare_again()
        switched = ProfileSwitched(name)
        self.main.post_message(switched)
        self.notify(f"Now using profile {name!r}.", title="Profile")
        from agenttui.ui.mcp_servers import restart_mcp

        restart_mcp(self)  # the new profile's MCP servers (its own and the user's)
        with contextlib.suppress(TimeoutError):  # (the screen going away must not hold input for good)
            await asyncio.wait_for(switched.shown.wait(), SWITCH_SHOWN_S)


def make_app(services: Services, *, check_api_key: bool = True, defer_panes: bool | None = None,
             typed_before: str = "") -> AgentTUI:
    """Build the app over ``services`` (the CLI and the tests both come through here)."""
    return AgentTUI(services, check_api_key=check_api_key, defer_panes=defer_panes, typed_before=typed_before)


def run_app(profile: str | None = None, typed_before: str = "") -> int:
    from agenttui.bootstrap import build_services
    from agenttui.ui import escape_or_option_arrow

    escape_or_option_arrow.install()  # the terminal's reads: ESC f + typing is Esc then "f"
    services = build_services(profile=profile)
    try:
        app = make_app(services, typed_before=typed_before)
        result = app.run()
        from agenttui.cli.unsaved import save_or_rescue  # a chat message the disk refused

        result = save_or_rescue(services, "of this session") or result
    finally:
        resume_collection()
        services.close()
    # run() returns the exit *value*; an app ended by a bug has none but its return code is 1
    return int(result or app.return_code or 0)


if TYPE_CHECKING:  # mypy checks that the app has every part the widgets ask for
    _APP_HAS_ITS_PARTS: type[AppParts] = AgentTUI

__all__ = ["AgentTUI", "Binding", "make_app", "run_app"]
