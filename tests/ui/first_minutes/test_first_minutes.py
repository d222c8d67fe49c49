"""A newcomer's first minutes: welcome, type-ahead, the first message, readable panes."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from agenttui.core.models import MemoryItem, Message
from agenttui.ui.app import AgentTUI, make_app
from agenttui.ui.widgets.memory_pane import counts_line, item_label
from agenttui.ui.widgets.message_view import UserMessage
from agenttui.ui.widgets.prompt_input import PromptInput
from tests.ui.helpers import chat, replies, send, wait_until, workers_done

SIZE = (100, 30)


def _held_app(services):
    """Deferred panes whose fill waits for the test (not Textual's Ready)."""

    class Held(AgentTUI):
        def on_ready(self, event) -> None:
            event.prevent_default()

    return Held(services, check_api_key=False, defer_panes=True)


def _welcome_shown(app) -> bool:
    return chat(app).has_class("-welcome") and app.screen.query_one("#chat-welcome").display


@pytest.mark.slow
async def test_empty_chat_shows_a_welcome_that_goes_once_a_message_is_sent(chat_services, fake_openai):
    fake_openai.reply("hello")
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: _welcome_shown(app))
        text = str(app.screen.query_one("#chat-welcome").render())
        assert "/help" in text and "/remember" in text and "f2" in text and "f3" in text
        await send(pilot, "hi")
        await wait_until(pilot, lambda: not _welcome_shown(app))
        await wait_until(pilot, lambda: not chat(app).streaming and replies(app) == ["hello"])
        assert not _welcome_shown(app)


@pytest.mark.slow
async def test_no_welcome_over_an_earlier_conversation(services):
    conversation = services.history.create_conversation("earlier", services.model)
    services.history.append(conversation.id, Message(role="user", content="from yesterday"))
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.screen.query(UserMessage))
        await workers_done(pilot)
        assert not _welcome_shown(app)


@pytest.mark.slow
async def test_keys_typed_before_the_prompt_mounts_reach_it_in_order(chat_services, fake_openai):
    fake_openai.reply("got it")
    app = _held_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not app.main.panes_ready
        await pilot.press(*"hello", "enter", *"nexy", "backspace", "t")
        app.main.first_frame_shown()
        await wait_until(pilot, lambda: app.main.panes_ready)
        await wait_until(pilot, lambda: [m.text for m in app.screen.query(UserMessage)] == ["hello"])
        await wait_until(pilot, lambda: chat(app).prompt.text == "next")
        assert app.focused is chat(app).prompt
        await wait_until(pilot, lambda: not chat(app).streaming and replies(app) == ["got it"])


@pytest.mark.slow
async def test_a_message_sent_before_the_lookup_continues_the_latest_conversation(chat_services, fake_openai):
    history = chat_services.history
    earlier = history.create_conversation("earlier", chat_services.model)
    history.append(earlier.id, Message(role="user", content="first question"))
    history.append(earlier.id, Message(role="assistant", content="first answer"))
    fake_openai.reply("second answer")
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await wait_until(pilot, lambda: pane.conversation_id == earlier.id)
        await pane.open_conversation(None)  # as at start-up: nothing open ...
        pane.open_latest(if_untouched=True)  # ... and the lookup not answered yet:
        # Enter's message is in the pane's queue ahead of the lookup's answer.
        pane.post_message(PromptInput.Submitted("second question"))
        await wait_until(pilot, lambda: [m.text for m in app.screen.query(UserMessage)] == ["second question"]
                         or pane.conversation_id == earlier.id, timeout=2)
        # Well under the lookup wait's 5 s: the lookup is answered, not timed out.
        await wait_until(pilot, lambda: not pane.streaming and "second answer" in replies(app), timeout=3)
        assert pane.conversation_id == earlier.id
        assert [m.text for m in app.screen.query(UserMessage)] == ["first question", "second question"]
    assert history.count_conversations() == 1
    assert [m.content for m in history.messages(earlier.id)] == [
        "first question", "first answer", "second question", "second answer"]
    sent = [m["content"] for m in fake_openai.last_messages() if m["role"] != "system"]
    assert sent == ["first question", "first answer", "second question"]


