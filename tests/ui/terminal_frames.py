"""What a terminal shows during a Pilot test: every update the app sends, fed to a pyte screen.

Pilot's headless driver writes nothing, and the compositor's ``render_strips`` draws the screen
afresh from the widget tree, which is not what was sent: a region the app forgot to repaint looks
right there and wrong on a real terminal. Watching the updates themselves catches that, and a
frame that showed something for one refresh only (a blank chat between two pages).
"""

from __future__ import annotations

from collections.abc import Callable

import pyte
from textual.app import App
from textual.widget import Widget


class TerminalFrames:
    def __init__(self, app: App, size: tuple[int, int]) -> None:
        from textual._compositor import CompositorUpdate

        self.screen = pyte.Screen(*size)
        self._stream = pyte.Stream(self.screen)
        self.watchers: list[Callable[[], None]] = []
        display = app._display

        def shown(screen, renderable) -> None:  # noqa: ANN001 -- App._display's own signature
            if isinstance(renderable, CompositorUpdate):
                self._stream.feed(renderable.render_segments(app.console))
                for watch in self.watchers:
                    watch()
            display(screen, renderable)

        app._display = shown  # type: ignore[method-assign]
        app.screen.refresh(repaint=True, layout=True)  # the first frame sent whole

    def rows(self, widget: Widget) -> list[str]:
        """The rows of ``widget``'s region as the terminal shows them now."""
        region = widget.region
        return [line[region.x:region.right] for line in self.screen.display[region.y:region.bottom]]

    def text(self, widget: Widget) -> str:
        return "\n".join(self.rows(widget))
