"""A 200 answer that is not an event stream is said for what it is."""

from __future__ import annotations

from agenttui.agent.events import TurnFailed, TurnFinished

from . import formats
from .helpers import assistant_rows, follow_up_succeeds, turn


async def test_an_html_page_names_itself_and_the_fix(services, conversation, fake_openai):
    fake_openai.raw(formats.HTML_PAGE, content_type="text/html; charset=utf-8")
    events = await turn(services, conversation, "hello")
    failed = events[-1]
    assert isinstance(failed, TurnFailed), failed
    assert "HTML page" in failed.error and "Open WebUI" in failed.error and "/v1" in failed.error
    assert assistant_rows(services, conversation) == []
    await follow_up_succeeds(services, conversation, fake_openai)


async def test_a_json_error_with_status_200_is_reported(services, conversation, fake_openai):
    fake_openai.raw(formats.JSON_ERROR, content_type="application/json")
    events = await turn(services, conversation, "hello")
    failed = events[-1]
    assert isinstance(failed, TurnFailed) and "model 'llama3' not found" in failed.error
    assert assistant_rows(services, conversation) == []
    await follow_up_succeeds(services, conversation, fake_openai)


async def test_a_whole_completion_instead_of_a_stream_is_accepted(services, conversation, fake_openai):
    fake_openai.raw(formats.JSON_COMPLETION, content_type="application/json")
    events = await turn(services, conversation, "hello")
    done = events[-1]
    assert isinstance(done, TurnFinished) and done.reply.content == "A whole answer at once."
    assert not done.reply.incomplete and done.trace.prompt_tokens == 9
