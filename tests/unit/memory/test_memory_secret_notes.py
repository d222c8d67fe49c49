"""A note that is mostly a secret is refused; otherwise only what still says
something is kept, and the reason says what was removed.

Key shapes follow the providers' published formats: OpenAI project keys ``sk-proj-…``
(platform.openai.com/docs/api-reference/authentication), GitHub classic PATs ``ghp_`` + 36
characters (github.blog 2021-04-05 "Behind GitHub's new authentication token formats").
"""

from __future__ import annotations

import pytest

from agenttui.core.config.settings import MemorySettings
from agenttui.core.memory.gate import check_write
from agenttui.core.memory.secret_notes import trim_secret_sentences

OPENAI_KEY = "sk-proj-" + "Ab3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9"
GITHUB_PAT = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def gate(text: str, source: str = "explicit"):
    return check_write("note", "user", source, settings=MemorySettings(), text=text)


@pytest.mark.parametrize("text", [
    f"my openai key is {OPENAI_KEY}",
    f"My GitHub token: {GITHUB_PAT}",
    f"the deploy key for prod is {OPENAI_KEY}",
    "use password Tr0ub4dor&3xyzQ for the wifi at home",
])
def test_a_note_that_only_names_its_secret_is_refused_with_a_reason(text):
    decision = gate(text)
    assert decision.action == "reject"
    assert "mostly a secret" in decision.reason and "never stored" in decision.reason
    assert "REDACTED" not in decision.reason  # the user reads words, not markers
    for secret in (OPENAI_KEY, GITHUB_PAT, "Tr0ub4dor"):
        assert secret not in decision.reason


def test_the_reason_names_the_kind_of_secret():
    assert "openai key" in gate(f"my openai key is {OPENAI_KEY}").reason


def test_a_sentence_naming_the_secret_is_dropped_and_the_rest_kept():
    decision = gate(f"Call me Bob. My GitHub token is {GITHUB_PAT}.")
    assert decision.action == "add"
    assert decision.text == "Call me Bob."
    assert "Removed “My GitHub token is [REDACTED:github_token].”" in decision.reason
    assert GITHUB_PAT not in decision.reason


def test_a_secret_inside_a_connection_string_keeps_the_useful_rest():
    decision = gate("staging db is postgres://app:hunter2secretpw@db1.internal:5432/app")
    assert decision.action == "add"
    assert "db1.internal:5432/app" in decision.text and "hunter2secretpw" not in decision.text
    assert "redacted" in decision.reason and "url password" in decision.reason


def test_a_sentence_with_enough_words_besides_the_secret_is_kept():
    decision = gate(f"staging uses key {OPENAI_KEY} for the nightly smoke tests")
    assert decision.action == "add" and "nightly smoke tests" in decision.text


def test_trim_keeps_a_note_without_redactions_unchanged():
    text = "Line one.\nLine two; with more."
    assert trim_secret_sentences(text).kept == text
    assert trim_secret_sentences(text).removed == []
