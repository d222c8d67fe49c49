"""The line above the prompt that shows messages queued while a reply streams.

A message sent (Enter) while a reply streams is queued, not dropped: this line
shows it, and it is sent when the reply ends (finished, cancelled or failed),
the next one after that reply, and so on. Opening or starting another
conversation puts queued text back into the prompt (:func:`back_to_prompt`)
instead of sending it somewhere the user did not write it for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets import Static

from agenttui.ui.inert import inert_line

if TYPE_CHECKING:
    from agenttui.ui.widgets.prompt_input import PromptInput


class QueuedLine(Static):
    def show(self, queued: list[str]) -> None:
        if queued:
            what = " · ".join(f"“{inert_line(text, 80)}”" for text in queued)
            head = "Queued" if len(queued) == 1 else f"{len(queued)} queued"
            self.update(f"⏳ {head}, sent when this reply ends: {what}")
        self.set_class(bool(queued), "-shown")


def back_to_prompt(texts: list[str], prompt: PromptInput) -> None:
    """Queued ``texts`` go back into the prompt, above what it holds."""
    draft = prompt.text
    prompt.load_text("\n".join(texts + ([draft] if draft.strip() else [])))
    prompt.move_cursor(prompt.document.end)
