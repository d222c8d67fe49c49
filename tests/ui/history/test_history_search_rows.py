"""History search lists each conversation once, with the dates its
matches span and how many matched; the header fits the default pane width."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from textual.widgets import Input

from agenttui.core.history.search import group_by_conversation
from agenttui.core.models import Message
from agenttui.ui.app import make_app
from agenttui.ui.widgets.conversation_list import SearchResults
from agenttui.ui.widgets.history_pane import HistoryPane
from tests.ui.helpers import wait_until, workers_done

# Everyday sysadmin questions, worded as in the Kubernetes docs' kubeadm certificate page
# (kubernetes.io/docs/tasks/administer-cluster/kubeadm/kubeadm-certs/).
TALKATIVE = [
    "how do I check when the kubeadm certificates expire",
    "kubeadm certs check-expiration lists every certificate and its expiry",
    "can kubeadm renew them all at once",
    "kubeadm certs renew all renews every certificate; restart the control plane pods after",
    "does kubeadm upgrade also renew the certificates",
]


def _fill(history):
    talk = history.create_conversation(title="certificates on the cluster")
    for n, text in enumerate(TALKATIVE):
        history.append(talk.id, Message(role="user" if n % 2 == 0 else "assistant", content=text,
                                        created=datetime(2026, 3, 2 + n, 9, 0, tzinfo=UTC)))
    old = history.create_conversation(title="last year's upgrade")
    history.append(old.id, Message(role="user", content="the kubeadm upgrade plan failed on node 3",
                                   created=datetime(2025, 6, 1, 12, 0, tzinfo=UTC)))
    twin = history.create_conversation(title="same question again")  # near-duplicate of the first
    history.append(twin.id, Message(role="user", content="how do I check when the kubeadm certificates expire",
                                    created=datetime(2026, 4, 1, 9, 0, tzinfo=UTC)))
    history.create_conversation(title="lunch")
    return talk, old, twin


@pytest.mark.slow
async def test_one_row_per_conversation_with_dates_and_a_header_that_fits(services):
    talk, old, twin = _fill(services.history)
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.screen.query_one(HistoryPane)
        await wait_until(pilot, lambda: pane.conversation_list.total == 4)
        search = pane.query_one("#history-search", Input)
        search.focus()
        await pilot.press(*"kubeadm")
        results = pane.query_one(SearchResults)
        await wait_until(pilot, lambda: results.display and results.option_count >= 3)
        await workers_done(pilot)  # the search is over: a late duplicate row would be here
        rows = [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]
        titles = [row.splitlines()[0] for row in rows]
        assert sorted(titles) == sorted([talk.title, old.title, twin.title])  # each once, none lost
        talk_row = rows[titles.index(talk.title)]
        assert "5 hits" in talk_row and "Mar 02 – Mar 06" in talk_row
        assert "2025-06-01" in rows[titles.index(old.title)]  # another year: the full date
        header = pane.query_one("#history-mode")
        assert str(header.render()).strip() == "3 conversations, 7 hits"
        assert header.content_region.width >= len("3 conversations, 7 hits")  # not cut

        results.focus()
        await pilot.press("home", "enter")  # the best hit's conversation opens at that message
        from tests.ui.helpers import chat
        first = results.hit_for(results.get_option_at_index(0).id)
        await wait_until(pilot, lambda: chat(app).conversation_id == first.conversation_id)


def test_grouping_keeps_the_order_of_each_conversations_best_hit():
    from agenttui.core.models import SearchHit

    def hit(cid, mid, day):
        return SearchHit(cid, cid.upper(), mid, "user", "x", datetime(2026, 1, day, tzinfo=UTC), -1.0)

    groups = group_by_conversation([hit("b", 5, 3), hit("a", 1, 9), hit("b", 2, 1), hit("a", 7, 4)])
    assert [(g.conversation_id, g.best.message_id, g.count) for g in groups] == [("b", 5, 2), ("a", 1, 2)]
    assert (groups[0].first.day, groups[0].last.day) == (1, 3)


@pytest.mark.slow
async def test_a_title_match_comes_first_and_says_so(services):
    talk, _old, _twin = _fill(services.history)
    imported = services.history.create_conversation(title="Imported 导入 chat")
    services.history.append(imported.id, Message(role="user", content="我们明天见",
                                                 created=datetime(2026, 5, 1, 9, 0, tzinfo=UTC)))
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.screen.query_one(HistoryPane)
        await wait_until(pilot, lambda: pane.conversation_list.total == 5)
        search = pane.query_one("#history-search", Input)
        search.focus()
        await pilot.press(*"导入")
        results = pane.query_one(SearchResults)
        await wait_until(pilot, lambda: results.display and results.option_count == 1)
        row = str(results.get_option_at_index(0).prompt)
        assert row.splitlines()[0] == "Imported 导入 chat" and "in the title" in row and "hit" not in row
        assert str(pane.query_one("#history-mode").render()).strip() == "1 conversation"

        search.value = "certificates"  # a title word that messages hold too: that row first
        await wait_until(pilot, lambda: results.option_count >= 2
                         and str(results.get_option_at_index(0).prompt).startswith(talk.title))
        first = str(results.get_option_at_index(0).prompt)
        assert "in the title" in first and "hits" in first
