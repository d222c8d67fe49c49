"""The README cannot rot: its commands, config, keys and flags are checked here.

* Every ``agenttui …`` line in a ``sh`` block parses with the real parser,
  and every one that is not the interactive UI is *run* as a subprocess in an
  isolated home (seeded with a memory note, a profile ``work``, a
  conversation and a backup archive), against the local fake OpenAI server
  and a file-backed test keyring. The exit code must be 0, or the one the
  line documents with a trailing ``# exit N`` comment.
* Inline ``agenttui …`` spans in the prose name real commands and options.
* Every command and every long option of the parser appears in the README.
* Every field of ``Settings`` (and its nested tables) has a row in the
  configuration reference, with its default; every binding id has a row in
  the key table with its default key; every slash command is listed.
* The ``toml`` examples load without warnings as what they say they are
  (``# config.toml``, ``# profile.toml``, ``# themes/NAME.toml``).

Environment assignments written in front of a README command
(``OPENAI_BASE_URL=… agenttui``) are dropped when running it, except
``AGENTTUI_PROFILE``: the test decides where the endpoint and home are.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from agenttui.cli import build_parser
from agenttui.core.config.schema import toml_value

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SAMPLE_ID = "3f2a9c1e"  # the conversation id the README's examples use
STDIN = "sample input from a pipe\n"  # what `… | agenttui` or a prompt gets
KEPT_ENV = {"AGENTTUI_PROFILE"}
_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_EXIT = re.compile(r"#\s*exit (\d+)")


# --------------------------------------------------------------------------
# Reading the README
# --------------------------------------------------------------------------
def blocks(language: str) -> list[str]:
    return [body for lang, body in _BLOCK.findall(README) if lang == language]


@dataclass(frozen=True)
class Command:
    line: str
    argv: tuple[str, ...]
    env: tuple[tuple[str, str], ...]
    expected: int

    @property
    def is_tui(self) -> bool:
        return not any(a in ("--help", "-h", "--version") for a in self.argv) and not any(
            a in _command_names() for a in self.argv)


def _segments(line: str) -> list[list[str]]:
    """Split a shell line into its simple commands (at |, &&, ;, parentheses)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    out: list[list[str]] = [[]]
    for token in lexer:
        if token and set(token) <= set("();<>|&"):
            out.append([])
        else:
            out[-1].append(token)
    return [words for words in out if words]


def readme_commands() -> list[Command]:
    found = []
    for body in blocks("sh"):
        for line in body.splitlines():
            expected = int(m.group(1)) if (m := _EXIT.search(line)) else 0
            for words in _segments(line):
                env = []
                while words and _ASSIGNMENT.match(words[0]):
                    name, _, value = words.pop(0).partition("=")
                    env.append((name, value))
                if words and (words[0] == "agenttui" or words[0].endswith("/agenttui")):
                    found.append(Command(line, tuple(words[1:]), tuple(env), expected))
    return found


def inline_commands() -> list[str]:
    prose = _BLOCK.sub("", README)
    return re.findall(r"`(agenttui(?: [^`]*)?)`", prose)


@functools.cache
def _command_names() -> frozenset[str]:
    return frozenset(_subcommands(build_parser()))


def _subcommands(parser) -> dict:
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    return {}


def _walk(parser, path=()):
    """Yield (command path, parser) for every command and action."""
    yield path, parser
    for name, sub in _subcommands(parser).items():
        yield from _walk(sub, (*path, name))


COMMANDS = readme_commands()
RUNNABLE = [c for c in COMMANDS if not c.is_tui]


def test_the_readme_has_commands_to_check():
    assert len(COMMANDS) > 40
    assert sum(c.is_tui for c in COMMANDS) >= 2  # the setup line and `--profile work`


# --------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS, ids=[c.line for c in COMMANDS])
def test_readme_command_parses(command):
    parser = build_parser()
    try:
        parser.parse_args(list(command.argv))
    except SystemExit as exc:  # --help / --version exit 0; a usage error exits 2
        assert exc.code == 0, f"argparse rejected: {command.line}"


