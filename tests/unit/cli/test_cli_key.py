"""``agenttui key set|delete``: stdin, never argv; plain advice without a backend."""

from __future__ import annotations

import json

import pytest


def test_key_set_reads_stdin_into_the_keyring(cli, file_keyring):
    store, env = file_keyring
    result = cli("key", "set", input="sk-test-from-stdin\n", env=env)
    assert result.code == 0, result.err
    assert json.loads(store.read_text()) == {"agenttui/api_key": "sk-test-from-stdin"}
    assert "sk-test-from-stdin" not in result.out + result.err


def test_key_is_never_taken_from_argv(cli, file_keyring):
    store, env = file_keyring
    result = cli("key", "set", "sk-on-the-command-line", env=env)
    assert result.code == 2
    assert not store.exists()


def test_empty_stdin_is_refused(cli, file_keyring):
    store, env = file_keyring
    result = cli("key", "set", input="", env=env)
    assert result.code == 1 and "no key given" in result.err
    assert not store.exists()


def test_no_backend_exit_1_with_plain_advice(cli):
    # the shared conftest selects keyring.backends.fail.Keyring for subprocesses
    result = cli("key", "set", input="sk-x\n")
    assert result.code == 1
    assert "No usable keyring backend" in result.err
    assert "OPENAI_API_KEY" in result.err and "keyrings.alt" in result.err


@pytest.mark.slow
def test_key_delete_needs_yes_off_a_terminal(cli, file_keyring):
    store, env = file_keyring
    cli("key", "set", input="sk-x\n", env=env)
    refused = cli("key", "delete", env=env)
    assert refused.code == 1 and "without --yes" in refused.err
    assert "agenttui/api_key" in json.loads(store.read_text())
    done = cli("key", "delete", "--yes", env=env)
    assert done.code == 0, done.err
    assert json.loads(store.read_text()) == {}
    assert cli("key", "delete", "--yes", env=env).code == 1  # nothing left to delete


@pytest.mark.slow
def test_key_for_one_profile_wins_for_that_profile_only(cli, file_keyring, monkeypatch, isolated_home):
    store, env = file_keyring
    assert cli("profile", "create", "work", env=env).code == 0
    assert cli("key", "set", input="sk-shared\n", env=env).code == 0
    scoped = cli("--profile", "work", "key", "set", "--this-profile", input="sk-work\n", env=env)
    assert scoped.code == 0 and "for profile 'work'" in scoped.out
    assert json.loads(store.read_text()) == {"agenttui/api_key": "sk-shared",
                                             "agenttui/api_key:work": "sk-work"}

    import keyring

    from agenttui.bootstrap import build_services
    from tests.fakes.memory_keyring import FileKeyring

    for name, value in env.items():
        monkeypatch.setenv(name, value)
    home_only = {"AGENTTUI_HOME": str(isolated_home)}  # no OPENAI_API_KEY: the keyring decides
    previous = keyring.get_keyring()
    keyring.set_keyring(FileKeyring())
    try:
        assert build_services(profile="work", environ=home_only).api_key().value == "sk-work"
        assert build_services(profile="default", environ=home_only).api_key().value == "sk-shared"
    finally:
        keyring.set_keyring(previous)
    gone = cli("--profile", "work", "key", "delete", "--this-profile", "--yes", env=env)
    assert gone.code == 0
    assert json.loads(store.read_text()) == {"agenttui/api_key": "sk-shared"}


# -- --file: the opt-in 0600 key file for systems without a keyring --------
def _key_file(home):
    from agenttui.core.config.key_file import key_file_path
    from agenttui.core.config.paths import Paths

    return key_file_path(Paths.from_env({"AGENTTUI_HOME": str(home)}).config_dir)


def test_without_a_keyring_set_names_the_file_opt_in_and_writes_nothing(cli, isolated_home):
    result = cli("key", "set", input="sk-test-nokeyring\n")  # the fail backend (conftest)
    assert result.code == 1
    assert "agenttui key set --file" in result.err and "not encrypted" in result.err
    assert not _key_file(isolated_home).exists()


def test_key_set_file_writes_0600_and_the_app_finds_it(cli, isolated_home):
    import stat

    result = cli("key", "set", "--file", input="sk-test-in-a-file\n")
    assert result.code == 0, result.err
    path = _key_file(isolated_home)
    assert str(path) in result.out and "not encrypted" in result.out
    assert "sk-test-in-a-file" not in result.out + result.err
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text() == "sk-test-in-a-file\n"

    from agenttui.bootstrap import build_services

    lookup = build_services(environ={"AGENTTUI_HOME": str(isolated_home)}).api_key()
    assert (lookup.value, lookup.source) == ("sk-test-in-a-file", "file")
    replaced = cli("key", "set", "--file", input="sk-test-second\n")
    assert replaced.code == 0 and path.read_text() == "sk-test-second\n"


def test_key_file_is_for_all_profiles_only(cli, isolated_home):
    result = cli("key", "set", "--file", "--this-profile", input="sk-x\n")
    assert result.code == 2 and "not allowed with" in result.err
    assert not _key_file(isolated_home).exists()


def test_key_delete_file_needs_yes_and_says_when_there_is_none(cli, isolated_home):
    assert cli("key", "set", "--file", input="sk-test-gone\n").code == 0
    path = _key_file(isolated_home)
    refused = cli("key", "delete", "--file")
    assert refused.code == 1 and "without --yes" in refused.err and path.exists()
    done = cli("key", "delete", "--file", "--yes")
    assert done.code == 0 and not path.exists()
    again = cli("key", "delete", "--file", "--yes")
    assert again.code == 1 and "no key file" in again.err


def test_key_set_file_says_a_keyring_key_wins(cli, file_keyring):
    store, env = file_keyring
    assert cli("key", "set", input="sk-test-keyring\n", env=env).code == 0
    result = cli("key", "set", "--file", input="sk-test-file\n", env=env)
    assert result.code == 0 and "keyring takes precedence" in result.out
