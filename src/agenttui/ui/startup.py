"""Start-up: a usable prompt as soon as a bare Textual app's, and every trick that takes.

Goal: from launch to a prompt that shows its placeholder
and takes keys, at most 1.2x a bare Textual app with one ``TextArea``
(``bench/bench_prompt_usable.py``). The app's own work before that is small
(settings, the profile, two stylesheets); importing and mounting the three
panes costs several times the bare app's whole start-up. So:

0. **No garbage collection during start-up** (``gc.disable()`` in
   ``cli.tui``, before Textual is imported: this module imports it;
   :func:`resume_collection` once the panes are up, or after
   ``COLLECT_AFTER_S`` at the latest). Start-up only
   builds long-lived objects (modules, classes, widgets): about 120
   collections found nothing to free and cost 15-25 ms of CPU before the
   first frame, and a full one (40 ms) fell between the first frame and the
   first echo. The survivors are then frozen (``gc.freeze``): later full
   collections do not walk them again.
1. **First frame** (:class:`MainScreen` composes it when deferred): the
   header line, the three titled panes as empty slots, the footer row, and in
   the chat's slot an :class:`EarlyPrompt` with the real prompt's look,
   placeholder, size and place, focused. It takes typing at once. It is a
   small widget of its own, not a ``TextArea``: importing, styling and
   drawing a ``TextArea`` before the first frame cost ~40 ms, and the first
   paint must not get later (``bench/bench_first_paint.py``). The screen's
   ``ToastRack`` is hidden inline before that frame (:func:`hide_toast_rack`):
   its first ``show()`` after it would lay the whole screen out again.
2. **CSS parsed once**: Textual parses the stylesheet before the first frame
   and again whenever a widget class with ``DEFAULT_CSS`` first mounts. The
   slots' and the early prompt's rules are in main.tcss; the default CSS of
   the screen's ``ToastRack`` and ``Tooltip`` is added in the app's
   ``on_load`` (:func:`add_default_css`), before the first parse.
3. **Theme before the first parse** (:func:`set_start_theme`): the
   configured theme is set with ``set_reactive`` (no watcher, which would
   re-parse) and its variables handed to the stylesheet. Textual publishes a
   theme change with ``call_next``; :func:`subscribe_after_start` subscribes
   the same way, after it, so the start-up choice is not saved as the user's.
4. **The panes after the first frame** (``MainScreen._fill_panes``): their
   modules are imported in a thread (:func:`import_panes`) while the early
   prompt keeps taking keys, then they replace the slots in one batch; the
   early prompt's text moves into the real prompt, the cursor at its end
   (:meth:`TypeAhead.carry_over`). The import starts once no key has come
   for ``PANES_AFTER_S`` (keys typed or pasted at the first frame are echoed
   first: imports hold the GIL), ``PANES_LATEST_S`` after the frame at the
   latest (:meth:`TypeAhead.quiet_for`).
5. **Type-ahead** (:class:`TypeAhead`, used by ``AgentTUI.on_event``): keys
   and pastes the early prompt cannot take (it takes characters, Backspace
   and pastes; Enter, Tab, arrows, ctrl keys mean something to the real
   prompt) and everything after the first of them are held, in order, as is
   everything typed while the slots are swapped (the screen's queue is
   blocked then; a key queued to a widget being removed was handled by no
   one). Once the real prompt has focus they are
   replayed through Textual's own dispatch: they land where a key typed then
   would, Enter included. Keys bound to the app (F-keys, ctrl+q) act at once.
6. **After the panes**: chat widgets' CSS registered at idle
   (:func:`register_widget_css`), the Markdown parser warmed
   (:func:`warm_markdown`), start-up objects frozen out of the collector's
   sight (:func:`freeze_startup_objects`).
7. **argv** is pre-parsed in :func:`agenttui.cli._tui_only`, not here: it
   runs before anything is imported, and this module imports Textual, which
   every other command (``ask``, ``memory``) must not pay for.
8. **Keys typed before Textual's raw mode** keep their meaning: the terminal
   leaves cooked mode (``ICRNL``, ``ICANON``, ``ECHO``) in
   :mod:`agenttui.cli.early_keys`, for the same reason as step 7: it must run
   before this module's imports. What was typed before even that (the
   interpreter's start), the text and its Enter often in one piece, is read
   there and replayed here first (:func:`keys_typed_before`), ahead of every
   key Textual reads.

These lean on Textual internals (``set_reactive`` and ``stylesheet`` before
the first parse, ``theme_changed_signal``, ``_get_default_css``, the
``is_forwarded`` flag, message order when a widget is pruned, ``ToastRack``'s
inline display); pyproject pins
Textual to the minor version they are tested with.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import time
from collections.abc import Callable, Iterable
from importlib import import_module
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.app import App
from textual.content import Content
from textual.message import Message
from textual.widget import Widget

from agenttui.ui.bindings import COMMAND_KEY_PREFIXES
from agenttui.ui.typed_text import paste_newlines

if TYPE_CHECKING:
    from agenttui.ui.widgets.prompt_input import PromptInput

PROMPT_PLACEHOLDER = "Message… (Enter sends, /help)"
HEADER_ICON = "◆"
# What the panes need, imported in a thread after the first frame (step 4).
PANE_MODULES = ("agenttui.ui.widgets.chat_pane", "agenttui.ui.widgets.memory_pane",
                "agenttui.ui.widgets.history_pane", "textual.widgets._header", "textual.widgets._footer")
PANES_AFTER_S = 0.25  # the panes' import starts once the terminal has been quiet this long (step 4) ...
PANES_LATEST_S = 1.0  # ... after the first frame, or this long after it at the latest
IMPORT_SWITCH_INTERVAL_S = 0.0005
# Keys the early prompt edits with besides characters (its cursor stays at the end of the text).
_EARLY_EDIT_KEYS = frozenset({"backspace"})


# -- collection (step 0) ----------------------------------------------------------------
COLLECT_AFTER_S = 3.0  # the collector runs again by then even if the panes never came up


def resume_collection() -> None:
    """Freeze what start-up built, then collect as usual again; nothing if collection runs
    (an app started otherwise, as the tests do, or called a second time)."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


