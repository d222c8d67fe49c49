"""The header at 80 and 60 columns: shorter labels, then fewer items, never a number cut.

The line's choice (:func:`agenttui.ui.header_line.header_line`) is checked at the widths
that matter, then the app at 80x24 with a reply from the fake OpenAI server: what the
terminal shows in the header row (``TerminalFrames``) has the whole usage total.
"""

from __future__ import annotations

import re

import pytest

from agenttui.ui.app import HEADER_CHROME, make_app
from agenttui.ui.header_line import UsageLabel, header_line
from tests.ui.helpers import chat, send_and_wait, wait_until
from tests.ui.terminal_frames import TerminalFrames

TITLE = len("agenttui — ")
ROOM_80 = 80 - HEADER_CHROME - TITLE
ROOM_60 = 60 - HEADER_CHROME - TITLE
USAGE = UsageLabel("12.3k", "$0.0214")


def _line(room: int, **kwargs) -> str:
    fields = {"profile": "default", "model": "gpt-4o-mini", "meter": "context 12.3k/128k", "usage": USAGE}
    return header_line(room, **{**fields, **kwargs})


def test_the_whole_line_when_there_is_room():
    assert _line(200) == "profile: default · model: gpt-4o-mini · context 12.3k/128k · Σ 12.3k tok · $0.0214"


def test_at_80_columns_labels_shorten_and_the_profile_goes_first():
    line = _line(ROOM_80)
    assert len(line) <= ROOM_80
    assert line == "gpt-4o-mini · ctx 12.3k/128k · Σ 12.3k · $0.0214"


def test_at_60_columns_the_meter_goes_then_the_tokens():
    line = _line(ROOM_60)
    assert len(line) <= ROOM_60
    assert line == "gpt-4o-mini · Σ 12.3k · $0.0214"
    assert _line(ROOM_60, model="a-longer-model-name") == "a-longer-model-name · Σ $0.0214"
    assert _line(ROOM_60, model="a-longer-model-name", usage=UsageLabel("~366")) == "a-longer-model-name · Σ ~366"


def test_incognito_is_kept_and_only_the_model_name_is_ever_cut():
    line = _line(ROOM_60, incognito=True, model="a-very-long-model-name-from-a-gateway")
    assert line.startswith("INCOGNITO · a-very-long") and line.endswith("…") and len(line) <= ROOM_60
    assert "$" not in line and "ctx" not in line


@pytest.mark.parametrize("room", range(10, 120))
def test_no_number_is_ever_cut(room):
    line = _line(room)
    assert len(line) <= room
    whole = re.findall(r"\$?[\d.]+k?(?:/[\d.]+k?)?", _line(500))
    for number in re.findall(r"\$?[\d.]+k?(?:/[\d.]+k?)?", line.removeprefix("gpt-4o-mini")):
        assert number in whole, (room, line)  # every figure shown is a whole one of the full line


@pytest.mark.slow
async def test_the_header_at_80_columns_shows_the_usage_total_whole(chat_services, fake_openai):
    app = make_app(chat_services)
    async with app.run_test(size=(80, 24)) as pilot:
        frames = TerminalFrames(app, (80, 24))
        await send_and_wait(pilot, "hello")
        total = chat(app).usage_total
        await wait_until(pilot, lambda: app.usage_total is not None and bool(app.context_meter))
        usage = app.usage_total
        assert usage is not None
        await wait_until(pilot, lambda: f"Σ {usage.tokens}" in frames.screen.display[0])
        header = frames.screen.display[0]
        assert total.label not in header  # the long form does not fit at 80 ...
        assert usage.short() in header or usage.least() in header  # ... a shorter one does, whole
        assert chat_services.model in header and "…" not in header
        assert "ctx " in header or "context" not in header
