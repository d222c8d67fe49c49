"""``agenttui config path|show|get|set`` and ``mcp add``: a commented config.toml keeps every
comment, its order and formatting; only the edited key's line changes. Real subprocesses."""

from __future__ import annotations

import difflib
import json
import sys

import pytest

COMMENTED = """\
# my agenttui settings -- keep these notes
model = "gpt-4o-mini"   # the cheap one

[agent]
# be patient with slow local models
max_seconds = 300   # five minutes
max_steps = 8  # tool rounds

[memory]
inject_notes = 40 # explicit on purpose
"""


def _changed(before: str, after: str) -> list[str]:
    return [line for line in difflib.ndiff(before.splitlines(), after.splitlines())
            if line[:1] in "+-"]


@pytest.fixture
def config_file(paths):
    paths.config_file.parent.mkdir(parents=True, exist_ok=True)
    paths.config_file.write_text(COMMENTED)
    return paths.config_file


@pytest.mark.slow
def test_set_changes_only_that_line_and_get_show_path_read_it(cli, config_file):
    assert cli("config", "path").out.strip() == str(config_file)
    done = cli("config", "set", "agent.max_steps", "12")
    assert done.code == 0, done.err
    assert _changed(COMMENTED, config_file.read_text()) == [
        "- max_steps = 8  # tool rounds", "+ max_steps = 12  # tool rounds"]
    assert cli("config", "get", "agent.max_steps").out.strip() == "12"
    assert cli("config", "set", "model", "llama3.1:8b").code == 0  # plain text, not TOML
    assert cli("config", "get", "model").out.strip() == "llama3.1:8b"
    assert cli("config", "set", "recall.history_tokens", "900").code == 0  # a key the file lacked
    after = config_file.read_text()
    assert "# be patient with slow local models" in after and "# explicit on purpose" in after
    shown = json.loads(cli("config", "show", "--json").out)
    assert shown["agent"]["max_steps"] == 12 and shown["recall"]["history_tokens"] == 900
    assert shown["history"]["window_messages"] == 30  # defaults shown too
    assert 'max_seconds = 300' in cli("config", "show").out


@pytest.mark.slow
def test_set_refuses_bad_values_unknown_keys_and_secrets_writing_nothing(cli, config_file):
    out_of_range = cli("config", "set", "agent.max_steps", "0")
    assert out_of_range.code == 1 and "out of range" in out_of_range.err
    wrong_type = cli("config", "set", "agent.max_steps", "many")
    assert wrong_type.code == 1 and "max_steps" in wrong_type.err
    unknown = cli("config", "set", "agent.max_step", "3")
    assert unknown.code == 1 and "agent.max_steps" in unknown.err  # did you mean
    secret = cli("config", "set", "user_name", "sk-proj-" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3")
    assert secret.code == 1 and "keyring" in secret.err
    assert config_file.read_text() == COMMENTED


@pytest.mark.slow
def test_mcp_add_keeps_the_commented_file(cli, config_file):
    added = cli("mcp", "add", "t", "--no-check", "--", sys.executable, "-c", "pass")
    assert added.code == 0, added.err
    after = config_file.read_text()
    assert after.startswith(COMMENTED)  # every line as it was; the server's table follows
    assert all(line.startswith("+ ") for line in _changed(COMMENTED, after))
    assert cli("mcp", "remove", "t").code == 0
    assert config_file.read_text().rstrip("\n") == COMMENTED.rstrip("\n")
