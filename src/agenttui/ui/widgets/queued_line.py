"""The line above the prompt that shows messages queued while a reply streams.

A message sent (Enter) while a reply streams, or while a slash command still
runs (``/remember`` waiting on another process's memory lock, ``/compact``), is
queued, not dropped: this line shows it, and it is sent when the reply or the
command ends (finished, cancelled or failed), the next one after that, and so on. Opening or starting another
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
    def show(self, queued: list[str], held: list[str] | None = None, command: str | None = None) -> None:
        """``queued`` behind the reply, ``held`` behind the slash command ``command``."""
        texts = queued + (held or [])
        if texts:
            what = " · ".join(f"“{inert_line(text, 80)}”" for text in texts)
            head = "Queued" if len(texts) == 1 else f"{len(texts)} queued"
            waits_for = [name for name, waits in (("this reply", queued),
                                                  (f"/{inert_line(command or '', 30)}", held)) if waits]
            end = "ends" if len(waits_for) == 1 else "end"
            self.update(f"⏳ {head}, sent when {' and '.join(waits_for)} {end}: {what}")
        self.set_class(bool(texts), "-shown")


def back_to_prompt(texts: list[str], prompt: PromptInput) -> None:
    """Queued ``texts`` go back into the prompt, above what it holds."""
    draft = prompt.text
    prompt.load_text("\n".join(texts + ([draft] if draft.strip() else [])))
    prompt.move_cursor(prompt.document.end)