# -- the first frame (step 1) -------------------------------------------------------
class Blank(Widget):
    """Draws its styles only (Widget's own render shows the widget's name).

    No DEFAULT_CSS: its rules live in main.tcss (step 2).
    """

    def render(self) -> str:
        return ""


class PaneSlot(Blank):
    """A pane's place in the first frame: its id, border and title, no content."""

    def __init__(self, name: str, title: str) -> None:
        super().__init__(id=f"{name}-pane")
        self.border_title = title


class EarlyPrompt(Widget, can_focus=True):
    """The prompt of the first frame: takes typing until the real one replaces it.

    Drawn like the real prompt (a ``TextArea``: tall border, placeholder,
    block cursor; rules in main.tcss) in its place; it appends characters and
    pastes and takes Backspace, its cursor always at the end of the text.
    Plain text: never markup.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"early-prompt--placeholder"}
    placeholder = PROMPT_PLACEHOLDER

    def __init__(self) -> None:
        super().__init__(id="early-prompt")
        self.text = ""

    def render(self) -> Content:
        if not self.text:
            shown = Content(self.placeholder).stylize(self.get_visual_style("early-prompt--placeholder"))
            return shown.stylize("reverse", 0, 1) if self.has_focus else shown
        if not self.has_focus:
            return Content(self.text)
        return Content(self.text + " ").stylize("reverse", len(self.text), len(self.text) + 1)

    def _edit(self, text: str) -> None:
        self.text = text
        self.refresh(layout=True)  # a longer text may wrap onto another row

    async def _on_key(self, event: events.Key) -> None:
        # Handled here, in turn with the characters (TextArea's Backspace is a binding, run
        # only once the key has bubbled up to the App: "nexy<BS>t" would become "nexy").
        if event.key.startswith(COMMAND_KEY_PREFIXES):
            return  # alt+e, alt+i: a command (run once the panes are up), never its letter
        if event.is_printable and event.character:
            self._edit(self.text + event.character)
        elif event.key in _EARLY_EDIT_KEYS:
            self._edit(self.text[:-1])
        else:
            return
        event.stop()
        event.prevent_default()

    def _on_paste(self, event: events.Paste) -> None:
        event.stop()
        self._edit(self.text + paste_newlines(event.text))


class HeaderSlot(Widget):
    """The header's line in the first frame, drawn like Textual's ``Header``.

    One widget with its CSS in main.tcss, where the real ``Header`` brings
    three widget classes with DEFAULT_CSS (three more stylesheet parses).
    """

    def render(self) -> Content:
        title = self.app.format_title(self.app.title, self.app.sub_title)
        middle = max(0, self.size.width - 18)  # Header: icon 8 cells left, clock space 10 right
        if title.cell_length > middle:  # (truncate's first call costs a few ms of set-up)
            title = title.truncate(middle, ellipsis=True)
        return Content.assemble(f" {HEADER_ICON}".ljust(8), " " * ((middle - title.cell_length) // 2), title)


def hide_toast_rack(screen: Widget) -> None:
    """Give the screen's ``ToastRack`` the inline ``display: none`` it gets anyway, now.

    Its CSS hides it, but the first ``ToastRack.show`` (queued by the screen's
    ``ScreenResume``, handled after the first frame) sets the same value inline,
    which counts as a change: a layout of the whole screen and two more frames,
    just when the first typed keys are to be echoed. Set before the first
    frame, that later write changes nothing.
    """
    from textual.widgets._toast import ToastRack

    for rack in screen.query_children(ToastRack):
        rack.display = False


def first_frame_slots(titles: Iterable[tuple[str, str]]) -> list[Widget]:
    """The panes' slots; the chat's holds the early prompt."""
    slots: list[Widget] = []
    for name, title in titles:
        slot = PaneSlot(name, title)
        if name == "chat":
            slot.compose_add_child(EarlyPrompt())  # docked at the slot's bottom (main.tcss)
        slots.append(slot)
    return slots


def import_panes() -> None:
    """Step 4, in a thread: the event loop keeps echoing keys meanwhile.

    Imports hold the GIL; for their duration the interpreter hands it over
    every 0.5 ms instead of 5, so a key's echo waits on them that much less.
    """
    before = sys.getswitchinterval()
    sys.setswitchinterval(IMPORT_SWITCH_INTERVAL_S)
    try:
        for name in PANE_MODULES:
            import_module(name)
    finally:
        sys.setswitchinterval(before)


# -- CSS and theme before the first parse (steps 2, 3) --------------------------------
def add_default_css(app: App, classes: Iterable[type[Widget]]) -> None:
    """Add the default CSS of widget classes to the stylesheet now, as Textual would when one
    first mounts (it then re-parses the whole stylesheet, or re-derives its rule map)."""
    for cls in classes:
        node = cls.__new__(cls)  # not constructed: only its class's CSS is read
        for read_from, css, tie_breaker, scope in node._get_default_css():
            app.stylesheet.add_source(css, read_from=read_from, is_default_css=True,
                                      tie_breaker=tie_breaker, scope=scope)


def set_start_theme(app: App, name: str) -> bool:
    """Make ``name`` the theme before the stylesheet is first parsed; False if it must wait.

    Setting ``App.theme`` the usual way, from ``on_mount``, would re-parse the
    whole stylesheet before the first frame; instead the reactive is set
    without its watcher and the stylesheet's variables are updated, which is
    all the watcher's work that matters before any CSS is parsed, as long as
    dark/light stays as Textual's default (the ANSI colour filter depends on
    it). A light theme returns False: the caller sets it the usual way.
    """
    theme = app.get_theme(name)
    if theme is None or theme.dark != app.current_theme.dark:
        return False
    app.set_reactive(App.theme, name)
    app.stylesheet.set_variables(app.get_css_variables())
    app.set_class(True, f"-theme-{name}", update=False)
    return True


def subscribe_after_start(app: App, callback: Callable[..., object]) -> None:
    """Subscribe to theme changes after the start-up theme's own (queued with ``call_next``)."""
    app.call_next(app.theme_changed_signal.subscribe, app, callback)


