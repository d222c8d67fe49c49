"""Error text a newcomer reads, on the command line: a bad archive gets one line saying what is wrong, not
tarfile's list of every decompression method it tried (nothing is changed); ``ask`` without a
key says how to set one in one plain line, offering only the ways that work here."""

from __future__ import annotations

from pathlib import Path

from agenttui.core.files import atomic_write_text

REPO = Path(__file__).resolve().parents[3]


def _one_line_refusal(result, archive: Path) -> str:
    assert result.code == 1
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert "method gz" not in result.err and "ReadError" not in result.err
    assert str(archive) in lines[0]
    return lines[0]


def test_a_file_that_is_not_an_archive(cli, paths, tmp_path):
    atomic_write_text(paths.user_memory_file, '{"v": 1}')
    archive = tmp_path / "notes.tar.gz"
    archive.write_bytes((REPO / "README.md").read_bytes()[:4000])  # text renamed .tar.gz
    line = _one_line_refusal(cli("restore", str(archive), "--yes"), archive)
    assert "not a readable backup archive" in line
    assert paths.user_memory_file.read_text() == '{"v": 1}'


def test_a_cut_off_archive(cli, paths, tmp_path):
    # a real backup holding a large incompressible note, cut in half as by an interrupted copy
    atomic_write_text(paths.user_memory_file, '{"v": "' + (REPO / "README.md").read_text()[:20000]
                      .encode().hex() + '"}')
    whole = tmp_path / "whole.tar.gz"
    assert cli("backup", "--output", str(whole)).code == 0
    data = whole.read_bytes()
    archive = tmp_path / "half.tar.gz"
    archive.write_bytes(data[: len(data) // 2])
    line = _one_line_refusal(cli("restore", str(archive), "--yes"), archive)
    assert "incomplete" in line


def test_ask_without_a_key_says_so_in_one_plain_line(cli):
    # no OPENAI_API_KEY and no keyring backend in the test home (tests/conftest.py)
    result = cli("ask", "hello")
    assert result.code == 1
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "OPENAI_API_KEY" in lines[0] and "`" not in lines[0]
    assert "no keyring" in lines[0]


def test_ask_without_a_key_but_with_a_keyring_offers_key_set(cli, file_keyring):
    _, env = file_keyring
    result = cli("ask", "hello", env=env)
    assert result.code == 1
    assert "agenttui key set" in result.err and len(result.err.strip().splitlines()) == 1
