"""The multi-line prompt: Enter sends, ctrl+j (or shift+enter) inserts a newline.

Input history: Up on the first line recalls the previous entry, Down on the
last line the next one (so moving inside a multi-line draft still works). The
draft being typed is kept while browsing and restored after the newest entry.

Order of keys: Textual runs a widget's (non-priority) key bindings only when
the key has bubbled up to the App, through every ancestor's queue, while the
characters typed after it are inserted by this widget straight away. In a
burst (a paste without bracketed paste, ``tmux send-keys``, keys held during
start-up) "nexy<Backspace>t" then became "nexy". So this widget runs its own
bindings (Backspace, arrows, ctrl+w, Tab, ...) as it receives the key, in
turn with the characters; precedence is unchanged (the focused widget's
bindings win over its ancestors' in Textual too).

A long paste is kept aside: a pasted text over ``PASTE_INLINE_MAX`` characters
shows as one line, ``[pasted text #1: 1,000,000 characters]``, and the message
sent holds the text itself in its place (:meth:`PromptInput.message_text`).
Textual's ``TextArea`` re-wraps its document on every edit, so a megabyte in
it made each key typed after the paste take most of a second (a bare Textual
``TextArea`` too), and the screen could not show it usefully anyway. Deleting
the line drops the paste; the token can be moved and typed around like text.

Characters typed in a burst are inserted as one edit. Each edit re-wraps the
line it touches, so a paste that arrives as keys (no bracketed paste: some
terminals, an ssh hop, ``tmux paste-buffer``) cost the square of its length:
30,000 characters froze the app for minutes, as a bare ``TextArea`` does.
A character is kept in ``_typed`` and a callback queued behind the keys
already waiting inserts them all; anything else that edits or reads the text
(a bound key, Enter, ctrl+j, a paste, recalling history) inserts them first, so
the order of a burst is the order typed. A lone key costs one queued callback.
"""

from __future__ import annotations

import re
import time

from textual import events
from textual.message import Message
from textual.widget import Widget
from textual.widgets import TextArea

from agenttui.ui.bindings import COMMAND_KEY_PREFIXES, PROMPT_ACTIONS, to_bindings
from agenttui.ui.escape_then_key import merged_character, press_escape, typed_after_escape
from agenttui.ui.host import app_parts
from agenttui.ui.survivable_errors import dispatch_guarded
from agenttui.ui.typed_text import paste_newlines

PASTE_INLINE_MAX = 5_000  # characters: a longer paste is kept aside, shown as one line
_PASTE_TOKEN = re.compile(r"\[pasted text #(\d{1,6}): [\d,]{1,16} characters\]")


