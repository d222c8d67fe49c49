"""Whatever is typed from the first moment on ends up in the prompt, in order.

Keys come from the terminal as fast as a paste or ``tmux send-keys`` writes
them, while the app is still putting its panes up. These tests post key
events the way the driver does (to the app) at the moments that lost them:
before the app's first frame, and while the screen is busy swapping the
first frame's slots for the real panes (its message queue is blocked then,
and keys forwarded to it were handled only after the panes were up, by no
one). The first frame's own prompt (``startup.EarlyPrompt``) takes plain
typing at once (start-up time is judged on it: bench/bench_prompt_usable.py); what it
holds moves into the real prompt.
"""

from __future__ import annotations

import asyncio

import pytest
from textual import events

from agenttui.ui.app import AgentTUI
from agenttui.ui.screens.main import MainScreen
from agenttui.ui.startup import PROMPT_PLACEHOLDER, EarlyPrompt
from agenttui.ui.widgets.message_view import UserMessage
from tests.ui.helpers import chat, replies, wait_until

SIZE = (100, 30)


def key_event(char: str) -> events.Key:
    """The event Textual's driver posts for one typed character (or "\\r" for Enter)."""
    if char == "\r":
        return events.Key("enter", "\r")
    name = {" ": "space", "/": "slash", "!": "exclamation_mark"}.get(char, char)
    return events.Key(name, char)


def typed(app, text: str) -> None:
    for char in text:
        app.post_message(key_event(char))


async def app_caught_up(app) -> None:
    """The app has handled every message posted to it so far (it handles them in order).

    Not ``pilot.pause()``: that waits for the screen too, which is blocked here on purpose.
    """
    done = asyncio.Event()
    app.call_later(done.set)
    await asyncio.wait_for(done.wait(), 10)


async def until_filling(screen: GatedScreen) -> None:
    async with asyncio.timeout(10):
        while not screen.filling:
            await asyncio.sleep(0.01)


def sent(app) -> list[str]:
    return [m.text for m in app.screen.query(UserMessage)]


class GatedScreen(MainScreen):
    """The main screen whose slot-to-pane swap waits for the test inside its message handler."""

    def __init__(self, services) -> None:
        super().__init__(services, defer_panes=True)
        self.gate = asyncio.Event()
        self.filling = False

    async def _fill_panes(self) -> None:
        self.filling = True
        await self.gate.wait()
        await super()._fill_panes()


class GatedApp(AgentTUI):
    """The swap starts when the test says so (not on Textual's Ready) and then waits on the gate."""

    def get_default_screen(self) -> MainScreen:
        return GatedScreen(self.services)

    def on_ready(self, event) -> None:
        event.prevent_default()


@pytest.mark.slow
async def test_keys_typed_while_the_panes_mount_reach_the_prompt_in_order(chat_services, fake_openai):
    fake_openai.reply("got it")
    app = GatedApp(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GatedScreen)
        typed(app, "he")  # on the first frame, before the swap
        await pilot.pause()
        screen.first_frame_shown()
        await until_filling(screen)
        typed(app, "llo agent\rwor")  # during the swap: the screen's queue is blocked
        app.post_message(events.Paste("ld"))
        await app_caught_up(app)
        screen.gate.set()
        await wait_until(pilot, lambda: screen.panes_ready)
        await wait_until(pilot, lambda: sent(app) == ["hello agent"])
        await wait_until(pilot, lambda: chat(app).prompt.text == "world")
        assert app.focused is chat(app).prompt
        await wait_until(pilot, lambda: not chat(app).streaming and replies(app) == ["got it"])
    assert fake_openai.last_messages()[-1] == {"role": "user", "content": "hello agent"}


