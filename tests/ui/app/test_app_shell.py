"""The app shell: layout, narrow terminals, first run, keymap, palette, inspector, paging."""

from __future__ import annotations

import pytest

from agenttui.core.models import Message
from agenttui.ui.app import make_app
from agenttui.ui.screens.first_run import FirstRunScreen
from agenttui.ui.screens.main import MainScreen
from agenttui.ui.screens.prompt_inspector import PromptInspectorScreen
from agenttui.ui.widgets.chat_log import PAGE, ChatLog
from agenttui.ui.widgets.message_view import UserMessage
from tests.ui.helpers import chat, foreground_complete, replies, send, wait_until, workers_done


def pane_titles(app) -> dict[str, bool]:
    return {app.screen.query_one(f"#{name}-pane").border_title: app.screen.query_one(f"#{name}-pane").display
            for name in ("memory", "chat", "history")}


async def test_three_titled_panes_and_header(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)):
        assert pane_titles(app) == {"Memory": True, "Chat": True, "History": True}
        assert app.title == "agenttui"
        assert "profile: default" in app.sub_title and services.model in app.sub_title


@pytest.mark.slow
async def test_narrow_terminal_collapses_sidebars_and_keys_bring_them_back(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(80, 24)) as pilot:
        assert pane_titles(app) == {"Memory": False, "Chat": True, "History": False}
        chat_pane = app.screen.query_one("#chat-pane")
        assert chat_pane.region.width == 80
        await pilot.press("f2")
        assert pane_titles(app)["Memory"] is True
        memory = app.screen.query_one("#memory-pane")
        assert memory.region.right <= chat_pane.region.x  # side by side, no overlap
        await pilot.press("f2")
        assert pane_titles(app)["Memory"] is False
        await pilot.press("alt+3")  # focusing a hidden pane shows it
        await pilot.pause()
        assert pane_titles(app)["History"] is True
        assert app.screen.query_one("#history-pane").has_focus_within


@pytest.mark.slow
async def test_toggle_hides_a_sidebar_on_a_wide_terminal(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("f3")  # goes to History ...
        await pilot.pause()
        await pilot.press("f3")  # ... and, pressed there, hides it
        assert pane_titles(app) == {"Memory": True, "Chat": True, "History": False}


@pytest.mark.slow
async def test_first_run_screen_without_api_key_and_panes_stay_usable(services):
    services.memory.add_note("likes tea")
    app = make_app(services)  # no OPENAI_API_KEY, empty in-memory keyring
    async with app.run_test(size=(120, 36)) as pilot:
        # pushed is not composed: wait for the text itself
        await wait_until(pilot, lambda: isinstance(app.screen, FirstRunScreen)
                         and bool(app.screen.query("#first-run-text")))
        text = str(app.screen.query_one("#first-run-text").render())
        assert "export OPENAI_API_KEY" in text and "agenttui key set" in text
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)
        await send(pilot, "/memory")
        await wait_until(pilot, lambda: "likes tea" in str(app.screen.query(".-error, Notice").last().render()))


async def test_first_run_not_shown_with_a_key(chat_services, fake_openai):
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36)) as pilot:
        await foreground_complete(app)
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)


