"""``history import`` of numbers and times a JSON file can hold but the database cannot: a token
count of 1e400 or 2**70, a time whose UTC year is past 9999 or before 1. Each was an internal
error (OverflowError) that stopped the whole import; now a bookkeeping number is 0 (unknown) and
the conversation is stored, and a time out of range skips that conversation only, saying why."""

from __future__ import annotations

import json

import pytest

from agenttui.cli import main


def _document(cid: str, *, tokens: object = 3, created: str = "2026-01-02T03:04:05+00:00") -> dict:
    return {
        "format": "agenttui.conversation",
        "version": 1,
        "conversation": {"id": cid, "title": f"conversation {cid[:4]}"},
        "messages": [
            {"role": "user", "content": "hello", "created": created, "tokens": tokens},
            {"role": "assistant", "content": "hi", "created": "2026-01-02T03:04:06+00:00"},
        ],
    }


@pytest.mark.parametrize("tokens", [float("inf"), float("nan"), 2**70, -5], ids=["1e400", "nan", "2**70", "negative"])
def test_a_token_count_out_of_range_keeps_the_conversation(tokens, paths, tmp_path, capsys):
    source = tmp_path / "export.json"
    source.write_text(json.dumps([_document("a" * 32, tokens=tokens)]))  # json.dumps writes Infinity, NaN
    assert main(["history", "import", "--no-embed", str(source)]) == 0
    captured = capsys.readouterr()
    assert "imported 1 conversation (2 messages)" in captured.out, captured.err
    assert main(["history", "show", "a" * 8]) == 0
    assert "hello" in capsys.readouterr().out


@pytest.mark.parametrize("created", ["9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00"])
def test_a_time_out_of_range_skips_that_conversation_only_and_says_why(created, paths, tmp_path, capsys):
    source = tmp_path / "export.json"
    source.write_text(json.dumps([_document("a" * 32, created=created), _document("b" * 32)]))
    assert main(["history", "import", "--no-embed", str(source)]) == 1
    captured = capsys.readouterr()
    assert "imported 1 conversation (2 messages)" in captured.out
    assert "conversation 1" in captured.err and "out of range" in captured.err and created in captured.err
    assert "internal error" not in captured.err and "Traceback" not in captured.err
    assert main(["history", "list"]) == 0
    listed = capsys.readouterr().out
    assert "conversation bbbb" in listed and "conversation aaaa" not in listed
