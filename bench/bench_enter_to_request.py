"""Enter -> request sent on a later turn, in the installed ``agenttui`` (issue "Recall").

    .venv/bin/python bench/bench_enter_to_request.py [--runs 7] [--messages 200000] [--notes 2000]

Each run spawns ``.venv/bin/agenttui`` in a pty (120x36) against the loopback
fake OpenAI server running in this process, sends a first question (warm-up:
imports, history store, note index, openai client and its connection) and
waits for its reply, then types a second question and times **Enter on the
second question -> the fake server receiving ``POST /v1/chat/completions``**
(``time.perf_counter()`` in both places: same process, same clock). While it
waits, the pty is drained raw and parsed by pyte only afterwards, so the
server thread is not starved of the GIL by pyte's pure-Python parsing.

Scenarios, alternating run by run:

* ``a`` -- an empty profile;
* ``b`` -- 200,000 messages over 2,000 conversations (dates over 18 months,
  Zipf pseudo-words) and 2,000 notes, built as bench_recall_speed.py builds
  them; default config (recall on);
* ``c`` -- the same profile with ``[recall] enabled = false``: what a turn
  cost before recall ("today's" figure).

The big profile is built once; each run gets its own ``shutil.copytree`` of
the home directory (a fraction of a second, printed) so every run starts
from the same data and never sees another run's turns. In b and c the app
opens the profile's latest conversation at start-up (100 messages), so both
turns continue it; in a they start a new one. The questions use
mid-frequency and rare corpus words (all other words are stop words), so
recall has real matches to rank. Full garbage collections in the app (tens
of ms each) land inside some runs: they are what a user waits for too, so
they are counted, and medians over alternating runs keep them fair.

``--pause S`` waits S seconds between the last key and Enter, as a user who
reads the draft before sending does; the chat works out the draft's recall
once typing pauses for 0.4 s (``context.prepare``), so with ``--pause 1`` the
turn finds it ready. The default, 0, is Enter at once after the keys (a paste).

Prints medians (and p95 with >= 20 runs, else the maximum), b-a and b-c in
ms, and whether the goal holds: "Enter -> request sent on a later turn stays
within 30 ms of today's (about 20 ms)", i.e. median(b) - median(c) <= 30 ms.
"""

from __future__ import annotations

import argparse
import os
import select
import shutil
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_history import Corpus  # noqa: E402
from bench_recall_speed import build_history, build_notes  # noqa: E402
from bench_streaming import AGENTTUI, env_for  # noqa: E402

from agenttui.bootstrap import build_services  # noqa: E402
from agenttui.core.config.paths import Paths  # noqa: E402
from agenttui.core.recall.text import STOP_WORDS  # noqa: E402
from tests.e2e.pty_terminal import PtyTerminal  # noqa: E402
from tests.fakes import openai_server  # noqa: E402

GOAL_MS = 30.0
RECALL_BLOCK = "Recalled from earlier conversations"  # context.RECALL_INTRO's opening
CHAT_READY = "─ Chat ─"
# The prompt's cursor blinks every 0.5 s, so "no output for 0.5 s" may never come:
# quiet means 0.3 s without output, and after a turn the app gets a fixed time.
QUIET = 0.3
PAUSE = [0.0]  # --pause: seconds between the last key and Enter (set by main)
AFTER_TURN = 2.0


class Server:
    """The in-process fake server, noting when each chat POST reaches its handler."""

    def __init__(self) -> None:
        self.fake = openai_server.FakeOpenAI(default_reply="ok")
        self.posted: list[float] = []
        self.arrived = threading.Event()
        handler_class = self.fake._httpd.RequestHandlerClass  # this server's own subclass
        original = handler_class.do_POST
        server = self

        def note_and_handle(handler: openai_server._Handler) -> None:
            # The request line and headers are parsed; the body is read next.
            if handler.path.rstrip("/").endswith("/chat/completions"):
                server.posted.append(time.perf_counter())
                server.arrived.set()
            original(handler)

        handler_class.do_POST = note_and_handle
        self.fake.start()


@dataclass
class Sample:
    enter_to_post: float  # seconds
    recall_block: bool  # the second request quoted recalled material
    prompt_chars: int  # size of the second request's messages


@dataclass
class Scenario:
    name: str
    label: str
    template: Path
    recall_off: bool = False
    samples: list[Sample] = field(default_factory=list)
    copy_seconds: list[float] = field(default_factory=list)


