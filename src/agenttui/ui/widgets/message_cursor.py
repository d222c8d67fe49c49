"""Acting on one message of the chat log: select, edit, regenerate, branch, fork.

:class:`MessageCursor` is a part the :class:`~agenttui.ui.widgets.chat_log.ChatLog` owns (not a
base class): the log takes the keys, clicks and messages (Textual hands them to widgets) and
passes them here; the cursor keeps the selection and reads the log's rows. With the log
focused (``shift+tab`` from the prompt, or a click on a message) one message is
*selected* (highlighted; the newest when the log gets the focus): ``↑``/``↓``
move the selection, ``e`` edits it (a question), ``r`` regenerates it (a reply:
its question is answered again; a question: answered again), ``←``/``→`` show
its previous/next version, ``f`` forks the conversation at it, ``Esc`` goes
back to the prompt. The log only says what was asked (:class:`MessageAction`);
the chat pane acts (:mod:`.branch_actions`): workers compute, messages carry,
handlers mutate.

Messages with siblings get a :class:`~.branch_nav.BranchNav` line (``‹ 2/3 ›``)
right after them: :meth:`MessageCursor.refresh_branches` reads their places in
a thread whenever a page is mounted or a turn ends.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.binding import Binding, BindingType
from textual.message import Message as TextualMessage
from textual.widget import Widget

from agenttui.ui.widgets.branch_nav import BranchNav
from agenttui.ui.widgets.message_view import AssistantMessage, UserMessage

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.containers import VerticalScroll

    from agenttui.bootstrap import Services

CURSOR_BINDINGS: list[BindingType] = [
    Binding("up", "select_message(-1)", "Previous", show=False),
    Binding("down", "select_message(1)", "Next", show=False),
    Binding("e", "message('edit')", "Edit"),
    Binding("r", "message('regenerate')", "Regenerate"),
    Binding("left", "message('previous')", "‹ Branch"),
    Binding("right", "message('next')", "Branch ›"),
    Binding("f", "message('fork')", "Fork"),
    Binding("c", "copy_code(0)", "Copy code"),
    *(Binding(str(n), f"copy_code({n})", f"Copy code block {n}", show=False) for n in range(1, 10)),
    Binding("escape", "message('prompt')", "Prompt", show=False),
]
#: The selection shows while the log has the focus. The tint is lost without
#: colour (NO_COLOR, the ansi theme); the heavy left bar (``┃``) is a glyph, so it still shows.
CURSOR_CSS = """
ChatLog:focus > .-selected { tint: $accent 18%; border-left: heavy $accent; }
"""

MESSAGE_TYPES = (UserMessage, AssistantMessage)

#: The message keys, for /help and F1.
MESSAGE_HELP = (
    ("↑/↓ select a message · e edit it (your question: a new branch, the old one kept) · "
     "r regenerate · ←/→ its previous/next version (‹ 2/3 ›) · f fork the conversation at it · "
     "c copy its last code block, 1-9 a code block by number · Esc back to the prompt"),
)


class MessageAction(TextualMessage):
    """The user asked for ``action`` on a message: edit, regenerate, previous, next, fork, prompt.

    ``question_id`` is the question the message belongs to (itself for a question; for a
    reply the nearest question above it), ``text`` the question's text (for edit and
    regenerate)."""

    def __init__(self, action: str, message_id: int | None, question_id: int | None, text: str) -> None:
        super().__init__()
        self.action = action
        self.message_id = message_id
        self.question_id = question_id
        self.text = text


class BranchesRead(TextualMessage):
    def __init__(self, conversation_id: str, positions: dict[int, tuple[int, int]],
                 select_id: int | None) -> None:
        super().__init__()
        self.conversation_id = conversation_id
        self.positions = positions
        self.select_id = select_id


class MessageCursor:
    """See the module doc. ``log`` is the scrolling list whose children are the rows;
    ``conversation`` says which conversation it shows now."""

    def __init__(self, log: VerticalScroll, services: Services, conversation: Callable[[], str | None]) -> None:
        self.log = log
        self.services = services
        self.conversation = conversation
        self.selected_id: int | None = None
        self.leaving: tuple[Widget, ...] = ()  # rows on screen until the page replacing them shows (ChatLog)

    # -- which messages ------------------------------------------------------------
    def rows(self) -> list[Widget]:
        """The log's children but those about to be replaced by a page being made ready."""
        leaving = set(self.leaving)
        return [w for w in self.log.children if w not in leaving]

    def message_widgets(self) -> list[Widget]:
        """The log's stored messages (those with an id), top to bottom."""
        return [w for w in self.rows()
                if isinstance(w, MESSAGE_TYPES) and getattr(w, "message_id", None) is not None]

    @property
    def selected(self) -> Widget | None:
        if self.selected_id is None:
            return None
        return next((w for w in self.message_widgets() if w.message_id == self.selected_id), None)  # type: ignore[attr-defined]

    def select(self, widget: Widget | None, scroll: bool = True) -> None:
        log = self.log
        for other in log.query(".-selected"):
            other.remove_class("-selected")
        self.selected_id = getattr(widget, "message_id", None)
        if widget is None:
            return
        widget.add_class("-selected")
        if widget is not self.message_widgets()[-1]:
            log.release_anchor()  # reading back: new content must not pull the view away
        if scroll:
            log.scroll_to_widget(widget, animate=False)

    def carry_selection(self, leaving: tuple[Widget, ...], at_start: bool) -> None:
        """The page replacing ``leaving`` carries the selection and the focus over.

        The selected message went with the rows: the same message in the page is selected
        again, else the page's first; after Home, the first (the start is selected, as in any
        list; ↑ then moved from nothing to the last message mounted and scrolled there). The
        focus was on a row that goes (a reply's "used:" line, which shift+tab from the prompt
        reaches first): the log takes it, so the next keys (home, end, escape) still act on
        the log and the view stays. Left to Textual, the focus moved to the next focusable
        widget, and the view scrolled to it."""
        log = self.log
        gone = set(leaving)
        page = [w for w in self.message_widgets() if w not in gone]
        focused = log.screen.focused if log.is_attached else None
        takes_focus = focused is not None and any(focused is row or row in focused.ancestors for row in leaving)
        if takes_focus or (self.selected_id is not None and any(w in gone for w in log.query(".-selected"))):
            # Never a row that goes: it would be gone by the time the log's Focus event came,
            # and the log would then select its last message and scroll to it (Home's view
            # ended a screen down, under load). Where the view goes is the page's to say.
            same = None if at_start else next(
                (w for w in page if getattr(w, "message_id", None) == self.selected_id), None)
            self.select(same or (page[0] if page else None), scroll=False)
        if takes_focus:
            log.focus(scroll_visible=False)

    def select_id(self, message_id: int | None) -> bool:
        target = next((w for w in self.message_widgets() if w.message_id == message_id), None)  # type: ignore[attr-defined]
        if target is not None:
            self.select(target)
        return target is not None

    def question_of(self, widget: Widget) -> UserMessage | None:
        """The question ``widget`` belongs to: itself, or the nearest question above it."""
        children = self.rows()
        for candidate in reversed(children[: children.index(widget) + 1]):
            if isinstance(candidate, UserMessage) and candidate.message_id is not None:
                return candidate
        return None

    # -- keys and clicks (the log's handlers pass them here) -----------------------
    def focused(self) -> None:
        """The log got the focus: the newest message is selected, if none is."""
        if self.selected is None:
            widgets = self.message_widgets()
            self.select(widgets[-1] if widgets else None)

    def clicked(self, node: Widget | None) -> None:
        while node is not None and node is not self.log and not isinstance(node, MESSAGE_TYPES):
            node = node.parent  # type: ignore[assignment]
        if isinstance(node, MESSAGE_TYPES) and getattr(node, "message_id", None) is not None:
            self.log.focus()
            self.select(node)

    def allows(self, action: str, parameters: tuple[object, ...]) -> bool:
        if action == "message" and parameters == ("prompt",):
            # Esc while a reply streams is the app's: it stops the reply
            return not getattr(self.log.parent, "streaming", False)
        return True

    def step(self, step: int) -> bool:
        """Select the message ``step`` places away; False: that is above the first one mounted."""
        widgets = self.message_widgets()
        if not widgets:
            return True
        current = self.selected
        index = widgets.index(current) + step if current in widgets else len(widgets) - 1
        if 0 <= index < len(widgets):
            self.select(widgets[index])
        return index >= 0

    def copy_code(self, number: int) -> None:
        """Copy a code block of the selected reply: ``number`` counts from 1; 0 is the last.
        Made inert first, as ctrl+o's copy is: a block may hold ESC or OSC 52 sequences."""
        from agenttui.ui.inert import inert
        from agenttui.ui.widgets.message_view import code_blocks

        widget, log = self.selected, self.log
        blocks = code_blocks(widget.text) if isinstance(widget, AssistantMessage) else []
        if not blocks:
            log.notify("No code block in this message (ctrl+o copies the whole last reply).",
                       severity="warning")
            return
        if number > len(blocks):
            log.notify(f"This message has {len(blocks)} code block(s).", severity="warning")
            return
        index = (number or len(blocks)) - 1
        text = inert(blocks[index])
        log.app.copy_to_clipboard(text)
        log.notify(f"Copied code block {index + 1} of {len(blocks)} "
                   f"({len(text.splitlines())} lines).")

    def ask(self, action: str) -> None:
        """Post what the user asked for on the selected message (the chat pane acts)."""
        widget = self.selected
        if action == "prompt" or widget is None:
            self.log.post_message(MessageAction(action, None, None, ""))
            return
        question = self.question_of(widget)
        self.log.post_message(MessageAction(
            action, widget.message_id, question.message_id if question else None,  # type: ignore[attr-defined]
            question.text if question else ""))

    # -- the navigators -----------------------------------------------------------
    def refresh_branches(self, select_id: int | None = None) -> None:
        """Read which shown messages have siblings (in a thread), then show their navigators."""
        cid = self.conversation()
        if cid is not None:
            ids = [w.message_id for w in self.message_widgets()]  # type: ignore[attr-defined]
            self.log.run_worker(partial(self._read_branches, cid, ids, select_id), thread=True,
                                group="chat-branches", exit_on_error=False)

    def _read_branches(self, cid: str, ids: list[int], select_id: int | None) -> None:
        history = self.services.history
        # one flag for a conversation that never branched; else one indexed query per message
        positions = history.branch_positions(cid, ids) if ids and history.has_branches(cid) else {}
        self.log.post_message(BranchesRead(cid, positions, select_id))

    async def show_branches(self, event: BranchesRead) -> None:
        if event.conversation_id != self.conversation():
            return
        children = self.rows()
        for index, widget in enumerate(children):
            if not isinstance(widget, MESSAGE_TYPES) or widget.message_id is None:
                continue
            after = children[index + 1] if index + 1 < len(children) else None
            nav = after if isinstance(after, BranchNav) and after.message_id == widget.message_id else None
            place = event.positions.get(widget.message_id)
            if place is None and nav is not None:
                await nav.remove()
            elif place is not None and nav is not None:
                nav.show(*place)
            elif place is not None:
                nav = BranchNav(widget.message_id, *place)
                nav.display = widget.display  # a page not shown yet: with it, not before it
                await self.log.mount(nav, after=widget)
        if event.select_id is not None:
            self.select_id(event.select_id)

    def nav_stepped(self, event: BranchNav.Step) -> None:
        event.stop()
        self.log.post_message(MessageAction("previous" if event.step < 0 else "next",
                                            event.message_id, None, ""))

    # -- the log after an edit or a regenerate -------------------------------------
    async def remove_from(self, message_id: int, *, keep_it: bool = False) -> None:
        """Remove message ``message_id`` (unless ``keep_it``, with its navigator) and all below."""
        children = self.rows()
        start = next((k for k, w in enumerate(children)
                      if isinstance(w, MESSAGE_TYPES) and getattr(w, "message_id", None) == message_id), None)
        if start is None:
            return
        if keep_it:
            start += 1
            while start < len(children) and isinstance(children[start], BranchNav):
                start += 1
        doomed = children[start:]
        if doomed:
            await self.log.remove_children(doomed)
