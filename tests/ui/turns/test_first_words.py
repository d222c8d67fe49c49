"""Enter -> the reply's first words: what keeps that path short, kept.

The speed itself is measured by ``bench/bench_first_turn.py``; these check the
behaviour the shortcuts must not change: the same Markdown whichever way a reply
is built, the footer's keys, and the order of a short reply's end and its first
frame. Against the fake OpenAI server (tests/fakes/openai_server.py) with Pilot.
"""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll

from agenttui.ui.app import make_app
from agenttui.ui.widgets.app_footer import AppFooter
from agenttui.ui.widgets.message_view import AssistantMessage
from tests.ui.helpers import chat, send, wait_until, workers_done

SIZE = (120, 36)
CHUNKS = ["Hello\r", "\nworld, a *second* line\r", "\n\n- and a list item"]


class _Log(App):
    def compose(self) -> ComposeResult:
        yield VerticalScroll()


async def _streamed(from_first: bool) -> tuple[str, str, list[str]]:
    """A reply streamed from CHUNKS, mounted with the first chunk in it or mounted empty:
    its text, its Markdown source and its blocks."""
    app = _Log()
    async with app.run_test() as pilot:
        view = AssistantMessage.streaming(CHUNKS[0]) if from_first else AssistantMessage()
        await app.query_one(VerticalScroll).mount(view)
        for chunk in CHUNKS[1:] if from_first else CHUNKS:
            await view.write(chunk)
        await view.finish()
        await pilot.pause()
        return view.text, view.markdown.source, [type(b).__name__ for b in view.markdown.children]


async def test_a_reply_streamed_from_its_first_words_ends_as_one_streamed_from_empty():
    # a CR at a chunk's end waits for the next chunk (CRLF -> LF): the same both ways
    from_first, from_empty = await _streamed(True), await _streamed(False)
    assert from_first == from_empty
    text, source, blocks = from_first
    assert text == "".join(CHUNKS)
    assert source == "Hello\nworld, a *second* line\n\n- and a list item"
    assert blocks == ["MarkdownParagraph", "ReplyBulletList"]  # a list a streamed reply appends to


async def test_a_reply_shows_its_first_words_once_mounted():
    app = _Log()
    async with app.run_test():
        view = AssistantMessage.streaming("Quokka says")
        await app.query_one(VerticalScroll).mount(view)  # no further turn of the event loop
        paragraphs = view.markdown.query("MarkdownParagraph")
        assert paragraphs and "Quokka says" in str(paragraphs.first().render())


def _footer_keys(app) -> list[object]:
    return list(app.screen.query_one(AppFooter).query("FooterKey"))


@pytest.mark.slow
async def test_footer_keys_start_compact_as_the_footer_and_a_binding_refresh_without_change_keeps_them(services):
    for size, compact in (((120, 36), False), ((80, 30), True)):
        app = make_app(services, check_api_key=False)
        async with app.run_test(size=size) as pilot:
            await wait_until(pilot, lambda app=app: app.main.panes_ready and _footer_keys(app))
            footer = app.screen.query_one(AppFooter)
            assert footer.compact is compact
            assert all(key.compact is compact and key.has_class("-compact") is compact
                       for key in _footer_keys(app))
            before = _footer_keys(app)
            app.screen.refresh_bindings()  # nothing changed: nothing is rebuilt
            await workers_done(pilot)  # the refresh has been handled
            assert _footer_keys(app) == before


@pytest.mark.slow
async def test_esc_works_at_once_shows_in_the_footer_while_streaming_and_goes_with_the_reply(
        chat_services, fake_openai):
    fake_openai.reply(" ".join(f"word{i}" for i in range(200)), words_per_second=40)
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready and _footer_keys(app))
        await send(pilot, "tell me a long story")
        assert chat(app).streaming and app.active_bindings["escape"].enabled  # Esc works at once
        # shown by STOP_KEY_AFTER_S after Enter (sooner if anything else refreshes the bindings)
        await wait_until(pilot, lambda: any(key.key == "escape" for key in _footer_keys(app)))
        assert chat(app).streaming
        await pilot.press("escape")
        await wait_until(pilot, lambda: not chat(app).streaming)
        await wait_until(pilot, lambda: not any(key.key == "escape" for key in _footer_keys(app)))


@pytest.mark.slow
async def test_a_short_replys_end_is_handled_after_its_first_words_are_drawn(chat_services, fake_openai):
    fake_openai.reply("Quokka says hello and the rest of this reply follows word by word.")
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        drawn_at_end: list[list[int]] = []
        pane.watch(pane, "streaming", lambda on: on or drawn_at_end.append(
            [view.region.height for view in app.screen.query(AssistantMessage)]), init=False)
        await send(pilot, "hello")
        await wait_until(pilot, lambda: drawn_at_end)
        assert len(drawn_at_end[0]) == 1 and drawn_at_end[0][0] > 0  # laid out, so on screen
