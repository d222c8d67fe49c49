"""Running a line typed in the prompt as a slash command (the table's argument spec first)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agenttui.ui.inert import inert_line
from agenttui.ui.slash.context import MissingArgument
from agenttui.ui.slash.table import BY_NAME, parse

if TYPE_CHECKING:
    from agenttui.ui.slash.context import SlashContext


def _or_list(words: tuple[str, ...]) -> str:
    return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else "".join(words)


def show_usage(ctx: SlashContext, name: str) -> None:
    command = BY_NAME[name]
    ctx.notify(f"Usage: /{name} {command.usage}\nExample: {command.example}",
               title=f"/{name} needs an argument", severity="warning")


async def run_slash_command(ctx: SlashContext, text: str) -> bool:
    """Run ``text`` if it is a slash command; False means "send it as a message"."""
    parsed = parse(text)
    if parsed is None:
        return False
    name, argument = parsed
    command = BY_NAME.get(name)
    if command is None:
        ctx.notify(f"Unknown command /{inert_line(name, 40)}. /help lists them.", severity="error")
        return True
    if command.required and not argument:
        show_usage(ctx, name)
        return True
    if command.choices and argument.casefold() not in ("", *command.choices):
        ctx.notify(f"/{name} takes {command.choices_are}: {_or_list(command.choices)} "
                   f"(not {inert_line(argument.casefold(), 30)!r}).", severity="error")
        return True
    try:
        await command.run(ctx, argument)
    except MissingArgument:
        show_usage(ctx, name)
    except Exception as exc:
        from agenttui.core.errors import explain  # /remember on a full disk: a notice
        from agenttui.core.incognito import IncognitoRefused
        from agenttui.core.stale_install import stale_install_message  # upgraded under us

        message = str(exc) if isinstance(exc, IncognitoRefused) else (
            explain(exc) or stale_install_message(exc))
        if message is None:
            raise  # a bug: the app's error policy ends it with a crash log
        ctx.notify(message, title=f"/{name} failed", severity="error", timeout=30)
    return True
