"""The prompt inspector (docs/memory.md): exactly what the last turn sent, and what a reply used.

Reads :func:`agenttui.agent.prompt_capture.last_prompt` -- the request as
sent (model, parameters, every message of the window with the system prompt
and its memory section first, the tool names). Shown as literal text: the
prompt holds user and model text, so it is made inert and never parsed as
markup or Markdown.

Opened from a reply's "used: …" line (or by F4, for the last reply) it lists
what that turn's first request used (:mod:`agenttui.ui.widgets.used_list`),
and each row acts: ``e`` (or Enter) edits a note or fact in place
(:class:`MemoryItemEditor`, through the gate), ``d`` forgets it after the
app's confirm dialog (Cancel focused, backup named), Enter on a past message
closes the inspector and opens its conversation at that message. The full
request is shown below the list when it belongs to the same turn (only the
last request of the session is kept). The screen answers an
:class:`InspectorResult` so the chat pane reloads memory and opens the
conversation; it never reaches into the panes itself.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static

from agenttui.core.models import WriteResult
from agenttui.core.recall.usage import RecallUsage, used_line
from agenttui.ui.escape_then_key import Handover
from agenttui.ui.host import app_parts
from agenttui.ui.inert import inert, inert_line
from agenttui.ui.screens.answer_once import dismiss_once
from agenttui.ui.widgets.memory_item_editor import MemoryItemEditor, apply_edit
from agenttui.ui.widgets.used_list import UsedList, UsedRow

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

USED_KEYS = "e edit · d forget · Enter open/edit · Esc close"


@dataclass(frozen=True)
class InspectorResult:
    """What the caller should do once the inspector closes."""

    memory_changed: bool = False  # a note or fact was edited or forgotten: reload memory views
    open_message: tuple[str, int] | None = None  # (conversation id, message id) to open


def describe(prompt) -> str:
    """The captured request as readable text (one block per message)."""
    if prompt is None:
        return "No turn has been sent yet in this session."
    params = ", ".join(f"{k}={v}" for k, v in sorted(prompt.params.items()))
    lines = [f"model: {prompt.model}" + (f"   ({params})" if params else "")]
    tools = [t.get("function", {}).get("name", "?") for t in prompt.tools]
    lines.append(f"tools: {', '.join(tools) if tools else '(none)'}")
    lines.append(f"memory items injected: {len(prompt.injected_memory)}")
    lines.append(f"messages: {len(prompt.messages)}")
    for index, message in enumerate(prompt.messages):
        role = message.get("role", "?")
        content = message.get("content")
        if isinstance(content, list):  # text + image parts
            content = "\n".join(part.get("text", "[image]") if part.get("type") == "text" else "[image]"
                                for part in content)
        lines.append(f"\n── {index}: {role} " + "─" * 40)
        if content:
            lines.append(str(content))
        for call in message.get("tool_calls") or []:
            function = call.get("function", {})
            lines.append(f"→ tool call {function.get('name')}({function.get('arguments')})")
        if message.get("tool_call_id"):
            lines.append(f"(result of {message['tool_call_id']})")
    return inert("\n".join(lines))


def usage_text(history, prompt) -> str:
    """The model, tokens and cost of each reply of the request's turn, and their sum ("" if none)."""
    cid, turn = getattr(prompt, "conversation_id", ""), getattr(prompt, "turn_id", "")
    if history is None or not cid or not turn:
        return ""
    try:
        replies = history.turn_usage(cid, turn)
    except Exception:  # noqa: BLE001 -- a store problem costs this block, never the inspector
        return ""
    if not replies:
        return ""
    from agenttui.core.usage.message_usage import format_cost

    lines = ["usage of this turn's replies:"]
    lines += [f"  #{mid}  {usage.describe()}" for mid, usage in replies]
    if len(replies) > 1:
        costs = [u.cost for _, u in replies if u.cost is not None]
        tokens = sum(u.total_tokens for _, u in replies)
        lines.append(f"  turn: {tokens:,} tokens · {format_cost(sum(costs)) if costs else 'no price known'}")
    return inert("\n".join(lines)) + "\n\n"


