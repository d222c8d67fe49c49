"""A long conversation costs what a short one does: what leaves the log leaves memory.

The chat log keeps a window of the conversation mounted (``ChatLog``'s doc). These
tests fail if an unmounted reply stays alive (held by the log, a registry, a
timer...), if the window grows with the conversation, or if reaching the start of a
long conversation takes a key press per page.
"""

from __future__ import annotations

import gc
import weakref

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.widgets.message_view import AssistantMessage, UserMessage
from tests.fakes.markdown_reply import markdown_reply
from tests.ui.chat_log.test_long_replies import _turn
from tests.ui.helpers import chat, wait_until

SIZE = (120, 40)
TURNS = 10


@pytest.fixture
def small_window(monkeypatch):
    from agenttui.ui.widgets import chat_log

    monkeypatch.setattr(chat_log, "KEEP_MOUNTED", 6)
    monkeypatch.setattr(chat_log, "PAGE", 4)


@pytest.mark.slow
async def test_trimmed_replies_are_freed_and_the_window_stays_bounded(chat_services, fake_openai, small_window):
    fake_openai.default.text = markdown_reply(120)
    app = make_app(chat_services)
    seen: list[weakref.ReferenceType[AssistantMessage]] = []
    gc.collect()
    # Replies of an earlier test's app in this process (kept by its process-wide hooks) are not ours.
    earlier = weakref.WeakSet(obj for obj in gc.get_objects() if type(obj) is AssistantMessage)
    async with app.run_test(size=SIZE) as pilot:
        for turn in range(TURNS):
            reply = await _turn(pilot, f"question {turn}")
            assert reply is not None
            seen.append(weakref.ref(reply))
            del reply
        await pilot.pause()
        log = chat(app).chat_log
        mounted = set(app.screen.query(AssistantMessage))
        assert len(mounted) <= 4  # KEEP_MOUNTED messages plus the last turn: a bounded window
        assert any(ref() not in mounted for ref in seen)  # some replies were trimmed
        del mounted

        # Every reply off screen, trimmed or paged in and out again, must be freed once the app has
        # run its removal: on a busy machine the last removal may still be queued here.
        def unmounted_alive() -> list[AssistantMessage]:  # any reply, also one paged in and out again
            gc.collect()
            on_screen = set(app.screen.query(AssistantMessage))
            return [obj for obj in gc.get_objects()
                    if type(obj) is AssistantMessage and obj not in on_screen and obj not in earlier]

        try:
            await wait_until(pilot, lambda: not unmounted_alive(), timeout=60)
        except AssertionError:
            left = unmounted_alive()
            raise AssertionError(f"{len(left)} unmounted replies alive: "
                                 f"{[type(r) for r in gc.get_referrers(left[0])][:5]}") from None
        assert log.has_older


@pytest.mark.slow
async def test_home_shows_the_start_in_one_press_and_paging_stays_bounded(chat_services, fake_openai,
                                                                          small_window):
    fake_openai.default.text = markdown_reply(120)
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        for turn in range(TURNS):
            await _turn(pilot, f"question {turn}")
        log = chat(app).chat_log
        log.focus()
        await pilot.press("home")
        await wait_until(pilot, lambda: any(m.text == "question 0" for m in app.screen.query(UserMessage)))
        await wait_until(pilot, lambda: log.scroll_y == 0 and not log.has_older)
        assert log.has_newer
        assert "question 9" not in [m.text for m in app.screen.query(UserMessage)]

        # scrolling down pages the later turns in, and what is far above leaves
        seen_questions: set[str] = set()
        for _ in range(40):
            seen_questions |= {m.text for m in app.screen.query(UserMessage)}
            if not log.has_newer:
                break
            count = len(log.cursor.message_widgets())
            newest = log.newest_id
            log.scroll_end(animate=False, immediate=True)
            await wait_until(pilot, lambda newest=newest: log.newest_id != newest or not log.has_newer)
            assert len(log.cursor.message_widgets()) <= max(count, 6) + 4  # a page in, what is far above out
            log.scroll_to(y=max(0, log.max_scroll_y - 5), animate=False, immediate=True)  # off the end
            await pilot.pause()
        assert not log.has_newer
        assert seen_questions == {f"question {n}" for n in range(TURNS)}

        # home again, then end: the latest reply, following new ones again
        await pilot.press("home")
        await wait_until(pilot, lambda: log.has_newer)
        await pilot.press("end")
        await wait_until(pilot, lambda: not log.has_newer and any(
            m.text == "question 9" for m in app.screen.query(UserMessage)))

        # a message sent while the start is shown goes under the latest ones
        await pilot.press("home")
        await wait_until(pilot, lambda: log.has_newer)
        await _turn(pilot, "question 10")
        questions = [m.text for m in app.screen.query(UserMessage)]
        assert questions[-2:] == ["question 9", "question 10"]
        assert "question 0" not in questions