# -- type-ahead (step 5) ----------------------------------------------------------------
class TypeAhead:
    """Keys and pastes from the first frame until the real prompt takes them."""

    def __init__(self) -> None:
        self.held: list[events.Key | events.Paste] | None = []  # None once released
        self.early_open = True  # the early prompt may take plain typing
        self.last_input_at = 0.0  # monotonic time of the last key or paste (step 4)

    def quiet_for(self, since: float) -> float:
        """Seconds without a key or paste, counted from ``since`` at the earliest."""
        return time.monotonic() - max(since, self.last_input_at)

    @property
    def active(self) -> bool:
        return self.held is not None

    def hold(self, event: events.Event, focused: Widget | None, app_keys: Callable[[], set[str]]) -> bool:
        """True if the app must keep ``event`` for later instead of dispatching it now."""
        held = self.held
        if held is None or not isinstance(event, (events.Key, events.Paste)) or event.is_forwarded:
            return False
        self.last_input_at = time.monotonic()
        if isinstance(event, events.Key) and event.key in app_keys():
            return False  # F-keys, ctrl+q: at once
        if not held and self.early_open and isinstance(focused, EarlyPrompt) and (
                isinstance(event, events.Paste) or event.is_printable or event.key in _EARLY_EDIT_KEYS):
            return False  # plain typing: the early prompt shows it now
        held.append(event)
        return True

    def close_early(self) -> None:
        """The swap begins: from now on every key waits for the real prompt."""
        self.early_open = False

    def release(self) -> list[events.Key | events.Paste]:
        held, self.held = self.held or [], None
        return held

    @staticmethod
    def carry_over(early: EarlyPrompt | None, prompt: PromptInput) -> None:
        """The early prompt's text into the real prompt, the cursor at its end."""
        if early is None or not early.text:
            return
        prompt.load_text(early.text)
        prompt.move_cursor(prompt.document.end)


