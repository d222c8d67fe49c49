"""API key lookup and keyring status."""

from __future__ import annotations

import pytest

from agenttui.core.config.api_key import NoKeyringBackend, delete_api_key, get_api_key, keyring_status, set_api_key


def test_env_var_wins_over_keyring(memory_keyring):
    set_api_key("from-keyring")
    found = get_api_key({"OPENAI_API_KEY": "from-env"})
    assert (found.value, found.source) == ("from-env", "env")


def test_keyring_round_trip(memory_keyring):
    assert get_api_key({}).value is None
    set_api_key("  sk-test-123 \n")
    assert memory_keyring.store[("agenttui", "api_key")] == "sk-test-123"
    found = get_api_key({})
    assert (found.value, found.source, found.problem) == ("sk-test-123", "keyring", None)
    assert delete_api_key() is True
    assert delete_api_key() is False
    assert get_api_key({}).value is None


def test_per_profile_key_is_looked_up_first(memory_keyring):
    set_api_key("shared")
    set_api_key("for-work", profile="work")
    assert get_api_key({}, profile="work").value == "for-work"
    assert get_api_key({}, profile="other").value == "shared"


def test_status_ok_with_a_real_backend(memory_keyring):
    ok, name, advice = keyring_status()
    assert ok and name.endswith("MemoryKeyring") and advice == ""


def test_no_backend_gives_plain_advice(no_keyring):
    ok, name, advice = keyring_status()
    assert not ok and name == "keyring.backends.fail.Keyring"
    assert "OPENAI_API_KEY" in advice and "keyrings.alt" in advice and "gnome-keyring" in advice
    lookup = get_api_key({})
    assert lookup.value is None and "OPENAI_API_KEY" in lookup.problem
    with pytest.raises(NoKeyringBackend, match="keyrings.alt"):
        set_api_key("x")
    with pytest.raises(NoKeyringBackend):
        delete_api_key()


def test_env_var_still_works_without_a_backend(no_keyring):
    assert get_api_key({"OPENAI_API_KEY": "k"}).value == "k"


def test_chainer_with_nothing_to_chain_is_not_usable(use_keyring):
    from keyring.backends.chainer import ChainerBackend

    class EmptyChainer(ChainerBackend):  # what keyring builds when nothing is viable
        backends = []  # type: ignore[assignment]

    use_keyring(EmptyChainer())
    ok, name, advice = keyring_status()
    assert not ok and name.endswith("EmptyChainer") and "OPENAI_API_KEY" in advice


def test_multiline_key_is_refused(memory_keyring):
    from agenttui.core.config.api_key import SecretsError

    with pytest.raises(SecretsError):
        set_api_key("a\nb")
