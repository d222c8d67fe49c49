"""The MCP screen, opened by ``/mcp``.

Left: the profile's servers with their state. Right: the highlighted one's
target, tools, last error and the tail of its stderr -- all server text shown
inert (it may hold escape sequences). Keys: ``e`` enables or disables the
server for this profile (written to config.toml, started or stopped now),
``r`` lists its resources, resource templates and prompts, and Enter on one
of those closes the screen answering its text, which the chat pane puts into
the prompt (the user reads it and sends it, or not). A prompt with arguments
or a template with variables first asks for them in a small form
(:mod:`agenttui.ui.screens.mcp_arguments`; a template's URI is built by RFC
6570, :mod:`agenttui.mcp.uri_template`). The screen follows state changes live.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from agenttui.ui.escape_then_key import Handover
from agenttui.ui.inert import inert, inert_line
from agenttui.ui.screens.answer_once import dismiss_once
from agenttui.ui.screens.mcp_arguments import ArgumentField, McpArgumentsScreen

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

LISTS = (("list_resources", "resource"), ("list_resource_templates", "template"), ("list_prompts", "prompt"))

KEYS = "e enable/disable · r resources, templates & prompts · Enter insert · Esc close"


class McpScreen(ModalScreen[str | None]):
    DEFAULT_CSS = """
    McpScreen { align: center middle; }
    McpScreen > Vertical { width: 90%; height: 85%; border: round $accent; background: $surface; }
    McpScreen #servers { width: 32; height: 1fr; }
    McpScreen #detail { width: 1fr; height: 1fr; padding: 0 1; }
    McpScreen #items { height: auto; max-height: 12; display: none; }
    McpScreen #items.-visible { display: block; }
    McpScreen #keys { color: $text-muted; height: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("e", "toggle_server", "Enable/disable"),  # not "toggle": Textual's own action
        Binding("r", "items", "Resources & prompts"),
    ]

    def __init__(self, services: Services) -> None:
        super().__init__()
        self._handover = Handover()
        self.services = services
        # (kind, server, uri / uri template / prompt name, its arguments, what it says of itself)
        self._items: list[tuple[str, str, str, list[ArgumentField], str]] = []

    @property
    def manager(self) -> Any:
        from agenttui.mcp.manager import attach

        return attach(self.services)

    def compose(self) -> ComposeResult:
        with Vertical():
            with Horizontal():
                yield OptionList(id="servers")
                with VerticalScroll(id="detail"):
                    yield Static(id="info")
            yield OptionList(id="items")
            yield Static(KEYS, id="keys")

    def on_mount(self) -> None:
        manager = self.manager
        if manager is not None:
            manager.listeners.append(self._changed)
        self._refresh_list()

    def on_unmount(self) -> None:
        manager = self.manager
        if manager is not None and self._changed in manager.listeners:
            manager.listeners.remove(self._changed)

    def _changed(self, _name: str) -> None:
        self.call_later(self._refresh_list)

    def _connections(self) -> list[Any]:
        manager = self.manager
        return list(manager.connections.values()) if manager is not None else []

    def _refresh_list(self) -> None:
        servers = self.query_one("#servers", OptionList)
        keep = servers.highlighted
        servers.clear_options()
        for c in self._connections():
            servers.add_option(Option(Content.assemble((inert_line(c.server.name, 24), "bold"),
                                                       f"  {c.state}"), id=c.server.name))
        if servers.option_count:
            servers.highlighted = min(keep or 0, servers.option_count - 1)
        self._show_detail()

    def _current(self) -> Any:
        servers = self.query_one("#servers", OptionList)
        if servers.highlighted is None or not servers.option_count:
            return None
        name = servers.get_option_at_index(servers.highlighted).id
        return next((c for c in self._connections() if c.server.name == name), None)

    @on(OptionList.OptionHighlighted, "#servers")
    def _show_detail(self) -> None:
        info = self.query_one("#info", Static)
        c = self._current()
        if c is None:
            info.update(Content("No MCP servers in this profile. Add one from a shell:\n"
                                "  agenttui mcp add NAME -- COMMAND [ARGS...]"))
            return
        from agenttui.security import redact_secrets

        tools = ", ".join(t.name for t in c.tools) or "(none known yet)"
        lines = [f"{c.server.name}  [{c.server.scope} scope, {c.server.transport}]  {c.state}"
                 + (f"  ({c.server_info})" if c.server_info else ""),
                 f"target: {redact_secrets(c.server.target())}",
                 f"tools: {tools}",
                 f"restarts: {c.restarts}"]
        if c.last_error:
            lines.append(f"last error: {c.last_error}")
        tail = c.stderr_tail(4000).strip()
        lines += ["", "stderr:", tail or "(nothing)"]
        info.update(Content(inert("\n".join(lines))))

    def on_key(self, event: events.Key) -> None:
        # Esc and the next key typed at once reach us as one alt+key (escape_then_key.py)
        self._handover.on_key(self.app, event, self.action_close)

    def action_close(self) -> None:
        self.dismiss(None)

    async def action_toggle_server(self) -> None:
        c = self._current()
        if c is None or self.manager is None:
            return
        enable = not c.server.enabled
        try:
            await self.manager.set_enabled(c.server.name, enable)
        except Exception as exc:  # noqa: BLE001 -- a broken config.toml: said, nothing lost
            self.notify(str(exc), title="MCP", severity="error")
            return
        self.notify(f"{c.server.name} {'enabled' if enable else 'disabled'} in this profile", title="MCP")
        self._refresh_list()

    def action_items(self) -> None:
        c = self._current()
        if c is not None:
            self._load_items(c)

    @work(exclusive=True, group="mcp-items")
    async def _load_items(self, c: Any) -> None:
        from agenttui.mcp.uri_template import variables

        found: list[tuple[str, str, str, list[ArgumentField], str, str]] = []
        for method, kind in LISTS:
            try:
                result = await c.request(method)
            except Exception as exc:  # noqa: BLE001 -- a server without them, or down
                text = str(exc)
                if "not found" not in text.lower() and "not supported" not in text.lower():
                    self.notify(f"{c.server.name}: {kind}s: {inert_line(text, 200)}", title="MCP",
                                severity="warning")
                continue
            for entry in _entries(result, kind)[:200]:
                fields: list[ArgumentField] = []
                if kind == "resource":
                    key, label = str(entry.uri), f"resource: {entry.name} ({entry.uri})"
                elif kind == "template":
                    key = str(entry.uri_template)
                    label = f"template: {entry.name} ({key})"
                    fields = [ArgumentField(v, required=True) for v in variables(key)]
                else:
                    key = str(entry.name)
                    fields = [ArgumentField(str(a.name), str(a.description or ""), bool(a.required))
                              for a in (entry.arguments or [])]
                    label = f"prompt: {key}" + (f" ({', '.join(f.name for f in fields)})" if fields else "")
                found.append((kind, c.server.name, key, fields, str(entry.description or ""), label))
        items = self.query_one("#items", OptionList)
        items.clear_options()
        self._items = [entry[:5] for entry in found]
        for n, (*_, label) in enumerate(found):
            items.add_option(Option(Content(inert_line(label, 120)), id=str(n)))
        if not found:
            self.notify(f"{c.server.name} offers no resources, templates or prompts", title="MCP")
        items.set_class(bool(found), "-visible")
        if found:
            items.highlighted = 0
            items.focus()

    @on(OptionList.OptionSelected, "#items")
    def _insert(self, event: OptionList.OptionSelected) -> None:
        kind, server, key, fields, about = self._items[int(event.option.id or 0)]
        if not fields:
            self._fetch(kind, server, key, {})
            return

        def answered(values: dict[str, str] | None) -> None:
            if values is not None:
                self._fetch(kind, server, key, values)

        self.app.push_screen(McpArgumentsScreen(f"{server} · {kind} {key}", fields, about), answered)

    @work(exclusive=True, group="mcp-fetch")
    async def _fetch(self, kind: str, server: str, key: str, values: dict[str, str]) -> None:
        from agenttui.mcp.bridge import bound

        c = self.manager.connections[server]
        try:
            if kind in ("resource", "template"):
                if kind == "template":
                    from agenttui.mcp.uri_template import expand

                    key = expand(key, values)
                result = await c.request("read_resource", key)
                parts = [getattr(x, "text", None) or f"[binary {x.uri}]" for x in result.contents]
            else:
                result = await c.request("get_prompt", key, values or None)
                parts = [getattr(m.content, "text", "") or f"[{m.content.type}]" for m in result.messages]
        except Exception as exc:  # noqa: BLE001
            self.notify(inert_line(str(exc), 200), title=f"MCP {server}", severity="error")
            return
        from agenttui.security import redact_secrets

        text = bound("\n".join(p for p in parts if p), int(self.services.settings.agent.max_tool_output))
        dismiss_once(self, redact_secrets(text))


def _entries(result: object, kind: str) -> list:
    name = {"resource": "resources", "template": "resource_templates", "prompt": "prompts"}[kind]
    return list(getattr(result, name, None) or [])
