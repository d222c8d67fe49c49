"""Each reply keeps the model that answered, the provider's tokens and a price, in SQLite.

Real ``openai`` client against the fake server's usage chunk (``include_usage``), real store.
"""

from __future__ import annotations

import threading

from agenttui.agent.loop import run_turn

from .conftest import collect, final


def _priced() -> None:
    """Wait for the pricing pass a turn starts after it ends (the table loads in a thread)."""
    for thread in threading.enumerate():
        if thread.name == "agenttui-prices":
            thread.join(timeout=120)


async def test_provider_counts_model_and_cost_are_stored(services, fake_openai):
    services.settings.model = "gpt-4o-mini"  # in the offline price table
    conversation = services.history.create_conversation()
    fake_openai.usage_extra = {"prompt_tokens_details": {"cached_tokens": 7},
                               "completion_tokens_details": {"reasoning_tokens": 3}}
    fake_openai.reply("four words in reply")
    done = final(await collect(run_turn(services, conversation.id, "hello there")))
    _priced()

    stored = services.history.messages(conversation.id)[-1]
    usage = services.history.usage_for([stored.id])[stored.id]
    sent = fake_openai.chat_requests[-1]
    assert usage.model == "gpt-4o-mini" and not usage.estimated
    assert usage.prompt_tokens == done.trace.prompt_tokens > 0
    assert usage.completion_tokens == 4 and usage.cached_tokens == 7 and usage.reasoning_tokens == 3
    assert sent["model"] == "gpt-4o-mini"
    assert usage.priced_as == "openai/gpt-4o-mini"
    assert usage.cost is not None and usage.cost > 0


async def test_the_model_that_answered_is_kept_not_the_one_asked(services, fake_openai):
    fake_openai.answered_by = "some-lab/unknown-model-7b"
    conversation = services.history.create_conversation()
    await collect(run_turn(services, conversation.id, "hello", model="router-auto"))
    _priced()
    stored = services.history.messages(conversation.id)[-1]
    usage = services.history.usage_for([stored.id])[stored.id]
    assert usage.model == "some-lab/unknown-model-7b"
    assert usage.cost is None and usage.priced_as == ""  # looked up, unknown: tokens only
    assert usage.completion_tokens > 0


async def test_without_provider_counts_the_estimate_is_marked(services, fake_openai):
    fake_openai.usage_off = True
    conversation = services.history.create_conversation()
    fake_openai.reply("a reply of some words")
    await collect(run_turn(services, conversation.id, "hello"))
    stored = services.history.messages(conversation.id)[-1]
    usage = services.history.usage_for([stored.id])[stored.id]
    assert usage.estimated and usage.prompt_tokens > 0 and usage.completion_tokens > 0


async def test_a_tool_step_and_the_final_reply_each_have_usage(services, fake_openai):
    conversation = services.history.create_conversation()
    fake_openai.tool_call("remember", {"text": "likes tea"}).reply("noted")
    await collect(run_turn(services, conversation.id, "remember that I like tea"), approve=True)
    stored = services.history.messages(conversation.id)
    replies = [m for m in stored if m.role == "assistant"]
    assert len(replies) == 2
    usage = services.history.usage_for([m.id for m in stored])
    assert set(usage) == {m.id for m in replies}  # user and tool messages have none


async def test_the_inspector_lists_the_turn_s_replies_with_their_usage(services, fake_openai):
    from agenttui.agent.prompt_capture import last_prompt
    from agenttui.ui.screens.prompt_inspector import usage_text

    services.settings.model = "gpt-4o-mini"
    conversation = services.history.create_conversation()
    fake_openai.tool_call("remember", {"text": "likes tea"}).reply("noted")
    await collect(run_turn(services, conversation.id, "remember that I like tea"), approve=True)
    _priced()
    prompt = last_prompt(services)
    text = usage_text(services.history, prompt)
    replies = [m for m in services.history.messages(conversation.id) if m.role == "assistant"]
    assert text.startswith("usage of this turn's replies:")
    for reply in replies:
        assert f"#{reply.id}  gpt-4o-mini · " in text
    assert "turn: " in text and "$" in text
    other = services.history.create_conversation()
    await collect(run_turn(services, other.id, "hello"))
    assert f"#{replies[0].id} " not in usage_text(services.history, last_prompt(services))  # its own turn only