def build_profile(home: Path, cwd: Path, messages: int, notes: int) -> None:
    environ = {"AGENTTUI_HOME": str(home)}
    services = build_services(paths=Paths.from_env(environ), cwd=cwd, environ=environ)
    if messages:
        corpus = Corpus()
        build_history(services, messages, corpus)
        build_notes(services.paths, services.profile_name, notes, corpus)
    services.close()
    home.mkdir(parents=True, exist_ok=True)  # an empty profile may have written nothing yet


def disable_recall(home: Path) -> None:
    config = Paths.from_env({"AGENTTUI_HOME": str(home)}).config_file
    text = config.read_text() if config.exists() else ""
    if "[recall]" in text:
        raise SystemExit(f"{config} already has a [recall] section; cannot switch recall off")
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(text + "\n[recall]\nenabled = false\n")


def pick_questions(corpus: Corpus) -> tuple[str, str]:
    """A warm-up and a measured question; content words are mid-frequency and rare corpus words."""
    mid, rare = corpus.words[200:2000], corpus.words[5000:]
    warm = f"do you remember anything about {mid[311]} or {rare[4021]}?"
    later = f"what did I tell you about {mid[857]} and {rare[1733]}, and was {mid[1402]} before or after {rare[9388]}?"
    return warm, later


def word_counts(home: Path, question: str) -> dict[str, int]:
    """How many stored messages hold each corpus word of ``question`` (proof the words occur)."""
    paths = Paths.from_env({"AGENTTUI_HOME": str(home)})
    corpus = set(Corpus().words) - STOP_WORDS
    words = [w.strip("?,") for w in question.split() if w.strip("?,") in corpus]
    conn = sqlite3.connect(str(paths.history_db("default")))
    try:
        return {w: conn.execute("SELECT COUNT(*) FROM messages WHERE ' ' || content || ' ' LIKE ?",
                                (f"% {w} %",)).fetchone()[0] for w in words}
    finally:
        conn.close()


def pump_for(term: PtyTerminal, seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end and term.pump(0.05):
        pass


def drain_until(term: PtyTerminal, event: threading.Event, timeout: float) -> None:
    """Read the pty without parsing until ``event`` is set; feed pyte afterwards."""
    chunks: list[bytes] = []
    deadline = time.perf_counter() + timeout
    while not event.is_set() and time.perf_counter() < deadline:
        ready, _, _ = select.select([term.fd], [], [], 0.002)
        if ready:
            try:
                data = os.read(term.fd, 1 << 16)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
    data = b"".join(chunks)
    term.bytes_read += len(data)
    term.stream.feed(data)


def one_run(scenario: Scenario, run: int, server: Server, questions: tuple[str, str],
            work: Path, cwd: Path) -> None:
    home = work / f"home-{scenario.name}-{run}"
    began = time.perf_counter()
    shutil.copytree(scenario.template, home)
    scenario.copy_seconds.append(time.perf_counter() - began)
    if scenario.recall_off:
        disable_recall(home)
    warm, later = questions
    try:
        with PtyTerminal([str(AGENTTUI)], env=env_for(home, server.fake.base_url), size=(120, 36),
                         cwd=str(cwd)) as term:
            term.wait_for(CHAT_READY, timeout=60)
            term.settle(QUIET, timeout=5)  # the latest conversation is shown
            server.fake.reply(f"first answer FIRSTDONE{run}")
            term.type(warm)
            term.wait_for(warm[-30:], timeout=10)
            term.press("enter")
            term.wait_for(f"FIRSTDONE{run}", timeout=60)
            pump_for(term, AFTER_TURN)  # the turn's after-work: used line, history pane, mark_used

            server.fake.reply(f"second answer SECONDDONE{run}")
            term.type(later)
            term.wait_for(later[-30:], timeout=10)
            term.settle(QUIET, timeout=5)  # every key handled: the app is idle
            if PAUSE[0] > 0:  # a user reading the draft before sending: the chat prepares its recall
                pump_for(term, PAUSE[0])
            requests_before = len(server.fake.chat_requests)
            server.arrived.clear()
            pressed = time.perf_counter()
            os.write(term.fd, b"\r")
            drain_until(term, server.arrived, timeout=60)
            if not server.arrived.is_set():
                raise TimeoutError(f"{scenario.name} run {run}: no request 60 s after Enter\n{term.text()}")
            posted = server.posted[-1]
            term.wait_for(f"SECONDDONE{run}", timeout=60)
            requests = server.fake.chat_requests
            if len(requests) != requests_before + 1:
                raise RuntimeError(f"expected one request after Enter, got {len(requests) - requests_before}")
            messages = requests[-1]["messages"]
            if messages[-1] != {"role": "user", "content": later}:
                raise RuntimeError(f"the timed request is not the second question: {messages[-1]!r}")
            recalled = any(m["role"] == "system" and RECALL_BLOCK in str(m.get("content"))
                           for m in messages)
            scenario.samples.append(Sample(posted - pressed, recalled, sum(len(str(m)) for m in messages)))
            term.press("ctrl+q")
            if term.wait_exit(15) is None:
                term.close()
    finally:
        shutil.rmtree(home, ignore_errors=True)


def summary(samples: list[float]) -> tuple[float, str]:
    ms = sorted(s * 1000 for s in samples)
    median = statistics.median(ms)
    if len(ms) >= 20:
        return median, f"p95 {ms[min(len(ms) - 1, int(len(ms) * 0.95))]:6.1f} ms"
    return median, f"max {ms[-1]:6.1f} ms (p95 needs >= 20 runs)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--pause", type=float, default=0.0,
                        help="seconds between the last key and Enter; 0 = Enter at once (a paste); "
                             "1 = a user reading the draft, time enough for the chat to prepare its recall")
    parser.add_argument("--messages", type=int, default=200_000)
    parser.add_argument("--notes", type=int, default=2_000)
    args = parser.parse_args()
    PAUSE[0] = max(0.0, args.pause)
    if not AGENTTUI.exists():
        raise SystemExit(f"install the package first: {AGENTTUI}")
    server = Server()
    try:
        scenarios = measure(args, server)
    finally:
        server.fake.stop()
    report(args, scenarios)
    return 0


