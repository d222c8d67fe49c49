"""Odd bytes and odd numbers."""

from __future__ import annotations

import json
import math

import pytest

from agenttui.cli import main
from agenttui.core.config.paths import InvalidProfileName, check_profile_name
from tests.unit.faults.conftest import no_traceback


def _write_memory(path, **fields) -> bytes:
    item = {"id": "a" * 32, "kind": "note", "scope": "user", "text": "I drink tea",
            "source": "explicit", **fields}
    raw = json.dumps({"schema": 1, "scope": "user", "items": [item], "archive": []})
    for value in fields.values():  # json.dumps cannot spell these: write them as a user would
        if isinstance(value, str) and value.startswith("RAW:"):
            raw = raw.replace(json.dumps(value), value[4:])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(raw)
    return raw.encode()


@pytest.mark.parametrize("fields, shown", [
    ({"use_count": "RAW:1e400"}, "use_count inf"),
    ({"use_count": "RAW:-7"}, "use_count -7"),
    ({"use_count": "RAW:" + "9" * 400}, "use_count a huge number"),
    ({"confidence": "RAW:NaN"}, "confidence nan"),
    ({"confidence": "RAW:-Infinity"}, "confidence -inf"),
    ({"confidence": "RAW:3.5"}, "confidence 3.5"),
], ids=["1e400", "negative", "huge-int", "nan", "-inf", "above-1"])
def test_out_of_range_numbers_keep_the_note_and_are_reported(fields, shown, paths, capsys):
    path = paths.user_memory_file
    original = _write_memory(path, **fields)
    assert main(["memory", "list"]) == 0
    captured = capsys.readouterr()
    assert "I drink tea" in captured.out  # the note stays usable
    assert shown in captured.err and "out of range" in captured.err and str(path) in captured.err
    moved = [p for p in path.parent.iterdir() if ".corrupt-" in p.name]
    assert len(moved) == 1 and moved[0].read_bytes() == original  # the original, byte for byte
    assert str(moved[0]) in captured.err
    repaired = json.loads(path.read_text())["items"][0]
    assert 0 <= repaired.get("use_count", 0) <= 2**31 - 1
    assert math.isfinite(repaired["confidence"]) and 0 <= repaired["confidence"] <= 1
    assert main(["memory", "add", "and short answers"]) == 0  # writes work again
    assert main(["memory", "list"]) == 0
    assert capsys.readouterr().err == ""  # reported once, then the file is clean


def test_argv_that_is_not_utf8_is_refused_with_exit_2(run_cli, isolated_home):
    for argv in ([b"memory", b"add", b"caf\xe9 au lait"], [b"profile", b"create", b"w\xffrk"]):
        import os
        import subprocess
        import sys

        from tests.unit.faults.conftest import REPO

        env = dict(os.environ, PYTHONPATH=f"{REPO}{os.pathsep}{REPO / 'src'}", LC_ALL="C.UTF-8")
        proc = subprocess.run([sys.executable.encode(), b"-m", b"agenttui", *argv],
                              capture_output=True, env=env, timeout=60)
        err = proc.stderr.decode()
        assert proc.returncode == 2, err
        assert "not valid UTF-8" in err and "nothing was done" in err and "Traceback" not in err
    assert not (isolated_home / "data" / "memory").exists()  # nothing written


@pytest.mark.slow
def test_stdin_that_is_not_utf8_is_asked_with_replacement(run_cli, fake_openai, isolated_home):
    fake_openai.reply("ok, understood")
    result = run_cli(isolated_home, "ask", "-", input=b"caf\xe9 au lait, or \xff tea?")
    no_traceback(result)
    assert result.code == 0, result.err
    assert "ok, understood" in result.out
    assert "stdin is not valid UTF-8" in result.err and "2 character(s) replaced" in result.err
    asked = [m["content"] for m in fake_openai.last_messages() if m["role"] == "user"][-1]
    assert "caf\ufffd au lait, or \ufffd tea?" in str(asked)


@pytest.mark.parametrize("name", ["evil\n", "evil\r\n", "a/b", "..", "", "x" * 65, "évil"])
def test_profile_names_are_matched_whole(name, capsys):
    with pytest.raises(InvalidProfileName):
        check_profile_name(name)
    assert main(["profile", "create", name]) in (1, 2)
    assert "invalid profile name" in capsys.readouterr().err


def test_a_refused_huge_fact_key_is_not_echoed_in_full(capsys):
    key = "K" * 100_000
    assert main(["memory", "set", key, "value"]) == 1
    err = capsys.readouterr().err
    assert "not saved" in err and "more characters)" in err
    assert len(err) < 2_000


@pytest.mark.slow
def test_a_refused_5mb_note_from_the_model_is_not_echoed_in_full(fake_openai, run_cli, isolated_home):
    note = "remember this " * 400_000  # ~5.6 MB: over any note limit
    fake_openai.tool_call("remember", {"text": note})
    fake_openai.reply("I could not remember that.")
    result = run_cli(isolated_home, "ask", "please remember my essay")
    no_traceback(result)
    assert result.code == 0, result.err[:500]
    assert "memory write blocked" in result.err and "more characters)" in result.err
    assert len(result.err) < 5_000
