"""Themes as TOML files.

Built-ins live in the top-level ``themes/`` folder of a source checkout; the
wheel force-includes that folder as ``agenttui/themes`` inside the package, so
:func:`builtin_themes_dir` looks in the package first and the checkout second.
Users drop their own files in ``paths.user_themes_dir``; a user theme with a
built-in's name replaces it.

A theme file holds the fields of :class:`textual.theme.Theme`::

    name = "my-theme"      # required
    dark = true
    primary = "#5fafff"    # required; every colour must parse
    secondary / accent / foreground / background / surface / panel /
    warning / error / success / boost = "<colour>"
    [variables]            # extra CSS variables, string -> string

A file that fails to parse or validate is reported (the app shows an error
toast naming the file and the problem) and skipped; the app falls back to
``FALLBACK_THEME``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.color import Color, ColorParseError
from textual.theme import Theme

if TYPE_CHECKING:
    from textual.app import App

FALLBACK_THEME = "agenttui-dark"
_COLOUR_FIELDS = (
    "primary", "secondary", "accent", "foreground", "background", "surface",
    "panel", "warning", "error", "success", "boost",
)
_KNOWN = {"name", "dark", "variables", "luminosity_spread", "text_alpha", *_COLOUR_FIELDS}


class ThemeError(ValueError):
    pass


@dataclass
class LoadedThemes:
    themes: dict[str, Theme] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)  # one line per bad file


def builtin_themes_dir() -> Path:
    package = Path(__file__).resolve().parent.parent  # .../agenttui
    installed = package / "themes"
    if installed.is_dir():
        return installed
    return package.parent.parent / "themes"  # src/agenttui -> repo/themes


def parse_theme(data: dict, origin: str = "<theme>") -> Theme:
    """Validate one theme table and build the Theme; raise ThemeError on any problem."""
    unknown = sorted(set(data) - _KNOWN)
    if unknown:
        raise ThemeError(f"{origin}: unknown field(s) {', '.join(unknown)}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ThemeError(f"{origin}: 'name' must be a non-empty string")
    if "primary" not in data:
        raise ThemeError(f"{origin}: 'primary' colour is required")
    colours: dict[str, str] = {}
    for key in _COLOUR_FIELDS:
        if key in data:
            value = data[key]
            try:
                if not isinstance(value, str):
                    raise ColorParseError(f"{value!r}")
                Color.parse(value)
            except ColorParseError:
                raise ThemeError(f"{origin}: {key} = {value!r} is not a colour") from None
            colours[key] = value
    dark = data.get("dark", True)
    if not isinstance(dark, bool):
        raise ThemeError(f"{origin}: 'dark' must be true or false")
    variables = data.get("variables", {})
    if not isinstance(variables, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in variables.items()
    ):
        raise ThemeError(f"{origin}: [variables] must map names to strings")
    options: dict[str, Any] = {**colours, **{k: float(data[k]) for k in ("luminosity_spread", "text_alpha")
                                               if k in data}}
    return Theme(name=name.strip(), dark=dark, variables=dict(variables), **options)


def load_theme_file(path: Path) -> Theme:
    import tomllib  # lazy: a Textual built-in theme needs no TOML at start-up

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ThemeError(f"{path}: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ThemeError(f"{path}: cannot read ({exc})") from None
    return parse_theme(data, origin=str(path))


def find_theme(name: str, user_dir: Path | None) -> Theme | None:
    """The theme called ``name`` from its own file (``<name>.toml``), user folder first.

    Start-up needs only the chosen theme; parsing one file instead of every
    file keeps the first frame early (:func:`load_themes` runs after it).
    None when no file of that name holds a valid theme of that name.
    """
    for folder in (user_dir, builtin_themes_dir()):
        if folder is None:
            continue
        path = folder / f"{name}.toml"
        if not path.is_file():
            continue
        try:
            theme = load_theme_file(path)
        except ThemeError:
            return None  # load_themes reports it
        return theme if theme.name == name else None
    return None


def load_themes(user_dir: Path | None) -> LoadedThemes:
    """Built-ins first, then the user's folder (its themes win on a name clash)."""
    loaded = LoadedThemes()
    for folder in (builtin_themes_dir(), user_dir):
        if folder is None or not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.toml")):
            try:
                theme = load_theme_file(path)
            except ThemeError as exc:
                loaded.errors.append(str(exc))
                continue
            loaded.themes[theme.name] = theme
    return loaded


def register_start_theme(app: App[Any], wanted: str, user_dir: Path | None,
                         load_all: Callable[[], None]) -> tuple[str, str | None]:
    """Register the theme to start with; its name, and a notice when ``wanted`` is not there.

    Only the wanted theme's own file is read (all of them, through ``load_all``,
    if it is not found by file name).
    """
    if wanted not in app.available_themes:
        theme = find_theme(wanted, user_dir)
        if theme is not None:
            app.register_theme(theme)
        else:  # not found by file name (or broken): read them all now
            load_all()
    if wanted in app.available_themes:
        return wanted, None
    if FALLBACK_THEME not in app.available_themes and (fallback := find_theme(FALLBACK_THEME, None)):
        app.register_theme(fallback)
    name = FALLBACK_THEME if FALLBACK_THEME in app.available_themes else "textual-dark"
    return name, f"Theme {wanted!r} is not available; using {FALLBACK_THEME}."
