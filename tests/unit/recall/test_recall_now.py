"""``agenttui ask --dry-run --now``: the prompt built as if it were another moment.

A history from 2023 asked "what did I do yesterday?" today finds nothing of
yesterday; with ``--now`` set to a day of that history, recall reads
"yesterday" from it and the system prompt gives that date.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest

from agenttui.cli import main
from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message


def _local(*parts: int) -> datetime:
    return datetime(*parts).astimezone()  # noon, local: the same local day in every time zone


@pytest.fixture
def history_of_2023(paths):
    store = HistoryStore(paths.history_db("default"))
    for day, text in ((16, "I repainted the garden fence green."), (17, "I went kayaking on Lake Toba."),
                      (18, "I baked a rhubarb pie for my neighbours.")):
        cid = store.create_conversation().id
        store.append_many(cid, [Message(role="user", content=text, created=_local(2023, 6, day, 12)),
                                Message(role="assistant", content="Sounds lovely!",
                                        created=_local(2023, 6, day, 12) + timedelta(minutes=1))])
    store.close()


def _dry_run(capsys, *flags: str) -> dict:
    assert main(["ask", "--dry-run", "--json", "--new", *flags, "What did I do yesterday?"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.slow  # the first dry run loads recall's word tables
def test_now_sets_recalls_today_and_the_system_prompts_date(history_of_2023, capsys):
    request = _dry_run(capsys, "--now", "2023-06-18T09:30")
    system, *rest = request["messages"]
    assert "Today is Sunday, 18 June 2023." in system["content"]
    recalled = "\n".join(m["content"] for m in rest if m["role"] == "system")
    assert "kayaking on Lake Toba" in recalled  # 17 June: "yesterday" of 18 June
    assert "rhubarb pie" not in recalled and "garden fence" not in recalled


@pytest.mark.slow
def test_a_date_alone_is_that_days_local_midnight(history_of_2023, capsys):
    request = _dry_run(capsys, "--now", "2023-06-19")
    assert "Today is Monday, 19 June 2023." in request["messages"][0]["content"]
    assert "rhubarb pie" in json.dumps(request, ensure_ascii=False)


@pytest.mark.slow
def test_without_now_the_clock_decides(history_of_2023, capsys):
    request = _dry_run(capsys)
    assert "2023" not in request["messages"][0]["content"]
    assert "kayaking" not in json.dumps(request)  # "yesterday" is today's yesterday: nothing then


@pytest.mark.parametrize(("flags", "message"), [
    (["--now", "20 June 2023"], "not an ISO date"),
    (["--now", "2023-06-18"], "--now goes with --dry-run"),  # a real turn is stored at the real time
])
def test_bad_or_misplaced_now_is_refused(capsys, flags, message):
    if "--now goes" in message:
        assert main(["ask", *flags, "hello"]) == 2
    else:
        with pytest.raises(SystemExit) as exited:
            main(["ask", "--dry-run", *flags, "hello"])
        assert exited.value.code == 2
    assert message in capsys.readouterr().err
