"""Half of a character: a JSON ``\\ud83d`` escape whose partner was cut off (a hand edit, a tool
that cut text by UTF-16 units, a JavaScript export). ``json.loads`` accepts it; UTF-8 cannot hold it,
so kept as it came it failed every later write of the memory file, every import of the export."""

from __future__ import annotations

import json

from agenttui.cli import main
from agenttui.core.doctor.checks import _validate_memory_file
from agenttui.core.errors import explain

LONE = "\\ud83d"  # as it stands in the file: an escape json.dumps would never write alone


def _memory_file(path, text: str, *, prefix: bytes = b"") -> bytes:
    item = {"id": "a" * 32, "kind": "note", "scope": "user", "text": "PLACEHOLDER", "source": "explicit"}
    raw = json.dumps({"schema": 1, "scope": "user", "items": [item], "archive": []})
    data = prefix + raw.replace("PLACEHOLDER", text).encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return data


def test_a_memory_file_with_half_a_character_keeps_the_note_and_takes_writes_again(paths, capsys):
    path = paths.user_memory_file
    original = _memory_file(path, f"I like {LONE} cats")
    assert main(["memory", "list"]) == 0
    captured = capsys.readouterr()
    assert "I like \ufffd cats" in captured.out  # the note stays, the half is U+FFFD
    assert "half of a character" in captured.err and str(path) in captured.err
    moved = [p for p in path.parent.iterdir() if ".corrupt-" in p.name]
    assert len(moved) == 1 and moved[0].read_bytes() == original  # the original, byte for byte
    assert main(["memory", "add", "and short answers"]) == 0  # writes work again
    assert main(["memory", "list"]) == 0
    captured = capsys.readouterr()
    assert "and short answers" in captured.out and "I like \ufffd cats" in captured.out
    assert "Traceback" not in captured.err and "internal error" not in captured.err
    assert main(["memory", "list"]) == 0
    assert capsys.readouterr().err == ""  # reported once, then the file is clean


def test_a_memory_file_saved_with_a_byte_order_mark_is_read_not_moved_aside(paths, capsys):
    path = paths.user_memory_file
    _memory_file(path, "I drink tea", prefix="\ufeff".encode())  # an editor's "UTF-8 with BOM"
    assert main(["memory", "list"]) == 0
    captured = capsys.readouterr()
    assert "I drink tea" in captured.out and captured.err == ""
    assert not [p for p in path.parent.iterdir() if ".corrupt-" in p.name]
    assert _validate_memory_file(path) is None  # nor does doctor call it broken
    assert main(["memory", "add", "and short answers"]) == 0
    assert json.loads(path.read_bytes())["items"][0]["text"] == "I drink tea"  # rewritten without it


def test_a_note_imported_with_half_a_character_is_stored(paths, tmp_path, capsys):
    source = tmp_path / "notes.json"
    source.write_text(f'["half an emoji {LONE} here", "a whole one \\ud83d\\ude00"]')
    assert main(["memory", "import", str(source)]) == 0
    assert main(["memory", "list"]) == 0
    captured = capsys.readouterr()
    assert "half an emoji \ufffd here" in captured.out and "a whole one \U0001f600" in captured.out
    assert "Traceback" not in captured.err


def test_history_import_of_half_a_character_stores_the_conversation(paths, tmp_path, capsys):
    export = {
        "format": "agenttui.conversation",
        "version": 1,
        "conversation": {"id": "b" * 32, "title": "PLACEHOLDER", "created": "2026-01-02T03:04:05+00:00"},
        "messages": [
            {"role": "user", "content": "PLACEHOLDER", "created": "2026-01-02T03:04:05+00:00"},
            {"role": "assistant", "content": "ok", "created": "2026-01-02T03:04:06+00:00"},
        ],
    }
    source = tmp_path / "export.json"
    source.write_text(json.dumps(export).replace("PLACEHOLDER", f"cut {LONE}"))
    assert main(["history", "import", "--no-embed", str(source)]) == 0
    captured = capsys.readouterr()
    assert "imported 1 conversation (2 messages)" in captured.out, captured.err
    assert main(["history", "show", "b" * 8]) == 0
    assert "cut \ufffd" in capsys.readouterr().out


def test_explaining_half_a_character_does_not_fail_itself():
    try:
        "a\ud83d".encode("utf-8")
    except UnicodeEncodeError as exc:
        text = explain(exc)
    assert text is not None and "U+D83D" in text and "half of a character" in text
