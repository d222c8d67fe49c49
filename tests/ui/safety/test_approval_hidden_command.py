"""A hostile model cannot hide part of a command from the approval dialog.

The model is scripted through the real ``openai`` client against the loopback
fake server; its ``run_shell`` call carries an OSC sequence (``ESC ] 0; … BEL``,
a terminal title change) whose payload a terminal -- and the old dialog --
would not show.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agenttui.core.visible_text import exact, exact_parts, reveal
from agenttui.ui.app import make_app
from agenttui.ui.screens.approval import ApprovalScreen, command_content
from agenttui.ui.widgets.tool_call_view import ToolCallView
from tests.ui.helpers import approve, chat, send, wait_until

SIZE = (120, 36)


def _dialog_command(screen: ApprovalScreen) -> tuple[str, list[str]]:
    """(plain text of the command as rendered, the pieces drawn in reverse video)."""
    content = screen.query_one("#approval-command").render()
    text = str(content)
    marked = [text[span.start:span.end] for span in content.spans if "reverse" in str(span.style)]
    return text, marked


async def _dialog_for(pilot, app, command: str) -> ApprovalScreen:
    await send(pilot, "tidy up")
    await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.focused is not None)
    return app.screen


@pytest.mark.slow
async def test_osc_payload_is_shown_in_full_and_deny_keeps_the_file(chat_services, fake_openai, tmp_path):
    victim = tmp_path / "FILE"
    victim.write_text("keep me")
    command = f"echo hello \x1b]0; rm -f {victim}; #\x07"
    fake_openai.tool_call("run_shell", {"command": command, "timeout_seconds": 5})
    fake_openai.reply("fine")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _dialog_for(pilot, app, command)
        shown, marked = _dialog_command(screen)
        assert shown == f"echo hello \\x1b]0; rm -f {victim}; #\\x07"
        assert reveal(shown) == command  # exactly what would run, nothing more or less
        assert marked == ["\\x1b", "\\x07"]  # the escapes stand out
        assert "2 hidden or control characters" in str(screen.query_one("#approval-hidden").render())
        assert screen.has_class("-high")  # the rm behind the ';' is seen by the risk rating too
        title = str(screen.query_one("#approval-title").render())
        assert "\x1b" not in title and "run_shell" in title
        await pilot.press("escape")
        await wait_until(pilot, lambda: not chat(app).streaming)
        assert app.screen.query_one(ToolCallView).status == "denied"
    assert victim.read_text() == "keep me"


@pytest.mark.slow
async def test_what_the_dialog_showed_is_what_ran(chat_services, fake_openai, tmp_path):
    marker = tmp_path / "ran.txt"
    command = f"printf 'ab\\tc' > {marker} \u202e; : \u2066x\u2069"
    fake_openai.tool_call("run_shell", {"command": command, "timeout_seconds": 5})
    fake_openai.reply("done")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _dialog_for(pilot, app, command)
        shown, marked = _dialog_command(screen)
        assert "\u202e" not in shown and "\u2066" not in shown
        assert marked == ["\\u202e", "\\u2066", "\\u2069"]
        assert f"printf 'ab\\tc' > {marker}" in shown  # an ordinary backslash stays as typed
        ran_as_shown = reveal(shown)
        await approve(pilot, app)
        await wait_until(pilot, lambda: not chat(app).streaming)
        assert app.screen.query_one(ToolCallView).status == "ok"
    assert ran_as_shown == command
    assert marker.read_text() == "ab\tc"


@pytest.mark.slow
async def test_a_hostile_tool_name_cannot_act_on_the_terminal(chat_services, fake_openai):
    fake_openai.tool_call("evil\x1b]52;c;cm0gLXJmIH4=\x07", {"x": 1})
    fake_openai.reply("ok")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "hi")
        await wait_until(pilot, lambda: not chat(app).streaming and app.screen.query(ToolCallView))
        heading = str(app.screen.query_one(ToolCallView).title)
        assert "\x1b" not in heading and "\x07" not in heading
        assert "\\x1b]52;c;cm0gLXJmIH4=\\x07" in heading


@pytest.mark.slow
async def test_a_payload_below_the_fold_is_announced(chat_services, fake_openai, tmp_path):
    fake_openai.tool_call("run_shell", {"command": "echo hi" + "\n" * 60 + f"; touch {tmp_path / 'x'}"})
    fake_openai.reply("ok")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _dialog_for(pilot, app, "")
        risk = screen.query_one("#approval-risk")
        await wait_until(pilot, lambda: "scroll to read all" in str(risk.render()))
        assert "61 lines" in str(risk.render()) and "more rows below" in str(risk.render())
        box = screen.query_one("#approval-command-box")
        assert box.max_scroll_y > 0  # it scrolls: the end can be read, not cut off


@pytest.mark.slow
async def test_a_long_run_of_spaces_does_not_hide_the_payload(chat_services, fake_openai, tmp_path):
    fake_openai.tool_call("run_shell", {"command": "echo hi" + " " * 4_000 + f"; touch {tmp_path / 'x'}"})
    fake_openai.reply("ok")
    app = make_app(chat_services)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _dialog_for(pilot, app, "")
        box = screen.query_one("#approval-command-box")
        await wait_until(pilot, lambda: box.size.height > 0 and box.virtual_size.height > 0)  # laid out
        await pilot.pause()
        assert box.max_scroll_y == 0  # wrapped, whitespace folded: all of it on screen
        assert str(screen.query_one("#approval-risk").render()) == "Risk: medium"


@given(st.text(alphabet=st.characters(blacklist_categories=()), max_size=50))
def test_the_dialog_draws_exactly_the_visible_form(command):
    content = command_content(exact_parts(command))
    assert content.plain == exact(command)
    assert reveal(content.plain) == command
    assert all(c == "\n" or (c.isprintable() and not unicodedata.category(c).startswith("C"))
               for c in content.plain)
