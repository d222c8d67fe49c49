"""``agenttui ask`` with piped input: the prompt, a blank line, the piped text.

Real subprocesses (``python -m agenttui``) with a real pipe, file or terminal
as stdin, the real openai client against the fake server; each test reads
the request body the server received.
"""

from __future__ import annotations

import json
import os
import pty

import pytest

from agenttui.cli.ask_stdin import MAX_STDIN_BYTES

DIFF = "diff --git a/app.py b/app.py\n-    retries = 3\n+    retries = 5\n"


def sent_user_message(server) -> str:
    return [m["content"] for m in server.chat_requests[-1]["messages"] if m["role"] == "user"][-1]


@pytest.mark.slow
def test_piped_text_follows_the_prompt_after_a_blank_line(cli, fake_openai):
    fake_openai.reply("Looks fine.")
    result = cli("ask", "--new", "review this", input=DIFF)
    assert result.code == 0, result.err
    assert result.out == "Looks fine.\n"
    assert sent_user_message(fake_openai) == "review this\n\n" + DIFF


@pytest.mark.slow
def test_piped_text_alone_or_after_dash_is_the_message(cli, fake_openai):
    fake_openai.reply("one").reply("two")
    assert cli("ask", "--new", input=DIFF).code == 0
    assert sent_user_message(fake_openai) == DIFF
    assert cli("ask", "--new", "-", input=DIFF).code == 0
    assert sent_user_message(fake_openai) == DIFF


@pytest.mark.slow
def test_a_file_on_stdin_joins_the_prompt_in_the_dry_run_too(cli, tmp_path):
    source = tmp_path / "notes.txt"
    source.write_text("line one\nline two\n", encoding="utf-8")
    with source.open("rb") as handle:
        result = cli("ask", "--dry-run", "--json", "--new", "summarise", stdin=handle)
    assert result.code == 0, result.err
    messages = json.loads(result.out)["messages"]
    assert messages[-1] == {"role": "user", "content": "summarise\n\nline one\nline two\n"}


@pytest.mark.slow
def test_stdin_that_is_a_terminal_is_not_read(cli, fake_openai):
    """Were the terminal read, the command would wait for an end of file nobody types
    (the fixture's timeout fails it) or send the typed line below."""
    fake_openai.reply("ok")
    controller, terminal = pty.openpty()
    try:
        os.write(controller, b"typed into the terminal\n")
        result = cli("ask", "--new", "just this", stdin=terminal)
    finally:
        os.close(terminal)
        os.close(controller)
    assert result.code == 0, result.err
    assert sent_user_message(fake_openai) == "just this"


@pytest.mark.slow
def test_stdin_over_the_cap_is_refused_and_nothing_is_sent(cli, fake_openai, tmp_path):
    big = tmp_path / "big.log"
    big.write_bytes(b"x" * (MAX_STDIN_BYTES + 1))
    with big.open("rb") as handle:
        result = cli("ask", "--new", "what failed?", stdin=handle)
    assert result.code == 1
    assert "stdin is more than 1 MiB" in result.err and "nothing was sent" in result.err
    assert fake_openai.chat_requests == []
    exact = tmp_path / "exact.log"  # the cap itself is allowed
    exact.write_bytes(b"y" * MAX_STDIN_BYTES)
    fake_openai.reply("ok")
    with exact.open("rb") as handle:
        assert cli("ask", "--new", "what failed?", stdin=handle).code == 0
    assert sent_user_message(fake_openai) == "what failed?\n\n" + "y" * MAX_STDIN_BYTES


@pytest.mark.slow
def test_binary_stdin_is_refused_and_nothing_is_sent(cli, fake_openai, tmp_path):
    image = tmp_path / "shot.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with image.open("rb") as handle:
        result = cli("ask", "--new", "what is this?", stdin=handle)
    assert result.code == 1
    assert "stdin looks binary (a NUL byte at offset 8)" in result.err and "--image" in result.err
    assert fake_openai.chat_requests == []


@pytest.mark.slow
def test_no_prompt_and_empty_stdin_is_a_usage_error_and_help_states_the_order(cli):
    empty = cli("ask", input="")
    assert empty.code == 2 and "nothing to ask" in empty.err
    helped = cli("ask", "--help")
    assert helped.code == 0
    text = " ".join(helped.out.split())
    assert "is sent after TEXT and a blank line" in text and "At most 1 MiB is read" in text