class PromptInput(TextArea):
    DEFAULT_CSS = """
    PromptInput { height: auto; min-height: 3; max-height: 10; }
    """
    BINDINGS = to_bindings(PROMPT_ACTIONS)

    class Submitted(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class CompletionRequested(Message):
        """Tab was pressed; the chat pane completes a slash command if one is shown."""

    async def _on_message(self, message: Message) -> None:
        # a bug in one handler is a notice; this widget keeps its loop and stays (survivable_errors)
        await dispatch_guarded(self, message, super()._on_message)

    def __init__(self, **kwargs) -> None:
        super().__init__(soft_wrap=True, show_line_numbers=False, tab_behavior="focus", **kwargs)
        self.sent_history: list[str] = []
        self._history_index: int | None = None  # None = editing the draft
        self._draft = ""
        self.pastes: dict[int, str] = {}  # long pastes kept aside, by their token's number
        self._typed: list[str] = []  # characters of a burst not inserted yet (module doc)
        self.typed_at = 0.0  # time.monotonic() of the last key: a streaming reply's repaint waits

    async def _on_paste(self, event: events.Paste) -> None:
        # Runs before TextArea's own _on_paste; a short paste goes on to it unchanged.
        if len(event.text) == 1 and not self.read_only:
            # a key the app hands over as a paste (a full-width space, a joiner: typed_text) is
            # typed with the burst around it, not an edit of its own: each edit re-wraps the line
            event.stop()
            event.prevent_default()
            self._type(event.text)
            return
        self.insert_typed()
        if len(event.text) <= PASTE_INLINE_MAX or self.read_only:
            return
        event.prevent_default()  # TextArea's handler would insert the whole text
        event.stop()
        number = len(self.pastes) + 1
        text = paste_newlines(event.text)  # a terminal's CR line breaks, as TextArea makes them
        self.pastes[number] = text
        self.insert(f"[pasted text #{number}: {len(text):,} characters]")
        self.focus()

    def message_text(self, text: str | None = None) -> str:
        """``text`` (the prompt's own by default) with each paste token replaced by its paste."""
        shown = self.text if text is None else text
        if not self.pastes or "[pasted text #" not in shown:
            return shown
        return _PASTE_TOKEN.sub(lambda m: self.pastes.get(int(m.group(1)), m.group(0)), shown)

    async def _on_key(self, event: events.Key) -> None:
        # Runs before TextArea's own _on_key (which only inserts characters).
        self.typed_at = time.monotonic()
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            if binding.priority:
                continue  # the App ran it before handing the key over
            if binding.id and event.key not in self._effective_keys(binding.id):
                continue  # remapped in [keys]: the new key goes the usual way
            event.stop()  # not again when it would have reached the App
            event.prevent_default()
            self.insert_typed()
            await self.run_action(binding.action)
            return
        if merged_character(event) is not None and await self._escape_merged(event):
            return
        if event.key.startswith(COMMAND_KEY_PREFIXES):
            # alt+i from a terminal comes with the character "i": it is a binding's key, not
            # text (TextArea would insert the "i"); it goes on to the app's bindings
            self.insert_typed()
            event.prevent_default()
            return
        if event.is_printable and event.character and not self.read_only:
            event.stop()
            event.prevent_default()
            self._type(event.character)
            return
        self.insert_typed()  # TextArea's own keys (enter when not bound, tab) see what came before

    def _type(self, character: str) -> None:
        if self.read_only:
            return
        if not self._typed:
            self.call_later(self.insert_typed)  # behind the keys already queued
        self._typed.append(character)

    async def _escape_merged(self, event: events.Key) -> bool:
        """Esc and the next key typed at once (escape_then_key.py): Esc's binding runs now
        (cancel the streaming reply, leave an edit), before the keys typed after it, and the
        character is typed, not lost. True when ``event`` was that."""
        bindings = self.screen.active_bindings
        after = typed_after_escape(event, bindings, empty=not self.text and not self._typed)
        if after is None:
            return False
        event.stop()
        event.prevent_default()
        self.insert_typed()
        await press_escape(self.app, bindings)
        if after:
            self._type(after)
        return True

    def insert_typed(self) -> None:
        """Insert the characters typed so far as one edit, over the selection as a key would."""
        if not self._typed:
            return
        text = "".join(self._typed)
        self._typed.clear()
        if not self.read_only:
            self.replace(text, *self.selection, maintain_selection_offset=False)

    def _effective_keys(self, binding_id: str) -> list[str]:
        return [k.strip() for k in app_parts(self).key_for(binding_id).split(",")]

    # -- sending -------------------------------------------------------------
    # Enter is a *priority* binding (it must beat TextArea's own newline), and
    # priority bindings run when the App sees the key -- while keys typed just
    # before it may still wait in this widget's queue (a fast typist, a paste
    # without bracketed-paste, tmux send-keys). ``call_later`` queues the work
    # behind them, so "hello<Enter>" in one burst sends "hello", not "".
    def action_to_messages(self) -> None:
        """Shift+tab: to the chat's messages with the newest selected, not to the widget before
        the prompt (the newest reply's "used" line, where the message keys do nothing)."""
        log = self._chat_log()
        cursor = getattr(log, "cursor", None)  # ChatLog's MessageCursor (not imported: an import circle)
        newest = cursor.message_widgets() if cursor is not None else []
        if log is None or cursor is None or not newest:
            self.screen.focus_previous()
            return
        cursor.select(newest[-1])
        log.focus()

    def action_submit(self) -> None:
        self.call_later(self._submit_now)

    def action_newline(self) -> None:
        self.call_later(self._newline_now)

    def _newline_now(self) -> None:
        self.insert_typed()
        self.insert("\n")

    def _submit_now(self) -> None:
        self.insert_typed()
        text = self.text
        if not text.strip():
            return
        if not self.sent_history or self.sent_history[-1] != text:
            self.sent_history.append(text)
        self._history_index = None
        self._draft = ""
        self.clear()
        self.post_message(self.Submitted(self.message_text(text)))

    def action_complete(self) -> None:
        self.post_message(self.CompletionRequested())

    # -- paging the chat ------------------------------------------------------
    # PageUp/PageDown in the prompt page the conversation, as in an IRC client's input line or a
    # messaging app: the prompt is a line or two and has nothing to page through. A draft taller
    # than the prompt's view (a long paste) keeps TextArea's own paging, as Up at the first line
    # recalls sent messages and moves the cursor otherwise.
    def action_cursor_page_up(self) -> None:
        if not self._page_chat(up=True):
            super().action_cursor_page_up()

    def action_cursor_page_down(self) -> None:
        if not self._page_chat(up=False):
            super().action_cursor_page_down()

    def _page_chat(self, up: bool) -> bool:
        """Page the chat above, unless the draft has pages of its own; True when it did."""
        log = self._chat_log()
        if log is None or self.max_scroll_y > 0:
            return False
        (log.scroll_page_up if up else log.scroll_page_down)(animate=False)
        return True

    def _chat_log(self) -> Widget | None:
        logs = self.screen.query("ChatLog")  # by name: importing ChatLog here makes a circle
        return logs.first() if logs else None

    # -- history -------------------------------------------------------------
    def action_cursor_up(self, select: bool = False) -> None:
        if not select and self.cursor_location[0] == 0 and self.sent_history:
            self._recall(-1)
        else:
            super().action_cursor_up(select)

    def action_cursor_down(self, select: bool = False) -> None:
        last_row = self.document.line_count - 1
        if not select and self.cursor_location[0] == last_row and self._history_index is not None:
            self._recall(+1)
        else:
            super().action_cursor_down(select)

    def _recall(self, step: int) -> None:
        if self._history_index is None:
            if step > 0:
                return
            self._draft = self.text
            index = len(self.sent_history) - 1
        else:
            index = self._history_index + step
        if index < 0:
            return
        if index >= len(self.sent_history):
            self._history_index = None
            self._set(self._draft)
            return
        self._history_index = index
        self._set(self.sent_history[index])

    def _set(self, text: str) -> None:
        self.load_text(text)
        self.move_cursor(self.document.end)
