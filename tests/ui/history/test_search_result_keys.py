"""On History's search results ``r`` renames and ``a`` archives/restores the highlighted hit's
conversation, as on the conversation list; Esc's footer label says what Esc does there
(the footer said "Chat" while the border said Esc clears the search)."""

from __future__ import annotations

from textual.widgets import Footer, Input

from agenttui.core.models import Message
from agenttui.ui.app import make_app
from tests.ui.helpers import history_list_focused, wait_until

SIZE = (120, 40)


def _footer(app) -> list[str]:
    return [str(k.description) for k in app.screen.query_one(Footer).query("FooterKey") if k.key == "escape"]


async def test_rename_and_archive_act_on_a_search_hit_and_esc_says_it_clears(services):
    deploy = services.history.create_conversation("Deploy notes")
    services.history.append(deploy.id, Message(role="user", content="how do we deploy the kumquat service?"))
    services.history.create_conversation("Lunch")
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = await history_list_focused(pilot, app, 2)
        await wait_until(pilot, lambda: _footer(app) == ["Chat"])
        await pilot.press("slash")
        search = pane.query_one("#history-search", Input)
        await wait_until(pilot, lambda: search.has_focus)
        await pilot.press(*"kumquat", "enter")
        results = pane.search_results
        await wait_until(pilot, lambda: results.has_focus and results.option_count == 1)
        # what Esc does here, said alike in the footer and on the border
        await wait_until(pilot, lambda: _footer(app) == ["Clear search"])
        assert "clear search" in str(pane.border_subtitle).lower()
        footer_keys = [str(k.description) for k in app.screen.query_one(Footer).query("FooterKey")]
        assert "Rename" in footer_keys and "Archive/restore" in footer_keys

        await pilot.press("r")
        rename = pane.query_one("#history-rename", Input)
        await wait_until(pilot, lambda: rename.has_focus)
        assert rename.value == "Deploy notes"
        rename.value = "Kumquat deploys"
        await pilot.press("enter")
        await wait_until(pilot, lambda: services.history.get_conversation(deploy.id).title == "Kumquat deploys")
        await wait_until(pilot, lambda: results.has_focus)  # back where the rename started

        await pilot.press("a")
        await wait_until(pilot, lambda: services.history.get_conversation(deploy.id).archived)
        await wait_until(pilot, lambda: results.option_count == 1)  # archived hits stay listed
        await pilot.press("a")  # and a second a restores it
        await wait_until(pilot, lambda: not services.history.get_conversation(deploy.id).archived)

        await pilot.press("escape")
        await wait_until(pilot, lambda: search.value == "" and pane.conversation_list.has_focus)
        await wait_until(pilot, lambda: _footer(app) == ["Chat"])
