"""The offline token estimate: sane, bounded, and never a download."""

from __future__ import annotations

import subprocess
import sys

import pytest

from agenttui.core.models import Message, ToolCall
from agenttui.core.tokens import (
    IMAGE_TOKENS,
    MESSAGE_OVERHEAD,
    compute_message_tokens,
    estimate_tokens,
    message_tokens,
    wire_tokens,
)


def test_empty_is_zero_and_any_text_is_at_least_one():
    assert estimate_tokens("") == 0
    assert estimate_tokens(None) == 0
    assert estimate_tokens("a") == 1


@pytest.mark.parametrize(
    ("text", "reference"),  # cl100k_base counts, known by heart
    [
        ("Hello, world!", 4),
        ("The quick brown fox jumps over the lazy dog.", 10),
    ],
)
def test_prose_within_the_documented_bound(text, reference):
    estimate = estimate_tokens(text)
    assert 0.75 * reference <= estimate <= 1.25 * reference


def test_grows_linearly_with_text():
    one = estimate_tokens("The quick brown fox jumps over the lazy dog. ")
    many = estimate_tokens("The quick brown fox jumps over the lazy dog. " * 100)
    assert 90 * one <= many <= 110 * one


def test_code_counts_more_than_its_words_suggest():
    code = 'def f(x):\n    return {"a": x[0], "b": [1, 2, 3]}\n'
    assert estimate_tokens(code) > len(code.split()) * 4 / 3


def test_non_latin_text_is_not_undercounted_to_nothing():
    assert estimate_tokens("你好世界你好世界") >= 4
    assert estimate_tokens("Привет, как дела?") >= 5


def test_message_tokens_adds_framing_tool_calls_and_images():
    plain = Message(role="user", content="hello there")
    assert compute_message_tokens(plain) == MESSAGE_OVERHEAD + estimate_tokens("hello there")
    call = Message(role="assistant", tool_calls=[ToolCall("c1", "recall", '{"query": "x"}')])
    assert compute_message_tokens(call) > MESSAGE_OVERHEAD + 8
    image = Message(role="user", content="look", image_b64="AAAA")
    assert compute_message_tokens(image) >= IMAGE_TOKENS


def test_message_tokens_trusts_a_stored_estimate():
    stored = Message(role="user", content="hello " * 100, tokens=7)
    assert message_tokens(stored) == 7
    assert compute_message_tokens(stored) > 7


def test_wire_tokens_counts_text_parts_and_images():
    wire = [{"role": "system", "content": "be brief"},
            {"role": "user", "content": [{"type": "text", "text": "what is this"},
                                         {"type": "image_url", "image_url": {"url": "data:"}}]}]
    assert wire_tokens(wire) >= IMAGE_TOKENS + estimate_tokens("be brief")


def test_importing_tokens_pulls_in_no_tokenizer_library():
    code = ("import sys, agenttui.core.tokens as t; t.estimate_tokens('hi');"
            "print(any(m.split('.')[0] in {'tiktoken', 'tokenizers', 'transformers'} "
            "for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
