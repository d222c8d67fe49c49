"""``agenttui key set|delete`` (S3): stdin, never argv; plain advice without a backend."""

from __future__ import annotations

import json


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