@pytest.mark.parametrize("span", inline_commands())
def test_inline_command_names_real_commands_and_options(span):
    """`agenttui memory add` in prose: the words are commands, the dashes are options."""
    parser = build_parser()
    words = re.sub(r"[\[\]]", " ", span).replace("|", " ").split()[1:]
    path = []
    for word in words:
        sub = _subcommands(parser)
        if word in sub:
            parser = sub[word]
            path.append(word)
        elif word.startswith("-"):
            known = {s for a in parser._actions for s in a.option_strings}
            assert word in known, f"{span}: {word} is not an option of {' '.join(path) or 'agenttui'}"
        elif not path and sub:
            pytest.fail(f"{span}: {word!r} is not a command")


@pytest.mark.slow
def test_every_command_and_long_option_is_in_the_readme():
    used_paths = set()
    for command in COMMANDS:
        parser, path = build_parser(), []
        for word in command.argv:
            if word in _subcommands(parser):
                parser = _subcommands(parser)[word]
                path.append(word)
        used_paths.add(tuple(path))
    missing_paths, missing_options = [], []
    for path, parser in _walk(build_parser()):
        if path and not _subcommands(parser) and path not in used_paths:
            missing_paths.append(" ".join(path))
        for action in parser._actions:
            for option in action.option_strings:
                if option.startswith("--") and option != "--help" and option not in README:
                    missing_options.append(f"{' '.join(path)} {option}")
    assert not missing_paths, f"commands with no example in a sh block: {missing_paths}"
    assert not missing_options, f"options not documented: {missing_options}"


# --------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------
TINY_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d49444154789c6360000002000001e221bc330000000049454e44ae426082")


@pytest.fixture(scope="module")
def fake_server():
    from tests.fakes.openai_server import FakeOpenAI

    with FakeOpenAI(default_reply="A short reply from the fake server.") as server:
        yield server


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    """A home with data for every example; copied fresh for each command."""
    from agenttui.bootstrap import build_services
    from agenttui.core.backup.archive import create_backup
    from agenttui.core.config.paths import Paths
    from agenttui.core.config.profiles import ProfileStore
    from agenttui.core.models import Message

    root = tmp_path_factory.mktemp("readme-template")
    work = root / "work"
    work.mkdir()
    (work / "screenshot.png").write_bytes(TINY_PNG)
    env = {"AGENTTUI_HOME": str(root / "home")}
    paths = Paths.from_env(env)
    ProfileStore(paths).create("work")
    services = build_services(paths=paths, cwd=work, environ=env)
    try:
        assert services.memory.add_note("I prefer short answers", source="explicit").ok
        assert services.memory.set_fact("language", "en", source="explicit").ok
        chat = services.history.create_conversation("Deploy checklist")
        services.history.append(chat.id, Message(role="user", content="How do we deploy staging?"))
        services.history.append(chat.id, Message(role="assistant", content="Run make deploy-staging."))
        # what the import examples read
        (work / "deploy.json").write_text(services.history.export_json(chat.id))
        shutil.copy(ROOT / "tests" / "unit" / "cli" / "data" / "chatgpt_conversations.json",
                    work / "conversations.json")
        (work / "notes.md").write_text("# Notes\n\n- I review pull requests after lunch\n")
    finally:
        services.close()
    create_backup(paths, work / "agenttui-backup.tar.gz")
    (root / "keyring.json").write_text(json.dumps({"agenttui/api_key": "sk-test-stored"}))
    (root / "userhome").mkdir()
    return root, chat.id


