"""The prompt inspector (M5): exactly what the last turn sent.

Reads :func:`agenttui.agent.prompt_capture.last_prompt` -- the request as
sent (model, parameters, every message of the window with the system prompt
and its memory section first, the tool names). Shown as literal text: the
prompt holds user and model text, so it is made inert and never parsed as
markup or Markdown.
"""

from __future__ import annotations

import json

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from agenttui.ui.inert import inert


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


class PromptInspectorScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    PromptInspectorScreen { align: center middle; }
    PromptInspectorScreen #inspector {
        width: 95%; height: 90%; border: thick $primary; background: $surface;
    }
    PromptInspectorScreen #inspector-body { padding: 0 1; }
    """
    BINDINGS = [Binding("escape,q", "close", "Close", id="inspector.close")]

    def __init__(self, prompt) -> None:
        super().__init__()
        self.prompt = prompt

    def compose(self) -> ComposeResult:
        with Vertical(id="inspector") as box:
            box.border_title = "Prompt inspector — the last request sent"
            with VerticalScroll():
                yield Static(Content(describe(self.prompt)), id="inspector-body")

    def action_close(self) -> None:
        self.dismiss(None)


def as_json(prompt) -> str:
    """The raw request (for copying)."""
    return json.dumps({"model": prompt.model, "messages": prompt.messages, **prompt.params}, indent=2)
