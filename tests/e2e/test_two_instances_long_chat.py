"""Two installed ``agenttui`` processes on one profile, chatting at the same time.

This crashed one of them within a few turns (3 runs in 5): a reply's end took
the Chat pane off the screen, and the data watcher's next poll (which sees the
other process's writes) asked for the pane. Both must stay up, and every
message of both must be in history.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from agenttui.core.config.paths import Paths
from agenttui.core.history.store import HistoryStore
from tests.e2e.pty_terminal import PtyTerminal
from tests.e2e.test_tui_in_pty import agent_env
from tests.fakes.markdown_reply import markdown_reply

AGENTTUI = Path(sys.executable).parent / "agenttui"
TURNS = 4


@pytest.mark.slow
def test_two_instances_on_one_profile_chat_side_by_side(fake_openai, isolated_home, tmp_path):
    fake_openai.default.text = markdown_reply(150) + "\n\nEND-OF-REPLY"
    env = agent_env(isolated_home, fake_openai.base_url)
    panes = lambda s: all(f"─ {t} ─" in s for t in ("Memory", "Chat", "History"))  # noqa: E731
    with PtyTerminal([str(AGENTTUI)], env=env, size=(120, 36), cwd=str(tmp_path)) as first, \
            PtyTerminal([str(AGENTTUI)], env=env, size=(120, 36), cwd=str(tmp_path)) as second:
        first.wait_for(panes, timeout=30)
        second.wait_for(panes, timeout=30)
        paths = Paths.from_env({"AGENTTUI_HOME": str(isolated_home)})

        def answered(question: str) -> bool:  # its reply is stored (the question may have scrolled away)
            with HistoryStore(paths.history_db("default")) as history:
                for conversation in history.list_conversations(limit=50):
                    roles = [(m.role, m.content) for m in history.messages(conversation.id)]
                    if any(r == ("user", question) and k + 1 < len(roles) and roles[k + 1][0] == "assistant"
                           for k, r in enumerate(roles)):
                        return True
            return False

        for turn in range(TURNS):
            first.send(f"first asks {turn}\r")
            second.send(f"second asks {turn}\r")
            for term, name in ((first, "first"), (second, "second")):
                # the reply stored and shown whole, the prompt empty again: the turn is over
                term.wait_for(lambda s, q=f"{name} asks {turn}": "END-OF-REPLY" in s and "Message…" in s
                              and answered(q), timeout=90)
        for term in (first, second):
            # a data-watcher poll (every second) has seen the other's writes: both conversations listed
            term.wait_for("2 conversations", timeout=30)
            assert "internal error" not in term.text().lower()
            assert panes(term.text())
            term.press("ctrl+q")
            assert term.wait_exit(15) == 0
    with HistoryStore(paths.history_db("default")) as history:
        questions = sorted(m.content for c in history.list_conversations(limit=50)
                           for m in history.messages(c.id) if m.role == "user")
    assert questions == sorted(f"{name} asks {n}" for name in ("first", "second") for n in range(TURNS))
