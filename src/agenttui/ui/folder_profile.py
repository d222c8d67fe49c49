"""The offer of a profile for a project folder.

Started inside a git repository that no profile is bound to, agenttui used to
put the project's history and memory into ``default`` without a word. Now one
toast says so once the panes are up and names the key that makes a profile for
the folder: the Profiles dialog opens with the repository's name filled in and
"bind to this folder" ticked for the repository's root, so Enter creates it,
binds it and switches to it (a profile created in the dialog becomes the active
one). Nothing is created without that key: a folder may well belong in
``default``. Outside a repository, in the home folder, or with a folder bound to
any profile (``default`` included), nothing is offered.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agenttui.bootstrap import Services


def project_folder(workdir: Path) -> Path:
    """The folder a profile for ``workdir`` is bound to: its repository's root, else itself."""
    from agenttui.core.context.repo_instructions import repository_root

    try:
        here = workdir.resolve()
    except OSError:
        return workdir
    return repository_root(here) or here


def unbound_project(services: Services) -> Path | None:
    """The repository root to offer a profile for, or None (see the module doc)."""
    from agenttui.core.context.repo_instructions import repository_root

    if services.profile_name != "default":
        return None
    try:
        here = services.workdir.resolve()
        root = repository_root(here)
        if root is None or root in (Path.home().resolve(), Path(root.anchor)):
            return None
        for profile in services.profiles.list():  # a binding of any profile, default's too, is a choice
            for bound in profile.paths:
                folder = Path(bound).expanduser().resolve()
                if folder == here or folder in here.parents:
                    return None
    except (OSError, ValueError):
        return None
    return root


def suggested_name(folder: Path) -> str:
    """A valid profile name from the folder's name (letters, digits, '.', '_', '-')."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", folder.name).strip("-._")[:64]
    return name or "project"


def offer_folder_profile(app, services: Services) -> None:  # noqa: ANN001 -- the AgentTUI, untyped: no import circle
    """Look in a thread (a few stats and the profiles' files), then say it with one toast."""

    def look() -> None:
        root = unbound_project(services)
        if root is not None:
            app.call_from_thread(say, root)

    def say(root: Path) -> None:
        key = app.key_for("app.open_profiles")
        app.notify(f"{root.name} is a project folder without a profile of its own: its chats and "
                   f"memory go to 'default'. {key} makes a profile bound to it and switches to it.",
                   title="Profile for this folder?", timeout=20)

    app.run_worker(look, thread=True, group="folder-profile", exit_on_error=False)
