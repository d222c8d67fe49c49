"""The soak benchmark's conversations: per-turn replies, the question texts, stored profiles.

Shared by ``bench_soak.py``'s parts:

* :class:`TurnServer` -- the loopback fake OpenAI server answering each streamed
  chat request by the question it carries (``q007 ...`` gets turn 7's reply).
  Picking by question, not by a queue of scripted replies, keeps turn N's reply
  turn N's even if an app makes a request of its own in between (a memory
  extraction pass, a title): a queue would hand that request the next turn's reply.
* :func:`build_profile` -- an ``AGENTTUI_HOME`` holding conversations of 20,
  1,000 (and 2,000) messages written through the real core API
  (``build_services`` -> ``HistoryStore.append_many``: redaction, FTS, branches
  as the app writes them), plus a short "start" conversation, the most recent,
  which the app opens at start-up.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from tests.fakes import openai_server  # noqa: E402
from tests.fakes.markdown_reply import markdown_reply  # noqa: E402

REPLY_WORDS = 500
_QUESTION = re.compile(r"\bq(\d{3})\b")


def marker(turn: int) -> str:
    """The last word of turn ``turn``'s reply; no marker is a substring of another."""
    return f"ENDMARK-{turn}-END"


def question(turn: int) -> str:
    """A short question; its number picks the reply. Under 50 characters, so it fits the prompt row."""
    return f"q{turn:03d} what does part {turn} say about the budget"


def reply(turn: int, words: int = REPLY_WORDS) -> str:
    return markdown_reply(words, seed=turn) + f"\n\n{marker(turn)}"


class TurnServer:
    """The in-process fake server; a streamed request for ``qNNN`` gets turn NNN's reply."""

    def __init__(self, words: int = REPLY_WORDS, words_per_second: float = 0.0) -> None:
        self.words = words
        self.words_per_second = words_per_second
        self.fake = openai_server.FakeOpenAI(default_reply="ok")
        self.unmatched = 0  # streamed requests without a question number (should stay 0)
        original = openai_server._Handler._stream
        server = self

        def stream_turn(handler: Any, item: openai_server.Scripted, body: dict[str, Any]) -> None:
            turn = server.turn_of(body)
            if turn is None:
                server.unmatched += 1
            else:
                item = openai_server.Scripted("text", text=reply(turn, server.words),
                                              words_per_second=server.words_per_second)
            original(handler, item, body)

        openai_server._Handler._stream = stream_turn  # type: ignore[method-assign,assignment]
        self.fake.start()

    @staticmethod
    def turn_of(body: dict[str, Any]) -> int | None:
        users = [m for m in body.get("messages") or [] if m.get("role") == "user"]
        content = users[-1].get("content") if users else None
        if isinstance(content, list):  # content parts
            content = " ".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
        found = _QUESTION.search(content or "")
        return int(found.group(1)) if found else None

    def stop(self) -> None:
        self.fake.stop()


# -- the stored conversations opened from History -------------------------------------
START_TITLE, START_MARK = "soakstart", "LASTMSG-start"


def size_title(size: int) -> str:
    return f"soak{size}"


def size_mark(size: int) -> str:
    return f"LASTMSG-of-{size}-END"


def build_profile(home: Path, sizes: list[int], env: dict[str, str]) -> float:
    """Write a conversation of each size (user questions and 500-word Markdown replies,
    the last reply ending in its :func:`size_mark`), then the short start conversation,
    through the app's own services. Returns the seconds it took."""
    from agenttui.bootstrap import build_services
    from agenttui.core.models import Message

    started = time.perf_counter()
    services = build_services(environ=env, cwd=home)
    try:
        history = services.history
        for size in sorted(sizes, reverse=True):  # the smallest ends up most recent (listed first)
            cid = history.create_conversation(title=size_title(size)).id
            messages: list[Message] = []
            for index in range(size):
                turn = index // 2 + 1
                if index % 2 == 0:
                    messages.append(Message("user", f"stored question {turn} of {size}"))
                else:
                    text = markdown_reply(REPLY_WORDS, seed=1000 + turn)
                    if index == size - 1:
                        text += f"\n\n{size_mark(size)}"
                    messages.append(Message("assistant", text))
            for start in range(0, len(messages), 200):  # a transaction per 200, as an import does
                history.append_many(cid, messages[start:start + 200])
        start_cid = history.create_conversation(title=START_TITLE).id
        history.append_many(start_cid, [Message("user", "the start conversation"),
                                        Message("assistant", f"Opened at start-up. {START_MARK}")])
    finally:
        services.close()
    return time.perf_counter() - started