def measure(args: argparse.Namespace, server: Server) -> list[Scenario]:
    questions = pick_questions(Corpus())
    with tempfile.TemporaryDirectory(prefix="agenttui-bench-enter-") as tmp:
        work = Path(tmp)
        cwd = work / "project"
        cwd.mkdir()
        empty, big = work / "template-empty", work / "template-big"
        build_profile(empty, cwd, 0, 0)
        began = time.perf_counter()
        build_profile(big, cwd, args.messages, args.notes)
        size = sum(p.stat().st_size for p in big.rglob("*") if p.is_file())
        print(f"built {args.messages} messages, {args.notes} notes in {time.perf_counter() - began:.1f} s "
              f"({size / 1e6:.0f} MB on disk)")
        print(f"measured question: {questions[1]!r}")
        print("  messages holding each corpus word:", word_counts(big, questions[1]))
        scenarios = [
            Scenario("a", "empty profile", empty),
            Scenario("b", f"{args.messages} msgs + {args.notes} notes, recall on", big),
            Scenario("c", f"{args.messages} msgs + {args.notes} notes, recall off", big, recall_off=True),
        ]
        for run in range(args.runs):
            for scenario in scenarios:
                one_run(scenario, run, server, questions, work, cwd)
            line = "  ".join(f"{s.name} {s.samples[-1].enter_to_post * 1000:6.1f}" for s in scenarios)
            print(f"run {run + 1}/{args.runs}: {line} ms", flush=True)
    return scenarios


def report(args: argparse.Namespace, scenarios: list[Scenario]) -> None:
    print(f"\nEnter -> POST /v1/chat/completions on the second turn ({args.runs} runs, 120x36 pty)")
    medians = {}
    for s in scenarios:
        median, spread = summary([x.enter_to_post for x in s.samples])
        medians[s.name] = median
        recalled = sum(x.recall_block for x in s.samples)
        chars = statistics.median(x.prompt_chars for x in s.samples)
        print(f"  {s.name}. {s.label:<42} median {median:6.1f} ms  {spread}   "
              f"recall block in {recalled}/{len(s.samples)} requests, {chars:.0f} chars sent  "
              f"(home copy {statistics.median(s.copy_seconds):.2f} s)")
    # The scenarios must be what they claim: recall quoted something in b, nothing in c.
    if not all(x.recall_block for x in scenarios[1].samples) or any(x.recall_block for x in scenarios[2].samples):
        raise SystemExit("scenario check failed: recall on (b) must quote, recall off (c) must not")
    b_a, b_c = medians["b"] - medians["a"], medians["b"] - medians["c"]
    print(f"  b - a = {b_a:+.1f} ms   (big profile vs empty, recall on)")
    print(f"  b - c = {b_c:+.1f} ms   (what recall adds; today's = c = {medians['c']:.1f} ms)")
    print(f"goal: later-turn Enter -> request within {GOAL_MS:.0f} ms of today's (about 20 ms): "
          f"{'met' if b_c <= GOAL_MS else 'NOT met'} (b - c = {b_c:.1f} ms)")


if __name__ == "__main__":
    raise SystemExit(main())
