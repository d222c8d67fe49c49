"""``agenttui completion bash|zsh|fish``: scripts generated from the real parser.

The bash script is sourced by a real bash and its completion function asked
for words, as bash would on Tab; zsh and fish (not installed here) are
checked for every command and option the parser has.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess

import pytest

from agenttui.cli import COMMAND_MODULES, build_parser
from agenttui.cli.completion_cmd import script


def complete_in_bash(bash_script: str, line: str) -> list[str]:
    """What Tab offers at the end of ``line`` (COMP_* set as bash sets them)."""
    words = line.split(" ")
    program = (f"source /dev/stdin <<'EOF'\n{bash_script}\nEOF\n"
               f"COMP_LINE={line!r}; COMP_POINT=${{#COMP_LINE}}; COMP_WORDS=({' '.join(repr(w) for w in words)}); "
               f"COMP_CWORD={len(words) - 1}; _shtab_agenttui; printf '%s\\n' \"${{COMPREPLY[@]}}\"")
    done = subprocess.run(["bash", "--norc", "-c", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def top_commands() -> set[str]:
    parser = build_parser()
    return {name for action in parser._actions if isinstance(action, argparse._SubParsersAction)
            for name in action.choices}


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completes_commands_options_choices_and_nested_commands(cli):
    result = cli("completion", "bash")
    assert result.code == 0, result.err
    bash = result.out
    assert complete_in_bash(bash, "agenttui as") == ["ask"]
    assert set(complete_in_bash(bash, "agenttui ")) >= set(COMMAND_MODULES)
    assert complete_in_bash(bash, "agenttui completion ") == ["bash", "zsh", "fish"]
    assert "--dry-run" in complete_in_bash(bash, "agenttui ask --")
    assert complete_in_bash(bash, "agenttui ask --deb") == ["--debug"]  # after the command too
    assert "list" in complete_in_bash(bash, "agenttui memory ")


def test_zsh_script_names_every_command():
    zsh = script("zsh")
    assert zsh.startswith("#compdef agenttui")
    assert "--dry-run[" in zsh and "--debug[" in zsh
    for name in top_commands():
        assert re.search(rf"\n +[\"']?{name}:", zsh), name  # the command list of _shtab_agenttui_commands
        assert f"_shtab_agenttui_{name}_options" in zsh, name  # its own options after it


def test_fish_script_has_every_command_and_option_of_the_parser():
    fish = script("fish")
    lines = fish.splitlines()
    assert lines[1] == "complete -c agenttui -f"  # file names only where an argument names a file
    for name in top_commands():
        assert any(line.startswith("complete -c agenttui -n '__fish_use_subcommand' -a " + name + " ")
                   for line in lines), name
    ask = [line for line in lines if "'__fish_seen_subcommand_from ask'" in line]
    for option in ("new", "conversation", "incognito", "yes", "image", "model", "dry-run", "debug"):
        assert any(f" -l {option} " in line or line.endswith(f" -l {option}") for line in ask), option
    assert any(" -l image -r -F " in line for line in ask)  # a path: file names offered
    shells = [line for line in lines if "'__fish_seen_subcommand_from completion'" in line and " -x -a " in line]
    assert shells and "'bash zsh fish'" in shells[0]
    nested = [line for line in lines if "__fish_seen_subcommand_from memory; and not __fish_seen_subcommand_from"
              in line and " -a list " in line]
    assert nested, "memory's sub-commands are offered after `memory`"