@pytest.mark.slow
async def test_keys_are_remappable_from_config(paths, make_services):
    paths.config_dir.mkdir(parents=True)
    paths.config_file.write_text('[keys]\n"app.toggle_memory" = "f12"\n"no.such" = "f11"\n')
    app = make_app(make_services(), check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f2")
        assert pane_titles(app)["Memory"] is True  # f2 no longer bound
        await pilot.press("f12")  # the remapped key goes to Memory ...
        await pilot.pause()
        assert app.screen.query_one("#memory-pane").has_focus_within
        await pilot.press("f12")  # ... and, pressed there, hides it
        assert pane_titles(app)["Memory"] is False
        assert any("no.such" in m for _, _, m in app.notices)
        assert app.key_for("app.toggle_memory") == "f12"


async def test_palette_lists_every_action():
    from agenttui.ui.bindings import APP_ACTIONS
    from agenttui.ui.palette_commands import AgentCommands

    names = {spec.description for spec in APP_ACTIONS}
    assert len(names) == len(APP_ACTIONS)  # every palette entry is distinguishable
    assert AgentCommands  # provider registered below
    from agenttui.ui.app import AgentTUI

    assert AgentCommands in AgentTUI.COMMANDS


@pytest.mark.slow
async def test_palette_runs_an_action(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"History")
        from textual.command import CommandList

        await workers_done(pilot)  # the palette's search for the whole word is over
        await wait_until(pilot, lambda: app.screen.query_one(CommandList).highlighted is not None)
        await pilot.press("enter")
        await pilot.pause()
        # "History" goes to the pane (F3 and the palette entry both focus it)
        await wait_until(pilot, lambda: app.screen.query_one("#history-pane").has_focus_within)
        assert pane_titles(app)["History"] is True


@pytest.mark.slow
async def test_prompt_inspector_shows_the_system_prompt_with_memory(chat_services, fake_openai):
    chat_services.memory.add_note("my cat is called Mochi")
    fake_openai.reply("meow")
    app = make_app(chat_services)
    async with app.run_test(size=(120, 36)) as pilot:
        await send(pilot, "what is my cat called?")
        await wait_until(pilot, lambda: "meow" in replies(app) and not chat(app).streaming)
        await pilot.press("f4")
        assert isinstance(app.screen, PromptInspectorScreen)
        body = str(app.screen.query_one("#inspector-body").render())
        assert "my cat is called Mochi" in body
        assert "what is my cat called?" in body
        assert fake_openai.last_system_prompt().splitlines()[0] in body


@pytest.mark.slow
async def test_long_conversation_mounts_one_page_and_pages_older_in(services):
    conversation = services.history.create_conversation("long")
    for i in range(3 * PAGE):
        services.history.append(conversation.id, Message(role="user", content=f"message {i}"))
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        log = app.screen.query_one(ChatLog)
        await wait_until(pilot, lambda: len(log.query(UserMessage)) == PAGE)
        assert log.query(UserMessage).last().text == f"message {3 * PAGE - 1}"
        await wait_until(pilot, lambda: log.max_scroll_y > 0 and log.is_vertical_scroll_end)
        log.scroll_home(animate=False)
        await wait_until(pilot, lambda: len(log.query(UserMessage)) == 2 * PAGE)
        assert log.query(UserMessage).first().text == f"message {PAGE}"
        await wait_until(pilot, lambda: log.scroll_y > 0)  # the view stayed on what was being read
        assert not log.is_vertical_scroll_end


def _held_app(services, **kwargs):
    """The app with deferred panes whose fill waits for the test (not Textual's Ready)."""
    from agenttui.ui.app import AgentTUI

    class Held(AgentTUI):
        def on_ready(self, event) -> None:
            event.prevent_default()  # AgentTUI.on_ready would start the fill

    return Held(services, check_api_key=False, defer_panes=True, **kwargs)


@pytest.mark.slow
async def test_deferred_panes_show_titled_slots_then_the_real_panes(services):
    from agenttui.ui.screens.main import PaneSlot
    from agenttui.ui.widgets.chat_pane import ChatPane
    from agenttui.ui.widgets.history_pane import HistoryPane
    from agenttui.ui.widgets.memory_pane import MemoryPane

    services.memory.add_note("likes tea")
    app = _held_app(services)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        main = app.main
        assert not main.panes_ready
        assert all(isinstance(main.pane(n), PaneSlot) for n in ("memory", "chat", "history"))
        assert pane_titles(app) == {"Memory": True, "Chat": True, "History": True}
        assert "profile: default" in str(main.query_one("#header-slot").render())
        assert not app.check_action("new_conversation", ())  # needs the chat pane
        main.first_frame_shown()
        await wait_until(pilot, lambda: main.panes_ready)
        assert isinstance(main.pane("memory"), MemoryPane)
        assert isinstance(main.pane("chat"), ChatPane)
        assert isinstance(main.pane("history"), HistoryPane)
        assert pane_titles(app) == {"Memory": True, "Chat": True, "History": True}
        assert app.focused is main.chat.prompt
        assert not main.query("#header-slot, #footer-slot") and main.query("Header") and main.query("Footer")
        await wait_until(pilot, lambda: "likes tea" in {i.text for i in main.pane("memory").items.values()})


@pytest.mark.slow
async def test_deferred_panes_keep_a_toggle_made_before_they_mount(services):
    app = _held_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert pane_titles(app) == {"Memory": False, "Chat": True, "History": False}
        await pilot.press("f2")
        assert pane_titles(app)["Memory"] is True
        app.main.first_frame_shown()
        await wait_until(pilot, lambda: app.main.panes_ready)
        await wait_until(pilot, lambda: pane_titles(app) == {"Memory": True, "Chat": True, "History": False})


@pytest.mark.slow
async def test_first_run_open_settings_button_opens_the_settings_dialog(services, memory_keyring):
    """The button's choice was once handed to an un-awaited run_action."""
    from agenttui.ui.screens.settings import SettingsScreen

    app = make_app(services)  # no key anywhere: the first-run screen comes up
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, FirstRunScreen)
                         and bool(app.screen.query("#settings"))
                         and app.screen.query_one("#settings").region.area > 0)  # laid out
        await pilot.click("#settings")
        await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen))


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_the_header_shows_the_whole_context_meter(services, size):
    """At 80 columns the labels go, not the meter (it was cut to "context 15…")."""
    from textual.widgets._header import HeaderTitle

    cid = services.history.create_conversation(title="plans").id
    services.history.append(cid, Message(role="user", content="what are my plans?"))
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: bool(app.context_meter))  # the chat measures the open conversation
        await pilot.pause()
        shown = app.screen.query_one(HeaderTitle).render_line(0).text
        assert app.context_meter in shown and "…" not in shown
        assert services.model in shown and services.profile_name in shown
        assert ("profile: " in shown) == (size[0] >= 120)