class PromptInspectorScreen(ModalScreen[InspectorResult | None]):
    DEFAULT_CSS = """
    PromptInspectorScreen { align: center middle; }
    PromptInspectorScreen #inspector {
        width: 95%; height: 90%; border: thick $primary; background: $surface;
    }
    PromptInspectorScreen #used-summary { padding: 0 1; height: auto; text-style: bold; }
    PromptInspectorScreen #used-editor { display: none; border: round $accent; }
    PromptInspectorScreen #inspector-scroll { height: 1fr; }
    PromptInspectorScreen #inspector-body { padding: 0 1; }
    PromptInspectorScreen .-with-used #inspector-scroll { border-top: solid $primary; }
    """
    BINDINGS = [
        Binding("escape,q", "close", "Close", id="inspector.close"),
        Binding("e", "edit", "Edit note", id="inspector.edit"),
        Binding("d,delete", "forget", "Forget note", id="inspector.forget"),
    ]

    def __init__(self, prompt, usage: RecallUsage | None = None, *, services: Services | None = None) -> None:
        super().__init__()
        self.prompt = prompt
        self.usage = usage if usage is not None and not usage.empty else None
        self.services = services
        self.memory_changed = False
        self._handover = Handover()

    def compose(self) -> ComposeResult:
        with Vertical(id="inspector") as box:
            if self.usage is None:
                box.border_title = "Prompt inspector — the last request sent"
            else:
                box.border_title = "Prompt inspector — what this reply used"
                box.add_class("-with-used")
                box.border_subtitle = USED_KEYS
                yield Static(Content(used_line(self.usage)), id="used-summary")
                yield UsedList(self.usage, id="used-list")
                yield MemoryItemEditor(id="used-editor")
            with VerticalScroll(id="inspector-scroll"):
                yield Static(Content(self._body()), id="inspector-body")

    def _body(self) -> str:
        if self.usage is not None and getattr(self.prompt, "turn_id", None) != self.usage.turn_id:
            return ("The full request is kept for the last turn of this session only; "
                    "F4 after the latest reply shows it.")
        services = self.services or app_parts(self).services  # F4 opens it without them
        return usage_text(services.history, self.prompt) + describe(self.prompt)

    def on_mount(self) -> None:
        if self.usage is not None:
            self.query_one(UsedList).focus()

    def on_key(self, event: events.Key) -> None:
        # Esc and the next key typed at once reach us as one alt+key (escape_then_key.py)
        self._handover.on_key(self.app, event, self.action_close)

    # -- actions ----------------------------------------------------------------
    def action_close(self) -> None:
        self.dismiss(InspectorResult(self.memory_changed) if self.memory_changed else None)

    def _row(self) -> UsedRow | None:
        lists = self.query(UsedList)
        return lists.first().current if lists else None

    @on(OptionList.OptionSelected, "#used-list")
    async def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        row = self._row()
        if row is None:
            return
        if row.kind == "message":
            await self._open_message(row)
        elif row.is_memory:
            await self.action_edit()
        else:
            self.notify("Project entries are edited in the project notes (F10).", title="Project memory")

    async def _open_message(self, row: UsedRow) -> None:
        if row.conversation_id is None or row.message_id is None or self.services is None:
            return
        found = await asyncio.to_thread(self.services.history.get_conversation, row.conversation_id)
        if found is None:
            self.notify("That conversation was deleted.", title="Not found", severity="warning")
            return
        dismiss_once(self, InspectorResult(self.memory_changed, (row.conversation_id, row.message_id)))

    @property
    def _services(self) -> Services:
        """The services, for the memory actions (``_memory_row`` lets them run only with them)."""
        assert self.services is not None
        return self.services

    def _memory_row(self, verb: str) -> UsedRow | None:
        row = self._row()
        if row is None or self.services is None:
            return None
        if not row.is_memory:
            self.notify(f"Only notes and facts can be {verb} here.", severity="warning")
            return None
        if row.forgotten:
            self.notify("Already forgotten.", severity="warning")
            return None
        return row

    async def action_edit(self) -> None:
        row = self._memory_row("edited")
        if row is None or row.item_id is None:
            return
        memory = self._services.memory
        item = await asyncio.to_thread(memory.get, row.item_id)
        if item is None:
            archived = await asyncio.to_thread(memory.archived, "all")
            if any(i.id == row.item_id for i in archived):
                self.notify("This one is archived: it can be forgotten (d), not edited.", severity="warning")
            else:
                self.notify("That item no longer exists.", severity="warning")
            return
        self.query_one(MemoryItemEditor).start(item)

    @on(MemoryItemEditor.EditSubmitted)
    async def _edit_submitted(self, event: MemoryItemEditor.EditSubmitted) -> None:
        event.stop()
        event.editor.stop()
        used = self.query_one(UsedList)
        used.focus()
        row = used.current
        try:
            result: WriteResult = await asyncio.to_thread(apply_edit, self._services.memory, event.item, event.text)
        except Exception as exc:  # the gate / store explains itself (empty edit, unknown id ...)
            self.notify(str(exc) or type(exc).__name__, title="Memory edit failed", severity="error")
            return
        if not result.ok:
            self.notify(result.reason or "rejected", title="Not changed", severity="error")
            return
        self.memory_changed = True
        if row is not None and result.item is not None and not getattr(result, "pending", False):
            used.item_edited(row, result.item)
        self.notify(inert_line(result.item.display if result.item else event.text, 120)
                    + (f"\n{result.reason}" if result.reason else ""), title="Memory updated")

    @on(MemoryItemEditor.EditCancelled)
    def _edit_cancelled(self, event: MemoryItemEditor.EditCancelled) -> None:
        event.stop()
        event.editor.stop()
        self.query_one(UsedList).focus()

    async def action_forget(self) -> None:
        row = self._memory_row("forgotten")
        if row is None or row.item_id is None:
            return
        from agenttui.ui.screens.confirm import ConfirmScreen

        screen = ConfirmScreen(
            f"Forget this {row.kind}?", inert_line(row.text, 300),
            backup=self._services.paths.memory_backups_dir, confirm_label="Forget")

        async def answered(confirmed: bool | None) -> None:
            if confirmed:
                await self._forget(row)

        self.app.push_screen(screen, answered)

    async def _forget(self, row: UsedRow) -> None:
        try:
            removed = await asyncio.to_thread(self._services.memory.remove, [row.item_id or ""])
        except OSError as exc:
            self.notify(str(exc), title="Memory not changed", severity="error")
            return
        if not removed:
            self.notify("That item no longer exists.", severity="warning")
            return
        self.memory_changed = True
        self.query_one(UsedList).item_forgotten(row)
        self.notify(inert_line(removed[0].display, 100), title=f"Forgot {len(removed)} item(s)")
