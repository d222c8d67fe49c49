"""Resetting memory (``/reset-memory``, the palette): state the counts, back up first,
type 'delete' to confirm. ``u`` in the Memory pane then offers to put the
snapshot back (``MemoryStore.restore_snapshot``), asking first.

``scope`` (user, profile, all) is the one to empty; without it the dialog
offers the three, both scopes first. A scope with nothing in it is said to be
empty, with no dialog and no backup.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from textual.app import App

    from agenttui.bootstrap import Services


async def reset_memory(app: App[Any], services: Services, scope: str = "") -> bool:
    """Run in a worker (it waits for the dialog). True when memory was reset."""
    from agenttui.ui.screens.confirm import ConfirmScreen

    memory = services.memory

    def counts(scope: Literal["user", "profile"]) -> tuple[int, str]:
        items = memory.items(scope)
        notes = sum(item.kind == "note" for item in items)
        return len(items), f"{notes} note(s) and {len(items) - notes} fact(s)"

    (users, user), (profiles, profile) = await asyncio.gather(
        asyncio.to_thread(counts, "user"), asyncio.to_thread(counts, "profile"))
    name = services.profile_name
    sizes = {"all": users + profiles, "user": users, "profile": profiles}
    choices: tuple[tuple[str, str, str], ...] = (
        ("all", "both scopes", f"This removes {user} of the user scope and {profile} of profile {name!r}."),
        ("user", "user scope only", f"This removes {user} of the user scope (every profile's)."),
        ("profile", f"profile {name!r} only", f"This removes {profile} of profile {name!r}."),
    )
    if scope:
        choices = tuple(c for c in choices if c[0] == scope)
    if not sizes[choices[0][0] if scope else "all"]:
        where = {"all": "", "user": " (user scope)", "profile": f" (profile {name!r})"}[scope or "all"]
        app.notify(f"Memory is already empty{where}: nothing to reset.", title="Reset memory")
        return False
    dialog = ConfirmScreen("Reset memory?", choices[0][2], backup=services.paths.memory_backups_dir,
                           require_word="delete", confirm_label="Reset memory",
                           choices=choices if len(choices) > 1 else ())
    if not await app.push_screen_wait(dialog):
        return False
    chosen = dialog.choice or choices[0][0]
    if not sizes[chosen]:
        app.notify("That scope is already empty: nothing was reset.", title="Reset memory")
        return False
    try:
        backup = await asyncio.to_thread(memory.reset, chosen)  # type: ignore[arg-type]
    except OSError as exc:
        app.notify(str(exc), title="Memory not reset", severity="error")
        return False
    from agenttui.ui.widgets.memory_pane import MemoryPane

    for pane in app.screen.query(MemoryPane):  # its u puts the snapshot back (asking first)
        pane.remember_reset(backup, chosen)
    app.notify(f"Backup: {backup}\nPress u in the Memory pane to undo.", title="Memory reset")
    return True

