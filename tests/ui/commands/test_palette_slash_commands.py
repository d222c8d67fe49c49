"""The command palette lists every slash command (from the table that dispatches them) and every
app action, each once; choosing a slash command runs it or puts it in the prompt."""

from __future__ import annotations

import pytest
from textual.command import CommandList

from agenttui.ui.app import make_app
from agenttui.ui.slash.table import COMMANDS
from tests.ui.helpers import chat, wait_until, workers_done

SIZE = (120, 36)


async def _palette_names(pilot, app, query: str = "") -> list[str]:
    await pilot.press("ctrl+p")
    await wait_until(pilot, lambda: bool(app.screen.query(CommandList)))
    if query:
        await pilot.press(*query)
    await workers_done(pilot)
    commands = app.screen.query_one(CommandList)
    await wait_until(pilot, lambda: commands.option_count > 0)
    return [str(commands.get_option_at_index(i).prompt).split("\n")[0].strip()
            for i in range(commands.option_count)]


@pytest.mark.slow
async def test_the_palette_lists_every_slash_command_and_quit_once(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready)
        names = await _palette_names(pilot, app)
        for command in COMMANDS:
            assert any(name.startswith(f"/{command.name}") for name in names), command.name
        assert sum(name.startswith("Quit") for name in names) == 1
        assert len(names) == len(set(names))


@pytest.mark.slow
async def test_a_slash_command_with_an_argument_goes_to_the_prompt(services):
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready)
        await _palette_names(pilot, app, "/attach")
        commands = app.screen.query_one(CommandList)
        await wait_until(pilot, lambda: commands.highlighted is not None)
        await pilot.press("enter")
        await wait_until(pilot, lambda: chat(app).prompt.text == "/attach ")
        assert chat(app).prompt.has_focus


@pytest.mark.slow
async def test_a_slash_command_without_one_runs(services):
    services.memory.add_note("I drink my coffee black")
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main.panes_ready)
        await _palette_names(pilot, app, "/memory")
        commands = app.screen.query_one(CommandList)
        await wait_until(pilot, lambda: commands.highlighted is not None)
        await pilot.press("enter")
        # /memory lists what is remembered in the chat
        from agenttui.ui.widgets.message_view import Notice

        await wait_until(pilot, lambda: any("I drink my coffee black" in str(n.render())
                                            for n in chat(app).chat_log.query(Notice)))
