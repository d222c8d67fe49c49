"""The opt-in key file: 0600, one line, loose permissions refused, lookup order."""

from __future__ import annotations

import os
import stat

import pytest

from agenttui.core.config.api_key import get_api_key
from agenttui.core.config.key_file import KeyFileError, delete_key_file, key_file_path, read_key_file, write_key_file

KEY = "sk-test-abcdefghijklmnopqrstuvwxyz0123456789ABCD"
posix_only = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX permissions")


@posix_only
def test_written_0600_even_with_a_loose_umask_and_read_back(tmp_path):
    path = key_file_path(tmp_path / "config")
    old = os.umask(0o000)  # the most permissive umask must not widen the file
    try:
        write_key_file(path, f"  {KEY}\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text() == KEY + "\n"
    assert read_key_file(path) == (KEY, None)
    assert not [p for p in path.parent.iterdir() if p.name != path.name]  # no temporary left over
    write_key_file(path, "sk-other")  # replaced, still 0600
    assert read_key_file(path) == ("sk-other", None) and stat.S_IMODE(path.stat().st_mode) == 0o600


@posix_only
def test_a_file_others_can_read_is_not_used_and_says_how_to_fix_it(tmp_path):
    path = key_file_path(tmp_path)
    write_key_file(path, KEY)
    path.chmod(0o644)
    key, problem = read_key_file(path)
    assert key is None and "0644" in problem and f"chmod 600 {path}" in problem
    lookup = get_api_key({}, key_file=path)
    assert lookup.value is None and "chmod 600" in lookup.problem


def test_bad_values_are_refused_and_nothing_is_written(tmp_path):
    path = key_file_path(tmp_path)
    for bad in ("", "   ", "sk-a\nsk-b", "sk\0x"):
        with pytest.raises(KeyFileError, match="one non-empty line"):
            write_key_file(path, bad)
    assert not path.exists()


def test_missing_file_is_no_key_and_delete_says_whether_there_was_one(tmp_path):
    path = key_file_path(tmp_path)
    assert read_key_file(path) == (None, None)
    assert delete_key_file(path) is False
    write_key_file(path, KEY)
    assert delete_key_file(path) is True and not path.exists()


def test_lookup_order_env_session_keyring_file(tmp_path, memory_keyring):
    from agenttui.core.config.api_key import set_api_key

    path = key_file_path(tmp_path)
    write_key_file(path, "sk-from-file")
    assert get_api_key({}, key_file=path).source == "file"
    set_api_key("sk-from-keyring")
    assert get_api_key({}, key_file=path).value == "sk-from-keyring"
    assert get_api_key({}, session="sk-typed", key_file=path).source == "session"
    env = {"OPENAI_API_KEY": "sk-env"}
    assert get_api_key(env, session="sk-typed", key_file=path).value == "sk-env"


def test_without_a_keyring_the_file_is_found_and_the_advice_kept_otherwise(tmp_path, no_keyring):
    path = key_file_path(tmp_path)
    missing = get_api_key({}, key_file=path)
    assert missing.value is None and "OPENAI_API_KEY" in missing.problem  # the keyring advice
    write_key_file(path, KEY)
    found = get_api_key({}, key_file=path)
    assert (found.value, found.source) == (KEY, "file")


def test_doctor_finds_the_key_file_without_a_keyring(tmp_path, no_keyring):
    from agenttui.core.config.paths import Paths
    from agenttui.core.doctor.checks import DoctorContext, check_api_key

    paths = Paths(config_dir=tmp_path / "config", data_dir=tmp_path / "data")
    assert check_api_key(DoctorContext(paths, {}, offline=True)).status == "fail"
    write_key_file(key_file_path(paths.config_dir), KEY)
    found = check_api_key(DoctorContext(paths, {}, offline=True))
    assert found.status == "ok" and "key file" in found.detail and KEY not in found.detail
