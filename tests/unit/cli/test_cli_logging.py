"""``--debug`` / ``--verbose`` / ``AGENTTUI_LOG``: where log records go, secrets redacted.

Real subprocesses against the fake server; the log file is read back from
the test's AGENTTUI_HOME. The filter is also checked in-process on a record
carrying a secret in its arguments and in its traceback.
"""

from __future__ import annotations

import io
import logging
import stat

import pytest

from agenttui.cli.log_flags import wanted_level
from agenttui.cli.logging_setup import RedactingFilter

GITHUB_TOKEN = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"


def debug_log(home):
    return home / "log" / "debug.log"


@pytest.mark.slow
@pytest.mark.parametrize("where", ["before", "after"])
def test_debug_writes_a_private_redacted_log_whichever_side_of_the_command(cli, fake_openai, isolated_home, where):
    fake_openai.reply("noted")
    question = f"my token is {GITHUB_TOKEN}, is it valid?"
    argv = ["--debug", "ask", question] if where == "before" else ["ask", "--debug", question]
    result = cli(*argv)
    assert result.code == 0, result.err
    assert result.out == "noted\n"  # stdout is still only the reply
    path = debug_log(isolated_home)
    assert f"logging DEBUG to {path} (secrets redacted)" in result.err
    text = path.read_text(encoding="utf-8")
    assert "/chat/completions" in text  # the client's own request log is in it
    assert "is it valid?" in text and "[REDACTED" in text
    assert GITHUB_TOKEN not in text and GITHUB_TOKEN not in result.err
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


@pytest.mark.slow
def test_agenttui_log_env_is_the_flag(cli, fake_openai, isolated_home):
    fake_openai.reply("ok")
    result = cli("ask", "hello there", env={"AGENTTUI_LOG": "debug"})
    assert result.code == 0, result.err
    assert "hello there" in debug_log(isolated_home).read_text(encoding="utf-8")


@pytest.mark.slow
def test_verbose_logs_info_to_stderr_and_no_flag_logs_nothing(cli, fake_openai, isolated_home):
    fake_openai.reply("one").reply("two")
    verbose = cli("ask", "--verbose", "first")
    assert verbose.code == 0, verbose.err
    assert verbose.out == "one\n"
    assert "agenttui: INFO" in verbose.err and "HTTP Request: POST" in verbose.err
    quiet = cli("ask", "second")
    assert quiet.code == 0, quiet.err
    assert "INFO" not in quiet.err and "HTTP Request" not in quiet.err
    assert not debug_log(isolated_home).exists()


def test_the_filter_redacts_arguments_and_tracebacks():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactingFilter())
    logger = logging.getLogger("tests.redacting_filter")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("request headers: %s", {"Authorization": f"Bearer {GITHUB_TOKEN}"})
        try:
            raise ValueError(f"bad key {GITHUB_TOKEN}")
        except ValueError:
            logger.exception("call failed")
    finally:
        logger.removeHandler(handler)
    text = stream.getvalue()
    assert "request headers:" in text and "ValueError: bad key" in text and "call failed" in text
    assert GITHUB_TOKEN not in text
    assert text.count("[REDACTED") >= 2


def test_levels_from_flags_and_environment():
    assert wanted_level(False, False, {}) is None
    assert wanted_level(True, False, {}) == logging.INFO
    assert wanted_level(True, True, {}) == logging.DEBUG
    assert wanted_level(False, False, {"AGENTTUI_LOG": "info"}) == logging.INFO
    assert wanted_level(False, False, {"AGENTTUI_LOG": "DEBUG"}) == logging.DEBUG
    assert wanted_level(False, False, {"AGENTTUI_DEBUG": "1"}) == logging.DEBUG
    assert wanted_level(False, False, {"AGENTTUI_DEBUG": "0"}) is None