def _run(command: Command, seeded, fake_server, tmp_path) -> subprocess.CompletedProcess:
    template, conversation_id = seeded
    run = tmp_path / "run"
    shutil.copytree(template, run, symlinks=True)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OPENAI_", "AGENTTUI_"))}
    env.update({
        "AGENTTUI_HOME": str(run / "home"),
        "HOME": str(run / "userhome"),
        "OPENAI_BASE_URL": fake_server.base_url,
        "OPENAI_API_KEY": "sk-test-readme",
        "AGENTTUI_MODEL": fake_server.model,
        "PYTHON_KEYRING_BACKEND": "tests.fakes.memory_keyring.FileKeyring",
        "AGENTTUI_TEST_KEYRING_FILE": str(run / "keyring.json"),
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "src")]),
    })
    env.update({k: v for k, v in command.env if k in KEPT_ENV})
    argv = [a.replace(SAMPLE_ID, conversation_id[:8]) for a in command.argv]
    return subprocess.run([sys.executable, "-m", "agenttui", *argv], cwd=run / "work", env=env,
                          input=STDIN, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.slow  # ~50 subprocesses
@pytest.mark.parametrize("command", RUNNABLE, ids=[c.line for c in RUNNABLE])
def test_readme_command_runs(command, seeded, fake_server, tmp_path):
    result = _run(command, seeded, fake_server, tmp_path)
    assert result.returncode == command.expected, (
        f"{command.line}\nexit {result.returncode}\nstdout:\n{result.stdout[-2000:]}"
        f"\nstderr:\n{result.stderr[-2000:]}")
    if command.expected == 0:
        assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_documented_failures_say_why(seeded, fake_server, tmp_path):
    """The `# exit 1` examples fail for the reason the README gives, not another one."""
    reasons = {"memory add": "not saved", "restore": "without --yes", "mcp remove": "no MCP server named",
               "ask --conversation": "no conversation 'nosuchid'", "sync now": "does not sync yet"}
    checked = 0
    for command in (c for c in RUNNABLE if c.expected == 1):
        key = next(k for k in reasons if " ".join(command.argv).startswith(k))
        result = _run(command, seeded, fake_server, tmp_path / str(checked))
        assert reasons[key] in result.stderr, result.stderr
        checked += 1
    assert checked == len(reasons)


# --------------------------------------------------------------------------
# Configuration, keys, slash commands, TOML examples
# --------------------------------------------------------------------------


def _section(heading: str) -> str:
    start = README.index(f"\n### {heading}\n")
    end = README.find("\n## ", start + 1)
    nxt = README.find("\n### ", start + 1)
    return README[start:min(i for i in (end, nxt) if i != -1)]


def test_every_setting_is_in_the_configuration_reference_with_its_default():
    from agenttui.core.config.settings import Settings

    defaults = Settings()
    problems = []
    for field in dataclasses.fields(Settings):
        value = getattr(defaults, field.name)
        if dataclasses.is_dataclass(value):
            rows = [(f, getattr(value, f.name)) for f in dataclasses.fields(value)]
            section = _section(f"`[{field.name}]`")
        elif isinstance(value, dict):
            _section(f"`[{field.name}]`")  # a table of its own, described in prose
            continue
        else:
            rows = [(field, value)]
            section = _section("Top level")
        for sub, default in rows:
            row = next((line for line in section.splitlines()
                        if line.startswith(f"| `{sub.name}` |")), None)
            if row is None:
                problems.append(f"{field.name}.{sub.name}: no row")
                continue
            shown = row.split("|")[2].strip().strip("`")
            if shown != toml_value(default):
                problems.append(f"{sub.name}: README says {shown}, default is {toml_value(default)}")
    assert not problems, problems


def test_every_binding_is_in_the_key_table_with_its_default_key():
    from agenttui.ui.bindings import ALL_ACTIONS

    missing = [s.id for s in ALL_ACTIONS if f"| `{s.id}` | `{s.key}` |" not in README]
    assert not missing, f"bindings missing or with another default key in the README: {missing}"


def test_every_slash_command_is_listed():
    from agenttui.ui.slash.table import COMMANDS as SLASH

    missing = [c.name for c in SLASH if f"`/{c.name}" not in README]
    assert not missing, missing


def _labelled_toml(label: str) -> list[dict]:
    return [tomllib.loads(b) for b in blocks("toml") if b.startswith(f"# {label}")]


def test_config_examples_load_without_warnings():
    from agenttui.core.config.file import coerce_section
    from agenttui.core.config.settings import Settings
    from agenttui.ui.bindings import keymap_from_settings

    examples = _labelled_toml("config.toml")
    assert len(examples) >= 3
    for data in examples:
        settings, warnings = coerce_section(Settings, data, "README")
        assert not warnings, warnings
        assert not keymap_from_settings(settings.keys)[1]


def test_profile_example_loads_without_warnings(paths):
    from agenttui.core.config.profiles import ProfileStore
    from agenttui.core.files import atomic_write_text

    (example,) = [b for b in blocks("toml") if b.startswith("# profile.toml")]
    store = ProfileStore(paths)
    store.create("webshop")
    atomic_write_text(paths.profile_file("webshop"), example)
    profile = store.get("webshop")
    assert not store.warnings and not store.problems, store.warnings + store.problems
    assert profile.model and profile.memory == {"model_consent": "ask"}


def test_theme_example_is_a_valid_theme():
    from agenttui.ui.themes import parse_theme

    (example,) = _labelled_toml("themes/")
    assert parse_theme(example).name == "dusk"
