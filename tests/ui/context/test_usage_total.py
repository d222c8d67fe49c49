"""The header's running usage total of the open conversation: the fake server's usage chunk
stored, summed per conversation, shown after each turn and when a conversation opens.
Real SQLite, the real openai client against the fake server, Textual Pilot."""

from __future__ import annotations

import pytest

from agenttui.core.usage.totals import UsageTotal as Total
from agenttui.ui.app import make_app
from agenttui.ui.widgets.usage_total import UsageTotal, compact_tokens, total_label
from tests.ui.helpers import chat, send, send_and_wait, wait_until

SIZE = (160, 36)


def _label(services, cid: str) -> str:
    return total_label(services.history.conversation_usage(cid))


@pytest.mark.slow
async def test_total_follows_turns_and_the_open_conversation(chat_services, fake_openai):
    fake_openai.reply("one two three four five")
    fake_openai.reply("six seven")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        total = chat(app).query_one(UsageTotal)
        await wait_until(pilot, lambda: app.main.panes_ready)
        assert "Σ" not in app.sub_title  # no reply yet: nothing shown

        await send_and_wait(pilot, "count for me")
        cid = chat(app).conversation_id
        first = chat_services.history.conversation_usage(cid)
        assert first.replies == 1 and first.completion_tokens == 5 and not first.estimated  # the provider's
        await wait_until(pilot, lambda: total.label == _label(chat_services, cid) and total.label in app.sub_title)
        shown_first = total.label
        assert shown_first.startswith(f"Σ {compact_tokens(first.prompt_tokens + 5)} tok")

        await send_and_wait(pilot, "and more")
        second = chat_services.history.conversation_usage(cid)
        assert second.replies == 2 and second.completion_tokens == 7
        await wait_until(pilot, lambda: total.label == _label(chat_services, cid) and total.label in app.sub_title)
        assert total.label != shown_first

        await send(pilot, "/new")  # a new conversation: nothing yet
        await wait_until(pilot, lambda: "Σ" not in app.sub_title)
        assert total.label == ""

        await chat(app).open_conversation(cid)  # opened again: its total again
        await wait_until(pilot, lambda: total.label == _label(chat_services, cid) and total.label in app.sub_title)


def test_labels():
    assert [compact_tokens(n) for n in (999, 1_000, 12_345, 2_500_000)] == ["999", "1.0k", "12.3k", "2.5M"]
    assert total_label(Total("")) == ""
    assert total_label(Total("c", replies=1, prompt_tokens=1_000, completion_tokens=234, cost=0.0021)) \
        == "Σ 1.2k tok · $0.0021"
    assert total_label(Total("c", replies=2, prompt_tokens=1_000, completion_tokens=334, cost=0.0021,
                             unpriced=1, estimated=1)) == "Σ ~1.3k tok · $0.0021+"
    assert total_label(Total("c", replies=1, prompt_tokens=10, completion_tokens=5, unpriced=1)) == "Σ 15 tok"
