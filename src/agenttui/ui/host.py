"""What the widgets may ask of the app, as a typed protocol instead of ``getattr`` probes.

The widgets cannot import :class:`agenttui.ui.app.AgentTUI` (the app imports the
main screen, which builds the panes: an import circle), so they see the app
through :class:`AppParts`. ``app.py`` checks, under mypy, that ``AgentTUI``
has every member listed here; :func:`app_parts` is the one place that says
"this widget runs inside agenttui's app".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

from textual.app import App

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from agenttui.bootstrap import Services
    from agenttui.ui.header_line import UsageLabel


class HeldKeys(Protocol):
    """The app's type-ahead (``startup.TypeAhead``), as the main screen uses it while it
    swaps the first frame's slots for the panes (startup imports the prompt, which reads
    its keys through this module: no import of startup here)."""

    def quiet_for(self, since: float) -> float: ...
    def close_early(self) -> None: ...
    def carry_over(self, early: Any, prompt: Any) -> None: ...  # the early prompt -> the PromptInput


class AppParts(Protocol):
    services: Services  # the profile's stores, settings and paths
    incognito: bool  # the header's badge
    context_meter: str | None  # "context 3.2k/16k" of the chat's last prompt
    usage_total: UsageLabel | None  # "Σ 1.2k tok · $0.003" of the open conversation
    chat_model: str | None  # the open conversation's own model (/model); None: the default

    @property
    def type_ahead(self) -> HeldKeys:
        """Keys typed before the real prompt was there."""
        ...

    def key_for(self, binding_id: str) -> str:
        """The key bound to ``binding_id`` now (``[keys]`` remaps it)."""
        ...

    def refresh_header(self) -> None: ...

    def notify_failure(self, message: str, title: str = "Could not complete") -> None:
        """An error toast, once per text while it is on screen."""
        ...

    @property
    def turn_preparation_started(self) -> bool:
        """The app has begun preparing the first turn (imports, client, caches)."""
        ...

    async def first_turn_ready(self, timeout: float = 15.0) -> None: ...

    @property
    def panes_ready(self) -> bool:
        """The main screen's real panes are mounted (not the first frame's slots)."""
        ...

    def show_pane(self, name: str) -> None:
        """Show a side pane without moving the focus."""
        ...

    def reload_memory_pane(self, _result: object = None) -> None:
        """After a screen that may have changed memory (the audit, a reset)."""
        ...

    def switch_profile(self, name: str | None) -> None:
        """Use profile ``name`` (a reply streaming stops first and is saved in this one)."""
        ...


def app_parts(node: DOMNode) -> AppParts:
    """The running app, as the widgets see it (every screen and pane runs inside ``AgentTUI``).
    Given the app itself, no context is read: MCP's threads ask whether the chat is incognito."""
    return cast("AppParts", node if isinstance(node, App) else node.app)
