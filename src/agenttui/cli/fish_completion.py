"""A fish completion script from an argparse parser (shtab writes bash and zsh only).

One ``complete`` line per command and option. A command's options and
sub-commands are offered once its name is on the line and none of its own
sub-commands is yet (``__fish_seen_subcommand_from``); the top level's
while no command is (``__fish_use_subcommand``). File names are offered only
for arguments that name a file (``-F``); everything else completes words
from the parser (choices) or nothing.
"""

from __future__ import annotations

import argparse


def fish_script(parser: argparse.ArgumentParser) -> str:
    prog = parser.prog
    lines = [f"# fish completion for {prog}: `{prog} completion fish > ~/.config/fish/completions/{prog}.fish`",
             f"complete -c {prog} -f"]
    _emit(parser, prog, [], lines)
    return "\n".join(lines) + "\n"


def _quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _help(action: argparse.Action | None) -> str:
    text = (action.help or "") if action is not None else ""
    if text == argparse.SUPPRESS:
        return ""
    text = " ".join(text.split())
    return text if len(text) <= 100 else text[:100].rsplit(" ", 1)[0] + "…"


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser, str]]:
    found: list[tuple[str, argparse.ArgumentParser, str]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            found.extend((name, sub, helps.get(name, "")) for name, sub in action.choices.items())
    return found


def _emit(parser: argparse.ArgumentParser, prog: str, path: list[str], lines: list[str]) -> None:
    from agenttui.cli.completion_cmd import takes_a_file

    children = _subcommands(parser)
    if path:
        condition = "; and ".join(f"__fish_seen_subcommand_from {word}" for word in path)
        if children:
            condition += "; and not __fish_seen_subcommand_from " + " ".join(name for name, _, _ in children)
    else:
        condition = "__fish_use_subcommand"
    where = f"complete -c {prog} -n {_quote(condition)}"
    for name, _, text in children:
        lines.append(f"{where} -a {name}" + (f" -d {_quote(text)}" if text else ""))
    for action in parser._actions:
        if isinstance(action, (argparse._SubParsersAction, argparse._HelpAction)) and not action.option_strings:
            continue
        flags = [f"-l {o[2:]}" if o.startswith("--") else f"-s {o[1:]}" for o in action.option_strings]
        extra = []
        if action.choices and not isinstance(action, argparse._SubParsersAction):
            extra.append("-x -a " + _quote(" ".join(str(c) for c in action.choices)))
        elif takes_a_file(action):
            extra.append("-r -F")
        elif action.option_strings and action.nargs != 0:
            extra.append("-x")  # takes a value, none to offer
        if not flags and not extra:
            continue  # a free-text positional: nothing to complete
        text = _help(action)
        lines.append(" ".join([where, *flags, *extra]) + (f" -d {_quote(text)}" if text else ""))
    for name, sub, _ in children:
        _emit(sub, prog, [*path, name], lines)
