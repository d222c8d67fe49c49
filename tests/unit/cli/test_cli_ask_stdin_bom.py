"""A file saved as "UTF-8 with BOM" (Notepad, PowerShell's Out-File) piped into ``agenttui ask``: the
byte order mark is not text. It went to the model as the message's first character and into
history, where the conversation's title read ``\\ufeffsummarise these notes``."""

from __future__ import annotations

import pytest

from tests.unit.cli.test_cli_ask_stdin import sent_user_message


@pytest.mark.slow
def test_a_byte_order_mark_on_stdin_is_not_sent_nor_saved(cli, fake_openai, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_bytes("\ufeffsummarise these notes: 会议在周一".encode())
    fake_openai.reply("Done.")
    with notes.open("rb") as stdin:
        result = cli("ask", "--new", stdin=stdin)
    assert result.code == 0, result.err
    assert sent_user_message(fake_openai) == "summarise these notes: 会议在周一"
    listed = cli("history", "list")
    assert "summarise these notes" in listed.out and "ufeff" not in listed.out
