"""Spaces and joiners typed on a keyboard reach the message and the note, not only when pasted.

Textual's text boxes insert a key's character only when ``str.isprintable()`` accepts
it, which rejects every space but the ASCII one and every format character: an IME's
full-width space, a no-break space, the zero-width (non-)joiner of Persian spelling and
of emoji sequences were typed and lost (ui/typed_text.py). Found in tmux: "東京　大阪"
was remembered as "東京大阪". The events are the ones Textual's own parser makes from
the bytes a terminal sends, posted at once.
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from agenttui.ui.widgets.message_view import UserMessage
from tests.ui.helpers import chat, focused_field, focused_prompt, type_at_once, wait_until
from tests.ui.prompt.test_typed_burst import _count_edits

SIZE = (120, 36)
# full-width space, no-break space, ZWNJ inside a Persian word, ZWJ inside a family emoji
NOTE = "東京\u3000大阪 a\u00a0b می\u200cخواهم 👨\u200d👩\u200d👧"
TYPED = NOTE + " \u200fשלום"  # and a right-to-left mark (a note with one is refused as hidden text)


@pytest.mark.slow
async def test_a_message_typed_keeps_its_spaces_and_joiners(chat_services, fake_openai):
    fake_openai.reply("Noted.")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await focused_prompt(pilot, app)
        type_at_once(app, TYPED + "\r")
        await wait_until(pilot, lambda: bool(fake_openai.chat_requests), explain=lambda: repr(chat(app).prompt.text))
        assert fake_openai.last_messages()[-1]["content"] == TYPED
        assert [m.text for m in app.screen.query(UserMessage)] == [TYPED]


@pytest.mark.slow
async def test_a_note_typed_in_the_add_box_keeps_its_spaces_and_joiners(chat_services):
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        field = await focused_field(pilot, app, "#memory-add")
        type_at_once(app, NOTE + "\r")
        await wait_until(
            pilot,
            lambda: any("東京" in i.text for i in chat_services.memory.items()),
            explain=lambda: (repr(field.value), [i.text for i in chat_services.memory.items()], app.notices),
        )
    assert [i.text for i in chat_services.memory.items() if "東京" in i.text] == [NOTE]


@pytest.mark.slow
async def test_a_bidi_override_typed_is_still_not_text(chat_services):
    """Only what text needs is let in: an override (Trojan Source) stays out, as before."""
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        prompt = await focused_prompt(pilot, app)
        type_at_once(app, "a\u202eb\u3000c")
        await wait_until(pilot, lambda: prompt.text == "ab\u3000c", explain=lambda: repr(prompt.text))


@pytest.mark.slow
async def test_a_burst_with_full_width_spaces_is_still_one_edit(chat_services):
    """Each such key handed over as its own paste made an edit of its own, and each edit re-wraps
    the line: a 30,000-character paste arriving as keys took 65 s of CPU instead of 10."""
    burst = "東京\u3000大阪\u3000" * 500
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        prompt = await focused_prompt(pilot, app)
        edits = _count_edits(prompt)
        type_at_once(app, burst)
        await wait_until(pilot, lambda: prompt.text == burst, explain=lambda: len(prompt.text))
        assert len(edits) < 20, len(edits)  # one per burst the queue held, not one per space
