"""``agenttui usage`` and the usage in ``history show``: real subprocesses, the real openai
client against the fake server (its usage chunk), real SQLite."""

from __future__ import annotations

import json

import pytest


@pytest.mark.slow
def test_ask_with_two_models_then_show_and_usage(cli, fake_openai):
    fake_openai.usage_extra = {"prompt_tokens_details": {"cached_tokens": 5}}
    fake_openai.reply("one two three")
    assert cli("ask", "--model", "gpt-4o-mini", "hello").code == 0
    fake_openai.reply("four five")
    assert cli("ask", "--model", "other-model", "again").code == 0

    listed = json.loads(cli("history", "list", "--json").out)
    shown = json.loads(cli("history", "show", listed[0]["id"][:8], "--json").out)
    replies = [m for m in shown["messages"] if m["role"] == "assistant"]
    assert [r["usage"]["model"] for r in replies] == ["gpt-4o-mini", "other-model"]
    assert replies[0]["usage"]["completion_tokens"] == 3 and replies[0]["usage"]["cached_tokens"] == 5
    assert replies[0]["usage"]["cost"] > 0 and replies[1]["usage"]["cost"] is None
    assert all(m["usage"] is None for m in shown["messages"] if m["role"] == "user")
    text = cli("history", "show", listed[0]["id"][:8]).out
    assert "gpt-4o-mini · " in text and "(5 cached)" in text and "other-model" in text
    assert "no price known" in text

    by_model = json.loads(cli("usage", "--by", "model", "--json").out)
    groups = {g["key"]: g for g in by_model["groups"]}
    assert set(groups) == {"gpt-4o-mini", "other-model"}
    assert groups["other-model"]["unpriced"] == 1 and groups["gpt-4o-mini"]["unpriced"] == 0
    assert by_model["total"]["replies"] == 2
    assert by_model["total"]["cost"] == pytest.approx(groups["gpt-4o-mini"]["cost"])
    table = cli("usage", "--by", "day").out
    assert "1 unpriced" in table and table.splitlines()[-1].startswith("total")
    assert json.loads(cli("usage", "--by", "profile", "--json").out)["groups"][0]["key"] == "default"
    assert json.loads(cli("usage", "--since", "2999-01-01", "--json").out)["total"]["replies"] == 0
    assert json.loads(cli("usage", "--since", "1d", "--json").out)["total"]["replies"] == 2
    bad = cli("usage", "--since", "yesterday-ish")
    assert bad.code == 1 and "--since" in bad.err
