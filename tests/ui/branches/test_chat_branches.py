"""Branches in the chat: regenerate, edit, switch versions, fork, search opens the
right branch -- the real app against the fake OpenAI server, real SQLite, Pilot keys."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from agenttui.core.models import Message
from agenttui.ui.app import make_app
from agenttui.ui.widgets.branch_nav import BranchNav
from agenttui.ui.widgets.conversation_list import SearchResults
from agenttui.ui.widgets.message_view import UserMessage
from tests.ui.helpers import chat, replies, send, wait_until, workers_done

SIZE = (120, 36)


def _navs(app) -> list[tuple[int, str]]:
    return [(nav.message_id, str(nav.render())) for nav in app.screen.query(BranchNav)]


def _questions(app) -> list[str]:
    return [w.text for w in app.screen.query(UserMessage)]


async def _settled(pilot, app) -> None:
    await wait_until(pilot, lambda: not chat(app).streaming)
    await workers_done(pilot)


async def _nav_in_view(pilot, app) -> None:
    """Scroll the log to its end until the (one) navigator is inside the log's visible region."""
    log = chat(app).chat_log

    def shown() -> bool:
        navs = app.screen.query(BranchNav)
        if not navs or not navs.first().display:
            return False
        log.scroll_end(animate=False, immediate=True)
        return log.scrollable_content_region.contains_region(navs.first().region)

    await wait_until(pilot, shown)
    await pilot.pause()


async def _focus_log(pilot, app) -> None:
    chat(app).chat_log.focus()
    await pilot.pause()


@pytest.mark.slow
async def test_ctrl_r_regenerates_a_finished_reply_and_arrows_switch_versions(chat_services, fake_openai):
    fake_openai.reply("Canberra is the capital.")
    fake_openai.reply("It is Canberra, not Sydney.")
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "capital of australia?")
        await wait_until(pilot, lambda: not chat(app).streaming and replies(app))
        await pilot.press("ctrl+r")  # a finished reply: regenerated (both kept)
        await wait_until(pilot, lambda: "It is Canberra, not Sydney." in replies(app))
        await _settled(pilot, app)
        assert replies(app) == ["It is Canberra, not Sydney."]  # the old one is on its branch
        cid = chat(app).conversation_id
        branch = chat_services.history.messages(cid)
        assert [m.content for m in branch] == ["capital of australia?", "It is Canberra, not Sydney."]
        await wait_until(pilot, lambda: _navs(app) == [(branch[1].id, "‹ 2/2 ›")])
        await _nav_in_view(pilot, app)
        assert await pilot.click(BranchNav, offset=(1, 0))  # "‹": the previous version
        await wait_until(pilot, lambda: replies(app) == ["Canberra is the capital."])
        await _settled(pilot, app)
        await wait_until(pilot, lambda: [t for _i, t in _navs(app)] == ["‹ 1/2 ›"])
        await chat(app).branches.switch(chat_services.history.messages(cid)[1].id, +1)  # back, as "›" does
        await wait_until(pilot, lambda: replies(app) == ["It is Canberra, not Sydney."])
        await _settled(pilot, app)
        second = fake_openai.chat_requests[1]["messages"]
        assert [m["content"] for m in second if m["role"] != "system"] == ["capital of australia?"]

        await _focus_log(pilot, app)  # the newest message is selected
        assert chat(app).chat_log.cursor.selected.message_id == branch[1].id
        await pilot.press("left")  # the previous version
        await wait_until(pilot, lambda: replies(app) == ["Canberra is the capital."])
        await _settled(pilot, app)
        first_reply = chat_services.history.messages(cid)[1]
        assert first_reply.content == "Canberra is the capital."
        await wait_until(pilot, lambda: _navs(app) == [(first_reply.id, "‹ 1/2 ›")])
        # hidden while its page renders, the log gets the focus back once shown
        await wait_until(pilot, lambda: app.focused is chat(app).chat_log)
        assert chat(app).chat_log.cursor.selected.message_id == first_reply.id
        await pilot.press("right")
        await wait_until(pilot, lambda: replies(app) == ["It is Canberra, not Sydney."])
    assert [m.content for m in chat_services.history.messages(cid)][-1] == "It is Canberra, not Sydney."


