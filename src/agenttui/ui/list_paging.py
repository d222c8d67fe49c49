"""PageUp/PageDown on a Textual ``OptionList`` that has no lines laid out.

``OptionList`` pages through a map from option to line that it builds only while
it has a size: focused in a dialog as the terminal shrinks to nothing for it (a
resize to 40x12 in a key storm), or just mounted, the map is empty and paging
raised ``KeyError`` from the app's own key handling, which ended the app. There
is nothing to page then, so the key does nothing. (The command palette hands its
list keys over by another path: :mod:`agenttui.ui.command_palette`.)
"""

from __future__ import annotations

from textual.widgets import OptionList

PAGING = frozenset({"page_up", "page_down"})


def paging_unlaid_list(namespace: object, action_name: str, error: BaseException) -> bool:
    """True when ``error`` is that ``KeyError``: an ``OptionList`` paged with no lines."""
    return isinstance(error, KeyError) and action_name in PAGING and isinstance(namespace, OptionList)
