"""Each doctor check, passing and failing, against real files and a real server."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import keyring
import pytest
from keyring.backends import fail as fail_backend

from agenttui.core.doctor import checks as doctor
from agenttui.core.doctor.checks import DoctorContext
from agenttui.core.files import atomic_write_text, ensure_dir


@pytest.fixture
def ctx(paths):
    return DoctorContext(paths=paths, environ={}, endpoint_timeout=2.0)


@pytest.fixture
def no_keyring():
    previous = keyring.get_keyring()
    keyring.set_keyring(fail_backend.Keyring())
    yield
    keyring.set_keyring(previous)


@pytest.fixture
def memory_keyring():
    from tests.fakes.memory_keyring import memory_keyring_installed

    with memory_keyring_installed() as backend:
        yield backend


def test_python_version(ctx):
    assert doctor.check_python(ctx).status == "ok"
    ctx.python_version = (3, 10)
    result = doctor.check_python(ctx)
    assert result.status == "fail" and "3.11" in result.fix


def test_config_missing_valid_broken_and_unknown(ctx, paths):
    assert doctor.check_config(ctx).status == "ok"
    ensure_dir(paths.config_dir)
    paths.config_file.write_text('model = "gpt-4o"\n')
    assert doctor.check_config(ctx).status == "ok"
    paths.config_file.write_text('model = "gpt-4o"\nmodel = \n')
    broken = doctor.check_config(ctx)
    assert broken.status == "fail" and "line 2" in broken.detail
    assert paths.config_file.read_text() == 'model = "gpt-4o"\nmodel = \n'  # untouched
    paths.config_file.write_text('model = "gpt-4o"\nno_such_key = 1\n')
    assert doctor.check_config(ctx).status == "warn"


def test_permissions_private_and_loose(ctx, paths):
    assert doctor.check_permissions(ctx).status == "ok"  # nothing written yet
    atomic_write_text(paths.user_memory_file, '{"schema": 1, "scope": "user", "items": []}')
    assert doctor.check_permissions(ctx).status == "ok"
    os.chmod(paths.user_memory_file, 0o644)
    loose = doctor.check_permissions(ctx)
    assert loose.status == "warn" and "user.json" in loose.detail and "chmod" in loose.fix


def test_keyring_present_and_absent(ctx, memory_keyring):
    assert doctor.check_keyring(ctx).status == "ok"


def test_keyring_absent_explains_fix(ctx, no_keyring):
    result = doctor.check_keyring(ctx)
    assert result.status == "warn"
    assert "OPENAI_API_KEY" in result.fix


def test_api_key_from_env_is_never_printed(ctx, no_keyring):
    ctx.environ = {"OPENAI_API_KEY": "sk-test-value-that-must-not-show"}
    result = doctor.check_api_key(ctx)
    assert result.status == "ok" and "environment" in result.detail
    assert "sk-test" not in result.detail


def test_api_key_from_keyring(ctx, memory_keyring):
    keyring.set_password("agenttui", "api_key", "from-the-keyring")
    result = doctor.check_api_key(ctx)
    assert result.status == "ok" and "keyring" in result.detail


def test_api_key_missing(ctx, no_keyring):
    result = doctor.check_api_key(ctx)
    assert result.status == "fail" and "agenttui key set" in result.fix


# The endpoint checks (models list, chat probe, request options): test_doctor_endpoint.py


def test_history_database_ok_and_corrupt(ctx, paths):
    assert doctor.check_databases(ctx).status == "ok"
    db = paths.history_db("default")
    ensure_dir(db.parent)
    with sqlite3.connect(db) as conn:
        conn.execute("create table t (x)")
    assert doctor.check_databases(ctx).status == "ok"
    db.write_bytes(b"SQLite format 3\x00" + os.urandom(4096))
    result = doctor.check_databases(ctx)
    assert result.status == "fail" and "restore" in result.fix


def test_memory_valid_invalid_and_quarantined(ctx, paths):
    from agenttui.core.models import MemoryItem

    item = MemoryItem(kind="note", scope="user", text="prefers short answers")
    atomic_write_text(paths.user_memory_file,
                      json.dumps({"schema": 1, "scope": "user", "items": [item.to_dict()]}))
    assert doctor.check_memory(ctx).status == "ok"
    profile_file = paths.profile_memory_file("default")
    atomic_write_text(profile_file, "{ not json")
    bad = doctor.check_memory(ctx)
    assert bad.status == "fail" and "memory.json" in bad.detail
    os.replace(profile_file, profile_file.with_name("memory.json.corrupt-20260101T000000Z"))
    moved = doctor.check_memory(ctx)
    assert moved.status == "warn" and "corrupt-" in moved.detail


@pytest.mark.slow
def test_cli_verdict_and_exit_code(isolated_home):
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env.update(AGENTTUI_HOME=str(isolated_home), PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
    failing = subprocess.run([sys.executable, "-m", "agenttui", "doctor", "--offline"],
                             capture_output=True, text=True, env=env, timeout=60)
    assert failing.returncode == 1 and "verdict: 1 problem(s) to fix" in failing.stdout
    env["OPENAI_API_KEY"] = "anything"
    passing = subprocess.run([sys.executable, "-m", "agenttui", "doctor", "--offline", "--json"],
                             capture_output=True, text=True, env=env, timeout=60)
    report = json.loads(passing.stdout)
    assert passing.returncode == 0 and report["ok"] is True
    assert {c["name"] for c in report["checks"]} >= {"python", "config", "api key", "endpoint", "history", "memory"}