@pytest.mark.slow
@pytest.mark.parametrize("defer_panes", [True, False], ids=["first-frame-slots", "panes-in-compose"])
async def test_keys_posted_as_the_app_mounts_reach_the_prompt(chat_services, fake_openai, defer_panes):
    fake_openai.reply("first reply")

    class EarlyKeys(AgentTUI):
        def on_mount(self) -> None:  # runs after AgentTUI.on_mount (Textual calls both)
            typed(self, "hi there\rnext one")

    app = EarlyKeys(chat_services, check_api_key=False, defer_panes=defer_panes)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready)
        await wait_until(pilot, lambda: sent(app) == ["hi there"])
        await wait_until(pilot, lambda: chat(app).prompt.text == "next one")
        assert app.focused is chat(app).prompt
        await wait_until(pilot, lambda: not chat(app).streaming and replies(app) == ["first reply"])


async def test_quit_is_not_held_behind_the_start_up(services):
    app = GatedApp(services, check_api_key=False)
    async with app.run_test(size=SIZE):
        screen = app.screen
        screen.first_frame_shown()
        await until_filling(screen)
        app.post_message(events.Key("ctrl+q", None))
        await app_caught_up(app)
        assert app._exit  # Textual's App.exit() flag: quitting has begun
        screen.gate.set()


async def test_editing_keys_in_a_burst_act_in_turn_with_the_characters(services):
    app = AgentTUI(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready and app.focused is chat(app).prompt)
        typed(app, "nexy")
        app.post_message(events.Key("backspace", "\x08"))
        typed(app, "t ")
        app.post_message(events.Key("left", None))
        typed(app, "!")
        await wait_until(pilot, lambda: chat(app).prompt.text == "next! ")


@pytest.mark.slow
async def test_the_first_frame_prompt_takes_typing_before_the_panes(chat_services, fake_openai):
    """Plain typing shows in the first frame's prompt at once (Backspace in turn with the characters);
    a key it does not take (here ←) and the keys after it wait; all of it lands in the real prompt."""
    app = GatedApp(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        early = screen.query_one(EarlyPrompt)
        await wait_until(pilot, lambda: app.focused is early)
        assert str(early.placeholder) == PROMPT_PLACEHOLDER
        typed(app, "helx")
        app.post_message(events.Key("backspace", "\x08"))
        typed(app, "o")
        app.post_message(events.Key("left", None))
        typed(app, "l")
        await wait_until(pilot, lambda: early.text == "helo")
        assert not screen.panes_ready
        screen.first_frame_shown()
        await until_filling(screen)
        screen.gate.set()
        await wait_until(pilot, lambda: screen.panes_ready)
        prompt = chat(app).prompt
        await wait_until(pilot, lambda: prompt.text == "hello")
        assert prompt.cursor_location == (0, 4) and app.focused is prompt
        assert str(prompt.placeholder) == PROMPT_PLACEHOLDER  # the same prompt, as far as the user sees
        assert not screen.query(EarlyPrompt)


class RacingScreen(GatedScreen):
    """Keys already queued to the early prompt (not yet handled) when the swap removes it."""

    async def _fill_panes(self) -> None:
        early = self.query_one(EarlyPrompt)
        for char in "xyz":
            early.post_message(key_event(char))
        await MainScreen._fill_panes(self)


@pytest.mark.slow
async def test_keys_queued_to_the_first_frame_prompt_as_it_goes_are_kept(chat_services):
    class RacingApp(GatedApp):
        def get_default_screen(self) -> MainScreen:
            return RacingScreen(self.services)

    app = RacingApp(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        typed(app, "ab")
        await wait_until(pilot, lambda: screen.query_one(EarlyPrompt).text == "ab")
        screen.first_frame_shown()
        await wait_until(pilot, lambda: screen.panes_ready)
        await wait_until(pilot, lambda: chat(app).prompt.text == "abxyz")


async def test_a_command_key_on_the_first_frame_types_nothing(services):
    """alt+e and alt+i come with their letter (a terminal sends ESC e): on the first frame their
    actions wait for the panes, and the letter must not land in the message."""
    app = GatedApp(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        typed(app, "hi")
        app.post_message(events.Key("alt+e", "e"))
        app.post_message(events.Key("alt+i", "i"))
        typed(app, "!")
        await app_caught_up(app)
        await pilot.pause()
        assert app.screen.query_one(EarlyPrompt).text == "hi!"
        app.screen.gate.set()
