"""`agenttui ask` end to end: a real subprocess against the fake server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

GITHUB_TOKEN = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"


def ask(*args: str, env_extra: dict[str, str] | None = None, stdin: str | None = None,
        cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "agenttui", "ask", *args], capture_output=True,
                          text=True, env=env, timeout=60, input=stdin, cwd=cwd)


def all_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()]


@pytest.mark.slow
def test_ask_streams_the_reply_and_keeps_no_secret_on_disk(fake_openai, isolated_home, tmp_path):
    fake_openai.reply("Stored safely, \x1b[31mred\x1b[0m text.")
    proc = ask(f"my github token is {GITHUB_TOKEN}, keep it", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Stored safely" in proc.stdout
    assert "\x1b" not in proc.stdout  # escapes made inert
    files = all_files(isolated_home)
    assert any(p.name.startswith("history") for p in files)
    for path in files:  # the database, its WAL, memory, backups: every byte
        assert GITHUB_TOKEN.encode() not in path.read_bytes(), path
    # the next ask continues the same conversation
    fake_openai.reply("Second.")
    again = ask("and again", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    user_turns = [m for m in fake_openai.last_messages() if m["role"] == "user"]
    assert len(user_turns) == 2
    fresh = ask("new one", "--new", cwd=tmp_path)
    assert fresh.returncode == 0
    assert len([m for m in fake_openai.last_messages() if m["role"] == "user"]) == 1


@pytest.mark.slow
def test_ask_without_a_key_exits_1_and_says_how(monkeypatch, fake_openai, tmp_path):
    monkeypatch.delenv("OPENAI_API_KEY")
    proc = ask("hello", cwd=tmp_path)
    assert proc.returncode == 1
    # no keyring here: only the way that works is offered
    assert "OPENAI_API_KEY" in proc.stderr and "no keyring" in proc.stderr
    assert fake_openai.chat_requests == []


@pytest.mark.slow
def test_ask_reports_endpoint_failure_with_exit_1(fake_openai, tmp_path):
    fake_openai.status(401, message="invalid api key")
    proc = ask("hello", cwd=tmp_path)
    assert proc.returncode == 1
    assert "401" in proc.stderr and "invalid api key" in proc.stderr


@pytest.mark.slow
def test_ask_denies_shell_without_yes(fake_openai, tmp_path):
    marker = tmp_path / "created-by-shell"
    fake_openai.tool_call("run_shell", {"command": f"touch {marker}"}).reply("ok, not run")
    proc = ask("make a file", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "denied" in proc.stderr and f"touch {marker}" in proc.stderr
    assert not marker.exists()
    fake_openai.tool_call("run_shell", {"command": f"touch {marker}"}).reply("done")
    proc = ask("make a file", "--yes", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "approved" in proc.stderr and marker.exists()


@pytest.mark.slow
def test_ask_model_flag_and_env(fake_openai, tmp_path):
    ask("hi", "--model", "flag-model", cwd=tmp_path)
    assert fake_openai.chat_requests[-1]["model"] == "flag-model"
    ask("hi", env_extra={"AGENTTUI_MODEL": "env-model"}, cwd=tmp_path)
    assert fake_openai.chat_requests[-1]["model"] == "env-model"


@pytest.mark.slow
def test_ask_with_image(fake_openai, tmp_path):
    image = tmp_path / "pic.jpg"
    image.write_bytes(b"\xff\xd8\xff\xe0fakejpeg")
    proc = ask("describe", "--image", str(image), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    part = fake_openai.last_messages()[-1]["content"][1]
    assert part["image_url"]["url"].startswith("data:image/jpeg;base64,")
    missing = ask("describe", "--image", str(tmp_path / "nope.png"), cwd=tmp_path)
    assert missing.returncode == 1 and "cannot read" in missing.stderr