@pytest.mark.slow
async def test_editing_an_earlier_question_makes_a_new_branch_and_keeps_the_old(chat_services, fake_openai):
    for text in ("Lisbon in spring is mild.", "Pack a rain jacket.", "Porto is rainier; pack boots."):
        fake_openai.reply(text)
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "trip to lisbon in april")
        await wait_until(pilot, lambda: not chat(app).streaming and len(replies(app)) == 1)
        await send(pilot, "what should I pack?")
        await wait_until(pilot, lambda: not chat(app).streaming and len(replies(app)) == 2)
        await _settled(pilot, app)
        cid = chat(app).conversation_id
        _q1, a1, q2, a2 = chat_services.history.messages(cid)

        chat(app).prompt.focus()
        await pilot.press("shift+tab")  # from the prompt to the messages, the newest selected
        assert app.focused is chat(app).chat_log and chat(app).chat_log.cursor.selected.message_id == a2.id
        await pilot.press("up")  # from the last reply to the question above it
        assert chat(app).chat_log.cursor.selected.message_id == q2.id
        await pilot.press("e")
        prompt = chat(app).prompt
        assert app.focused is prompt and prompt.text == "what should I pack?"
        assert "Editing message" in str(app.screen.query_one("#chat-editing", Static).render())
        prompt.load_text("what should I pack for porto instead?")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Porto is rainier; pack boots." in replies(app))
        await _settled(pilot, app)
        assert not app.screen.query("#chat-editing")
        assert _questions(app) == ["trip to lisbon in april", "what should I pack for porto instead?"]
        assert replies(app) == ["Lisbon in spring is mild.", "Porto is rainier; pack boots."]
        sent = [m["content"] for m in fake_openai.last_messages() if m["role"] != "system"]
        assert sent == ["trip to lisbon in april", "Lisbon in spring is mild.",
                        "what should I pack for porto instead?"]
        new_q = chat_services.history.messages(cid)[2]
        assert new_q.parent_id == a1.id
        await wait_until(pilot, lambda: (new_q.id, "‹ 2/2 ›") in _navs(app))
        # the old branch is kept whole
        assert chat_services.history.sibling_ids(cid, q2.id) == [q2.id, new_q.id]
        assert chat_services.history.get_message(a2.id).content == "Pack a rain jacket."


@pytest.mark.slow
async def test_escape_gives_up_an_edit_and_sends_nothing(chat_services, fake_openai):
    fake_openai.reply("one answer")
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "a question")
        await wait_until(pilot, lambda: not chat(app).streaming and replies(app))
        await _settled(pilot, app)
        chat(app).prompt.load_text("a draft I was writing")
        await _focus_log(pilot, app)
        await pilot.press("up", "e")
        assert chat(app).editing is not None and app.screen.query("#chat-editing")
        assert chat(app).prompt.text == "a question"
        await pilot.press("escape")
        await pilot.pause()
        assert chat(app).editing is None and not app.screen.query("#chat-editing")
        assert chat(app).prompt.text == "a draft I was writing"  # the draft is back
        assert len(fake_openai.chat_requests) == 1
        await _focus_log(pilot, app)
        await pilot.press("escape")  # from the messages back to the prompt
        await pilot.pause()
        assert app.focused is chat(app).prompt


@pytest.mark.slow
async def test_f_on_a_message_forks_the_conversation_up_to_it(chat_services, fake_openai):
    fake_openai.reply("first answer")
    fake_openai.reply("second answer")
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await send(pilot, "first question")
        await wait_until(pilot, lambda: not chat(app).streaming and len(replies(app)) == 1)
        await send(pilot, "second question")
        await wait_until(pilot, lambda: not chat(app).streaming and len(replies(app)) == 2)
        await _settled(pilot, app)
        original = chat(app).conversation_id
        before = [m.content for m in chat_services.history.messages(original)]
        await _focus_log(pilot, app)
        await pilot.press("up", "up")  # the first answer
        await pilot.press("f")
        await wait_until(pilot, lambda: chat(app).conversation_id != original)
        await wait_until(pilot, lambda: replies(app) == ["first answer"])
        fork = chat(app).conversation_id
        assert [m.content for m in chat_services.history.messages(fork)] == ["first question", "first answer"]
        assert chat_services.history.get_conversation(fork).title.endswith("(fork)")
        assert any(n[1] == "Forked" for n in app.notices)
    assert [m.content for m in chat_services.history.messages(original)] == before


