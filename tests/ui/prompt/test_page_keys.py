"""PageUp and PageDown typed in the prompt page the conversation above it.

The prompt is a line or two: TextArea's own paging moved its cursor nowhere, and the
only keyboard way up the chat was shift+tab into the messages first. A draft taller
than the prompt's view keeps TextArea's paging, so a long paste can still be paged.
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from tests.fakes.markdown_reply import markdown_reply
from tests.ui.chat_log.test_long_replies import _turn
from tests.ui.helpers import chat, focused_prompt, wait_until

SIZE = (100, 30)


async def _chat_of(pilot, turns: int):
    """The prompt and the chat log once ``turns`` long replies are shown."""
    prompt = await focused_prompt(pilot, pilot.app)
    for turn in range(turns):
        await _turn(pilot, f"question {turn}")
    return prompt, chat(pilot.app).chat_log


@pytest.mark.slow
async def test_page_keys_in_the_prompt_page_the_chat_and_keep_the_focus(chat_services, fake_openai):
    fake_openai.default.text = markdown_reply(300)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        prompt, log = await _chat_of(pilot, 2)
        await wait_until(pilot, lambda: log.max_scroll_y > 2 * log.size.height and log.scroll_y == log.max_scroll_y)
        bottom = log.scroll_y

        await pilot.press("pageup")
        await wait_until(pilot, lambda: log.scroll_y <= bottom - log.size.height // 2)
        await pilot.press("pageup")
        await wait_until(pilot, lambda: log.scroll_y <= bottom - log.size.height)
        assert prompt.has_focus and prompt.text == ""

        await pilot.press("pagedown", "pagedown")
        await wait_until(pilot, lambda: log.scroll_y == log.max_scroll_y)
        assert prompt.has_focus


@pytest.mark.slow
async def test_a_draft_taller_than_the_prompt_keeps_its_own_paging(chat_services, fake_openai):
    fake_openai.default.text = markdown_reply(300)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        prompt, log = await _chat_of(pilot, 1)
        await wait_until(pilot, lambda: log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y)
        prompt.insert("\n".join(f"line {n}" for n in range(40)))  # a long paste, cursor at its end
        # the prompt grows to its tallest, the chat above it shrinks and stays at its bottom
        tallest = prompt.styles.max_height.value
        await wait_until(pilot, lambda: prompt.outer_size.height == tallest and log.scroll_y == log.max_scroll_y)
        bottom = log.scroll_y

        await pilot.press("pageup")
        await wait_until(pilot, lambda: prompt.cursor_location[0] < 39)
        assert log.scroll_y == bottom