@pytest.mark.slow
async def test_help_shown_before_the_lookup_stays_and_the_next_message_continues(chat_services, fake_openai):
    history = chat_services.history
    earlier = history.create_conversation("earlier", chat_services.model)
    history.append(earlier.id, Message(role="user", content="first question"))
    fake_openai.reply("answer")
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = chat(app)
        await wait_until(pilot, lambda: pane.conversation_id == earlier.id)
        await pane.open_conversation(None)
        pane.open_latest(if_untouched=True)
        pane.post_message(PromptInput.Submitted("/help"))
        await wait_until(pilot, lambda: pane.conversation_id == earlier.id and app.screen.query(UserMessage))
        assert "/remember" in str(app.screen.query("Notice").last().render())  # help is still there
        await send(pilot, "next")
        await wait_until(pilot, lambda: not pane.streaming and replies(app) == ["answer"])
    assert history.count_conversations() == 1


@pytest.mark.slow
async def test_history_pane_count_and_key_hint_fit_the_default_width(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = app.screen.query_one("#history-pane")
        mode = app.screen.query_one("#history-mode")
        await wait_until(pilot, lambda: "0 conversations" in str(mode.render()))
        assert pane.border_subtitle == "v: archived"
        assert len(str(mode.render())) <= mode.content_region.width
        await pilot.press("f3", "f3")  # focus stays in the chat; toggling changes nothing here
        pane.action_toggle_archived()
        await wait_until(pilot, lambda: "0 archived" in str(mode.render()))
        assert pane.border_subtitle == "v: back"


def _item(**kwargs) -> MemoryItem:
    now = datetime(2025, 1, 1, tzinfo=UTC)
    base = dict(id="m1", kind="fact", scope="user", source="explicit", key="language", value="en",
                created=now, updated=now)
    base.update(kwargs)
    return MemoryItem(**base)


def test_memory_rows_say_scope_in_words_and_source_only_when_not_the_users():
    assert item_label(_item(pinned=True)).plain == "★ user language = en"
    assert item_label(_item(scope="profile", source="manual")).plain == "  proj language = en"
    assert item_label(_item(source="model")).plain == "  user·model language = en"
    assert item_label(_item(source="extraction", kind="note", text="likes tea", key=None, value=None)
                      ).plain == "  user·auto likes tea"


def test_memory_subtitle_counts_pinned_items():
    assert counts_line([]) == "0 items"
    assert counts_line([_item(pinned=True), _item(id="m2")]) == "2 items · 1 pinned"
    assert counts_line([_item()]) == "1 item"


@pytest.mark.slow
async def test_first_run_without_a_keyring_offers_only_what_works(services):
    from agenttui.core.config.api_key import ADVICE
    from agenttui.ui.screens.first_run import FirstRunScreen

    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app._show_first_run(ADVICE.format(backend="keyring.backends.fail.Keyring", pip="pip"))
        await wait_until(pilot, lambda: isinstance(app.screen, FirstRunScreen)
                         and bool(app.screen.query("#later")))
        text = str(app.screen.query_one("#first-run-text").render())
        assert "export OPENAI_API_KEY" in text and "no usable keyring" in text
        assert "1." not in text and "agenttui key set" not in text  # the keyring ways cannot work here
        # Settings can: it keeps the key for the session or, opted in, in a 0600 file
        assert "session only" in text and app.screen.query("#settings")
        await pilot.pause()
        later = app.screen.query_one("#later")
        assert later.region.bottom <= 24 and later.region.height > 0  # the button is on screen
        await pilot.press("escape")
        assert not isinstance(app.screen, FirstRunScreen)


@pytest.mark.slow
async def test_help_opens_at_its_first_line(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "/help")
        log = chat(app).chat_log
        await wait_until(pilot, lambda: log.query("Notice") and log.max_scroll_y > 0)
        notice = log.query("Notice").last()
        await wait_until(pilot, lambda: notice.region.y <= log.region.y + 1)
        assert "Commands:" in str(notice.render()).splitlines()[0]
