"""A tool call in the chat: one line (name, argument summary, status), expandable.

Arguments and output are untrusted: shown inert, as literal Content.
"""

from __future__ import annotations

import json

from textual.content import Content
from textual.widgets import Collapsible, Static

from agenttui.core.models import ToolCall
from agenttui.ui.inert import exact_line, inert, inert_line

_STATUS = {"running": "…", "ok": "✓", "failed": "✗", "denied": "denied", "waiting": "awaiting approval",
           "not run": "not run", "stopped": "stopped while running"}


def summarize_arguments(arguments: str, limit: int = 60) -> str:
    """``{"command": "ls -la"}`` -> ``command=ls -la``; invalid JSON is shown as is."""
    try:
        data = json.loads(arguments or "{}")
    except ValueError:
        return inert_line(arguments, limit)
    if isinstance(data, dict):
        text = ", ".join(f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in data.items())
    else:
        text = json.dumps(data)
    return inert_line(text, limit)


class ToolCallView(Collapsible):
    DEFAULT_CSS = """
    ToolCallView { margin: 0; padding: 0; border-top: none; background: transparent; }
    ToolCallView > Contents { padding: 0 0 0 2; }
    ToolCallView .output { color: $text-muted; }
    """

    def __init__(self, call: ToolCall, status: str = "running", output: str = "") -> None:
        self.call = call
        self.status = status
        # Content, not markup: a tool name or argument is never parsed as styles. Collapsible's
        # hint says str; it hands the title to CollapsibleTitle(label: str | Content).
        super().__init__(
            Static(Content(inert(call.arguments)), classes="arguments"),
            Static(Content(inert(output)), classes="output"),
            title=self._heading(), collapsed=True,  # type: ignore[arg-type]
        )

    def _heading(self) -> Content:
        # The status before the arguments: the heading is one line, and after a long argument
        # summary a narrow chat cut it off (a denied command showed no "denied").
        status = (f" {_STATUS.get(self.status, self.status)} ", "italic")
        arguments = f"({summarize_arguments(self.call.arguments)})"
        from agenttui.mcp.bridge import split_name

        mcp = split_name(self.call.name)  # mcp__server__tool: the server's name first, then the tool
        if mcp is not None:
            return Content.assemble(
                ("⚙ ", "dim"), (f"{exact_line(mcp[0], 24)} › ", "italic"), (exact_line(mcp[1], 40), "bold"),
                (" (MCP)", "dim"), status, arguments,
            )
        return Content.assemble(("⚙ ", "dim"), (exact_line(self.call.name, 40), "bold"), status, arguments)

    def set_status(self, status: str, output: str = "") -> None:
        self.status = status
        self.title = self._heading()  # type: ignore[assignment]
        for static in self.query(".output").results(Static):
            static.update(Content(inert(output)))
