"""alt+<letter> from a real terminal is a key, not text.

A terminal sends alt+i as ESC i, and Textual's parser posts it as the key ``alt+i`` *with*
the character ``i``. Pilot's ``press("alt+i")`` has no character, so the Pilot tests of
incognito passed while, in tmux, alt+i typed an "i" into the prompt and never toggled
incognito. The event here is the one Textual's own parser makes from the bytes.
"""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from tests.ui.helpers import chat, focused_prompt, terminal_keys, wait_until

SIZE = (100, 30)


@pytest.mark.slow
async def test_alt_i_typed_in_the_prompt_toggles_incognito_and_types_nothing(chat_services):
    app = make_app(chat_services, check_api_key=False)
    async with app.run_test(size=SIZE) as pilot:
        prompt = await focused_prompt(pilot, app)
        (event,) = terminal_keys("\x1bi")
        assert (event.key, event.character) == ("alt+i", "i")  # what the terminal's bytes become
        app.post_message(event)
        await wait_until(pilot, lambda: chat(app).incognito,
                         explain=lambda: f"prompt holds {prompt.text!r}")
        assert prompt.text == ""
        for key in terminal_keys("ok"):
            app.post_message(key)
        await wait_until(pilot, lambda: prompt.text == "ok")  # plain letters still type