@pytest.mark.slow
async def test_a_search_hit_on_another_branch_opens_that_branch(chat_services, fake_openai):
    history = chat_services.history
    cid = history.create_conversation("birds").id
    q = history.append(cid, Message("user", "name a flightless bird"))
    history.append(cid, Message("assistant", "The cassowary."))
    history.append(cid, Message("assistant", "The kiwi.", parent_id=q.id))  # active
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: replies(app) == ["The kiwi."])
        await pilot.press("f3")
        search = app.screen.query_one("#history-search", Input)
        search.focus()
        await pilot.press(*"cassowary")
        results = app.screen.query_one(SearchResults)
        # the match comes first; a message only near in meaning (the kiwi) may follow it, or,
        # while the words typed so far match nothing, come alone (semantic search)
        await wait_until(pilot, lambda: results.display and results.option_count >= 1
                         and "cassowary" in str(results.get_option_at_index(0).prompt))
        results.focus()
        results.highlighted = 0
        await pilot.press("enter")
        await wait_until(pilot, lambda: replies(app) == ["The cassowary."], explain=lambda: (
            replies(app), chat(app).conversation_id == cid, [m.content for m in history.messages(cid)]))
        await _settled(pilot, app)
        assert [m.content for m in history.messages(cid)][-1] == "The cassowary."
        assert [text for _id, text in _navs(app)] == ["‹ 1/2 ›"]


@pytest.mark.slow
async def test_retry_after_a_cut_reply_keeps_it_as_a_branch_not_in_the_log(chat_services, fake_openai):
    chat_services.settings.agent.max_retries = 0
    fake_openai.drop(after="Half a")
    fake_openai.reply("A whole reply.")
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "question one")
        await wait_until(pilot, lambda: chat(app).can_retry)
        assert replies(app) and replies(app)[0].startswith("Half a")
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: "A whole reply." in replies(app))
        await _settled(pilot, app)
        assert replies(app) == ["A whole reply."]  # the cut one went to its branch
        cid = chat(app).conversation_id
        new = chat_services.history.messages(cid)[1]
        await wait_until(pilot, lambda: _navs(app) == [(new.id, "‹ 2/2 ›")])
        cut = chat_services.history.get_message(chat_services.history.sibling_ids(cid, new.id)[0])
        assert cut.incomplete and cut.content.startswith("Half a")


@pytest.mark.slow
async def test_help_lists_the_message_keys(chat_services):
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "/help")
        await wait_until(pilot, lambda: app.screen.query("Notice"))
        text = str(app.screen.query("Notice").last().render())
        assert "Messages (Shift+Tab" in text and "f fork" in text and "r regenerate" in text


async def test_after_a_branch_switch_opening_another_conversation_leaves_the_focus_alone(
        chat_services, fake_openai):
    history = chat_services.history
    cid = history.create_conversation("one").id
    q = history.append(cid, Message("user", "first"))
    history.append(cid, Message("assistant", "answer a"))
    b = history.append(cid, Message("assistant", "answer b", parent_id=q.id))
    other = history.create_conversation("two").id
    history.append(other, Message("user", "elsewhere"))
    history.append(other, Message("assistant", "other answer"))
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        await chat(app).open_conversation(cid)
        await wait_until(pilot, lambda: replies(app) == ["answer b"])
        await _settled(pilot, app)
        await _focus_log(pilot, app)
        await chat(app).branches.switch(b.id, -1)
        await wait_until(pilot, lambda: replies(app) == ["answer a"] and app.focused is chat(app).chat_log)
        await _settled(pilot, app)
        await chat(app).open_conversation(other)
        chat(app).prompt.focus()
        await wait_until(pilot, lambda: replies(app) == ["other answer"]
                         and all(w.display for w in chat(app).chat_log.children))
        await workers_done(pilot)  # the conversation has loaded: a late focus move would have happened
        assert app.focused is chat(app).prompt
