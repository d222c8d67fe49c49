"""What a sync wrote that the running app uses at once: the settings, the active profile's
file, themes; and the notice about conflicts a sync kept.

A sync pulled by ``/sync`` or ``[sync] auto`` may rewrite ``config.toml``, the active
profile's ``profile.toml`` or a theme file. Waiting for the next start would leave the app
running on settings another machine has replaced, with nothing saying so. So the settings
are read again in the sync's thread (as Settings' save does), the theme is re-registered and
re-applied on the UI thread, the header shows the model now in force, and a notice says what
changed and where it came from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.app import App

from agenttui.ui.host import app_parts

if TYPE_CHECKING:
    from agenttui.bootstrap import Services


@dataclass(frozen=True)
class Reloaded:
    settings: bool = False  # config.toml or the active profile's file: services.settings re-read
    themes: tuple[str, ...] = ()  # theme files written or deleted (their logical paths)
    error: str | None = None  # the new settings could not be read: the old ones stay in force

    def __bool__(self) -> bool:
        return self.settings or bool(self.themes) or self.error is not None

    def notice(self) -> str:
        parts = []
        if self.settings:
            parts.append("settings")
        if self.themes:
            parts.append("theme " + ", ".join(t.removeprefix("themes/").removesuffix(".toml") for t in self.themes))
        text = f"Another machine changed your {' and '.join(parts)}; this app uses them now."
        if self.error:
            text = f"Another machine's settings could not be applied ({self.error}); the app keeps its own."
        return text


def reload_services(services: Services, files: Sequence[str]) -> Reloaded:
    """In the sync's thread: re-read what the sync wrote. ``files``: its logical paths."""
    active = f"profiles/{services.profile_name}/profile.toml"
    themes = tuple(f for f in files if f.startswith("themes/"))
    if "config.toml" not in files and active not in files:
        return Reloaded(themes=themes)
    try:
        if active in files:
            profile = services.profiles.get(services.profile_name)
            if profile is not None:  # deleted on the other machine: the running app keeps it
                services.profile = profile
        services.reload_settings()
    except Exception as exc:  # noqa: BLE001 -- a settings file another tool broke: say so, go on
        return Reloaded(themes=themes, error=str(exc))
    return Reloaded(settings=True, themes=themes)


def apply_in_app(app: App[Any], reloaded: Reloaded) -> None:
    """On the UI thread, after :func:`reload_services`: themes, the theme in force, the header."""
    services = app_parts(app).services
    if reloaded.themes:
        from agenttui.ui.themes import load_themes

        loaded = load_themes(services.paths.user_themes_dir)
        for theme in loaded.themes.values():
            app.register_theme(theme)
    wanted = services.base_settings.theme
    if wanted in app.available_themes:
        if app.theme != wanted:
            app.theme = wanted
        elif reloaded.themes:
            app.refresh_css()  # the same name, perhaps new colours: setting it again would do nothing
    app_parts(app).refresh_header()


def conflict_notice(keys: Sequence[str]) -> str | None:
    """One sentence for the conflicts a sync kept: how many, of what, and where to look."""
    if not keys:
        return None
    kinds = Counter(key.split("/", 1)[0] for key in keys)
    parts = []
    if kinds["mem"]:
        parts.append(f"{kinds['mem']} in memory (flagged in /audit)")
    if kinds["conv"]:
        parts.append(f"{kinds['conv']} on conversation titles or archive state")
    if kinds["file"]:
        parts.append(f"{kinds['file']} on settings, profile, project or theme files")
    total = len(keys)
    return (f"{total} conflicting edit{'s' * (total != 1)} made on two machines: "
            f"{'; '.join(parts)}. One version won everywhere; the other is kept: /sync status lists them.")
