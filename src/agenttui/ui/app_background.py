"""Thread work the app starts and forgets: indexing history for semantic recall (for the app's
whole life) and saving a theme chosen with the palette or F-keys.

Plain functions over the app, so ``AgentTUI`` stays a list of what happens when, not how.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App
    from textual.theme import Theme

    from agenttui.bootstrap import Services

INDEXER_GROUP = "embeddings"  # never "done": tests and scripts that wait for workers leave it out


def start_history_indexer(app: App[Any], services: Services, *, paused: Callable[[], bool]) -> None:
    """Semantic recall: embed the history in the background (core/recall/semantic.py) until exit.

    ``paused``: while true nothing is written, not even vectors (incognito).
    """

    def index() -> None:
        from textual.worker import get_current_worker

        from agenttui.core.recall.semantic import run_background

        worker = get_current_worker()

        def notify(text: str) -> None:
            if not worker.is_cancelled:
                app.call_from_thread(app.notify, text, title="Semantic recall", severity="warning", timeout=10)

        run_background(services, stop=worker.cancelled_event, notify=notify, paused=paused,
                       alive=lambda: app.is_running)  # ends with the app, cancelled or not

    app.run_worker(index, name="index-history", group=INDEXER_GROUP, thread=True, exclusive=True,
                   exit_on_error=False)


def save_theme_choice(app: App[Any], services: Services, theme: Theme) -> None:
    """Keep ``theme`` as the user's choice in config.toml (in a thread; a failure is a notice)."""
    if services.base_settings.theme == theme.name:
        return
    services.settings = dataclasses.replace(services.settings, theme=theme.name)
    services.base_settings = dataclasses.replace(services.base_settings, theme=theme.name)
    if services.config_error:
        app.notify("config.toml has an error, so the theme choice was not saved.", severity="warning")
        return

    def save() -> None:
        from agenttui.core.config.file import save_settings

        try:
            save_settings(services.paths, services.base_settings)
        except OSError as exc:
            app.call_from_thread(app.notify, str(exc), title="Settings not saved", severity="error")

    app.run_worker(save, name="save-settings", group="save-settings", thread=True, exclusive=True)
