"""A reply whose emoji arrives as two JSON ``\\u`` halves in two chunks (a provider or proxy that
cuts text by UTF-16 units), or as half of one: the turn ends, the reply is saved and shown whole."""

from __future__ import annotations

from agenttui.agent.events import TextDelta, TurnFinished

from . import formats
from .helpers import assistant_rows, follow_up_succeeds, of_type, turn


async def test_an_emoji_split_over_two_chunks_is_shown_and_saved_whole(services, conversation, fake_openai):
    # json.dumps writes each half as a \ud83d / \ude00 escape, as such a provider does
    fake_openai.raw(formats.openai_text(["smile \ud83d", "\ude00 ok"]))
    events = await turn(services, conversation, "hi")
    done = events[-1]
    assert isinstance(done, TurnFinished) and done.stop_reason == "success", done
    assert "".join(e.text for e in of_type(events, TextDelta)) == "smile \U0001f600 ok"
    assert [m.content for m in assistant_rows(services, conversation)] == ["smile \U0001f600 ok"]
    await follow_up_succeeds(services, conversation, fake_openai)


async def test_half_a_character_is_a_replacement_character_and_the_reply_is_kept(services, conversation, fake_openai):
    fake_openai.raw(formats.openai_text(["one \ude00 two", " three \ud83d"]))
    events = await turn(services, conversation, "hi")
    done = events[-1]
    assert isinstance(done, TurnFinished) and done.stop_reason == "success", done
    assert [m.content for m in assistant_rows(services, conversation)] == ["one \ufffd two three "]
    await follow_up_succeeds(services, conversation, fake_openai)
