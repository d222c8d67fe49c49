"""App bindings whose work a pane does (``ActionSpec.target`` in :mod:`agenttui.ui.bindings`).

Such a binding stays the app's: its key works wherever the focus is, and the footer, ``/help``,
the palette and ``[keys]`` read the one table. The app holds no ``action_*`` that only calls the
pane, though: its dispatch hands the action to the method the table names, on the pane it names.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from agenttui.ui.bindings import ActionSpec



async def run_targeted(spec: ActionSpec, find_target: Callable[[str], object], params: tuple[Any, ...]) -> bool:
    """Run ``spec``'s method on its target, awaiting it if it is a coroutine; True: handled."""
    result = getattr(find_target(spec.target), spec.method)(*params)
    if inspect.isawaitable(result):
        await result
    return True