def keys_typed_before(text: str) -> list[Message]:
    """The key events of ``text``, bytes typed before the app read the terminal (step 8), as
    Textual's own input thread would parse them (escape sequences included); the app posts
    them to itself before its driver starts, so they come first and the type-ahead holds them."""
    from agenttui.ui.escape_or_option_arrow import EscapeAwareParser

    if not text:
        return []
    parser = EscapeAwareParser()  # as the driver's (run_app installs it): ESC f + typing is Esc, "f"
    return [*parser.feed(text), *parser.feed("")]  # "": the end, so a lone Esc is a key too


# -- after the panes (step 6) -------------------------------------------------------------
CHAT_WIDGET_MODULES = ("textual.widgets._markdown", "agenttui.ui.widgets.message_view",
                       "agenttui.ui.widgets.used_line", "agenttui.ui.widgets.thinking_block",
                       "agenttui.ui.widgets.tool_call_view")


def register_widget_css(app: App, module_names: Iterable[str] = CHAT_WIDGET_MODULES) -> None:
    """Add the default CSS of the widgets a reply mounts (messages, Markdown blocks, the used
    line, the thinking block) now, at idle: Textual adds a widget class's CSS when it is first
    mounted and then re-derives its rule map, which the first reply would pay for."""
    with contextlib.suppress(Exception):  # Textual internals: at worst the first reply does it
        modules = [import_module(name) for name in module_names]
        add_default_css(app, {cls for module in modules for cls in vars(module).values()
                              if isinstance(cls, type) and issubclass(cls, Widget)})
        _ = app.stylesheet.rules_map  # parse them now


def freeze_startup_objects() -> None:
    """Move what start-up and the preparation built (modules, recall's word tables, the client:
    ~180,000 objects) out of the garbage collector's sight (``gc.freeze``).

    A full collection over them takes ~180 ms, and the next one would otherwise come due
    during the first turn (the preparation allocated a lot since the last), stalling its
    first words. They live as long as the app; refcounting still frees them, only reference
    cycles among them would never be collected. Costs nothing (no traversal).
    """
    gc.freeze()


def warm_markdown() -> None:
    """The reply's Markdown parser does its lazy set-up (~12 ms) on its first document: do it now."""
    with contextlib.suppress(Exception):
        from markdown_it import MarkdownIt

        MarkdownIt("gfm-like").parse("A *warm-up* with `code`, a [link](https://example.com)\n\n- and a list")
