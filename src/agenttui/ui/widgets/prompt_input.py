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
"""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widgets import TextArea

from agenttui.ui.bindings import PROMPT_ACTIONS, to_bindings
from agenttui.ui.survivable_errors import dispatch_guarded


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

    async def _on_key(self, event: events.Key) -> None:
        # Runs before TextArea's own _on_key (which only inserts characters).
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            if binding.priority:
                continue  # the App ran it before handing the key over
            if binding.id and event.key not in self._effective_keys(binding.id):
                continue  # remapped in [keys]: the new key goes the usual way
            event.stop()  # not again when it would have reached the App
            event.prevent_default()
            await self.run_action(binding.action)
            return

    def _effective_keys(self, binding_id: str) -> list[str]:
        key_for = getattr(self.app, "key_for", None)
        return [k.strip() for k in key_for(binding_id).split(",")] if key_for else []

    # -- sending -------------------------------------------------------------
    # Enter is a *priority* binding (it must beat TextArea's own newline), and
    # priority bindings run when the App sees the key -- while keys typed just
    # before it may still wait in this widget's queue (a fast typist, a paste
    # without bracketed-paste, tmux send-keys). ``call_later`` queues the work
    # behind them, so "hello<Enter>" in one burst sends "hello", not "".
    def action_submit(self) -> None:
        self.call_later(self._submit_now)

    def action_newline(self) -> None:
        self.call_later(self.insert, "\n")

    def _submit_now(self) -> None:
        text = self.text
        if not text.strip():
            return
        if not self.sent_history or self.sent_history[-1] != text:
            self.sent_history.append(text)
        self._history_index = None
        self._draft = ""
        self.clear()
        self.post_message(self.Submitted(text))

    def action_complete(self) -> None:
        self.post_message(self.CompletionRequested())

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
