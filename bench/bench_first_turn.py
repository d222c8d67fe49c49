"""Enter -> first words on screen for the first message after launch.

    .venv/bin/python bench/bench_first_turn.py [--runs 7] [--think 2.0] [--before REV] [--hogs N]
                                                [--history N]

Each run spawns a command in a pty (120x36) against the loopback fake OpenAI
server running in this process, waits for its first frame, lets a user
"read" for ``--think`` seconds (default 2: reading the screen and typing a short
first message; the UI is idle), types the first message at once, and
times **Enter -> the first word of the reply arriving on the terminal** (the
raw bytes are searched for the marker while draining, pyte parses only
afterwards; ``time.perf_counter()`` on both sides); then, 2 s after that
reply, the same for a second message (printed for reference: what a later
turn costs in the same app). Compared, run by run in
turn, each with one uncounted warm-up run first (page cache, .pyc files):

* ``now`` -- agenttui as installed (this working tree), default settings;
* ``before`` -- agenttui at ``--before REV`` (default: the parent of the commit
  that added ``agent/prepare.py``, i.e. the first turn prepared only when it
  starts), run from a ``git archive`` of that revision's ``src``;
* ``minimal`` -- a minimal Textual + openai streaming app: ``openai`` imported
  and the client built at start-up, one Input, the reply streamed into a
  Markdown widget (``Markdown.get_stream``).

Both apps are timed at the same point: the reply's first word (a marker no
other text on screen contains) arriving in the terminal's raw output, which
Textual writes only as part of a drawn frame, so it is on screen then.

Prints medians of Enter -> first words and of first paint (fork -> the frame's
bytes), ``now / minimal`` against the goal (<= 1.2x), ``before / minimal``,
and first paint ``now / before`` (goal: not slower, <= 1.05x allowing noise).
Also Enter -> the request reaching the server (the fake server's clock): it
tells a first turn that waited for the app's preparation (agent/prepare.py:
~1.3 s of CPU after the first frame, so on a loaded machine it may still run
after ``--think``) from one slowed by drawing. ``--hogs N`` runs N busy-loop
processes beside the runs (a loaded machine); the load average is printed.
``--history N`` gives agenttui a profile that has a conversation of N messages
(a returning user: it opens on launch, and recall searches it); without it the
profile is new. ``before`` is left out then (an older revision may not open
today's history schema).
"""

from __future__ import annotations

import argparse
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from tests.e2e.pty_terminal import PtyTerminal  # noqa: E402 -- after the sys.path lines above
from tests.fakes import openai_server  # noqa: E402

MARKER = b"Quokka"
REPLY = "Quokka says hello and the rest of this reply follows word by word."
MESSAGE = "hello there, how are you today?"
LATER_MESSAGE = "and one more question for you now"
LATER_PAUSE = 2.0  # seconds between the first reply and typing the second message
GOAL = 1.2
QUIET = 0.3  # the prompt's cursor blinks every 0.5 s: "quiet" is 0.3 s without output
MINIMAL_APP = '''
import os
from openai import AsyncOpenAI
from textual import work
from textual.app import App
from textual.containers import VerticalScroll
from textual.widgets import Input, Markdown, Static

class Minimal(App):
    AUTO_FOCUS = "Input"

    def compose(self):
        yield Static("minimal ready")
        with VerticalScroll():
            yield Markdown()
        yield Input(placeholder="Message")

    def on_mount(self):
        self.client = AsyncOpenAI(base_url=os.environ["OPENAI_BASE_URL"], api_key=os.environ["OPENAI_API_KEY"])

    def on_input_submitted(self, event):
        self.stream(event.value)

    @work
    async def stream(self, text):
        stream = Markdown.get_stream(self.query_one(Markdown))
        response = await self.client.chat.completions.create(
            model="gpt-4o-mini", stream=True, messages=[{"role": "user", "content": text}])
        async for chunk in response:
            if chunk.choices and chunk.choices[0].delta.content:
                await stream.write(chunk.choices[0].delta.content)
        await stream.stop()

Minimal().run()
'''


@dataclass
class Scenario:
    name: str
    label: str
    argv: list[str]
    ready: str
    pythonpath: str | None = None
    paint: list[float] = field(default_factory=list)
    first_words: list[float] = field(default_factory=list)
    first_request: list[float] = field(default_factory=list)  # Enter -> the request at the server
    later_words: list[float] = field(default_factory=list)  # the second message, for reference


def env_for(home: Path, base_url: str, pythonpath: str | None) -> dict[str, str]:
    # .pyc files are kept (no PYTHONDONTWRITEBYTECODE), as an install has them.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OPENAI_", "AGENTTUI_")) and k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    env.update(AGENTTUI_HOME=str(home), TERM="xterm-256color", OPENAI_API_KEY="sk-bench",
               OPENAI_BASE_URL=base_url, PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    return env


def drain_until_marker(term: PtyTerminal, timeout: float, marker: bytes = MARKER) -> float | None:
    """Read raw output until ``marker`` arrives; its arrival time (pyte is fed afterwards)."""
    chunks: list[bytes] = []
    tail = b""
    found = None
    deadline = time.perf_counter() + timeout
    while found is None and time.perf_counter() < deadline:
        ready, _, _ = select.select([term.fd], [], [], 0.002)
        if not ready:
            continue
        try:
            data = os.read(term.fd, 1 << 16)
        except OSError:
            break
        if not data:
            break
        now = time.perf_counter()
        chunks.append(data)
        if marker in tail + data:
            found = now
        tail = data[-len(marker):]
    data = b"".join(chunks)
    term.bytes_read += len(data)
    term.stream.feed(data)
    return found


def pump_for(term: PtyTerminal, seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end and term.pump(0.05):
        pass


def enter_to_first_words(term: PtyTerminal, server: openai_server.FakeOpenAI, message: str,
                         marker: str, what: str) -> tuple[float, float]:
    """Type ``message``, let the app go idle, press Enter: seconds until the reply's first word,
    and until the chat request reached the server."""
    server.reply(REPLY.replace("Quokka", marker))  # a word of its own: earlier replies stay on screen
    term.type(message)
    term.wait_for(message[-20:], timeout=15)
    term.settle(QUIET, timeout=5)  # every key handled
    before = len(server.chat_requests)
    pressed, pressed_wall = time.perf_counter(), time.time()
    os.write(term.fd, b"\r")
    arrived = drain_until_marker(term, timeout=60, marker=marker.encode())
    if arrived is None:
        raise TimeoutError(f"{what}: no reply 60 s after Enter\n{term.text()}")
    if len(server.chat_requests) != before + 1:
        raise RuntimeError(f"{what}: expected one chat request, got {len(server.chat_requests) - before}")
    request = [r for r in server.requests if r.path.endswith("/chat/completions")][-1]
    return arrived - pressed, request.at - pressed_wall


def populate(home: Path, cwd: Path, messages: int) -> None:
    """One conversation of ``messages`` messages in the profile agenttui will use from ``cwd``."""
    from agenttui.bootstrap import build_services
    from agenttui.core.config.paths import Paths
    from agenttui.core.models import Message

    services = build_services(paths=Paths.from_env({"AGENTTUI_HOME": str(home)}), cwd=cwd, environ={})
    conversation = services.history.create_conversation("earlier questions")
    services.history.append_many(conversation.id, [
        Message(role="user" if m % 2 == 0 else "assistant",
                content=f"message {m} about sqlite, textual and how the memory pane works")
        for m in range(messages)])
    services.close()


def one_run(scenario: Scenario, server: openai_server.FakeOpenAI, work: Path, run: int,
            think: float, history: int = 0) -> tuple[float, float, float, float]:
    home = work / f"home-{scenario.name}-{run}"
    home.mkdir()
    cwd = work / "project"
    if history and scenario.name == "now":
        populate(home, cwd, history)
    try:
        with PtyTerminal(scenario.argv, env=env_for(home, server.base_url, scenario.pythonpath),
                         size=(120, 36), cwd=str(cwd)) as term:
            term.wait_for(scenario.ready, timeout=60)
            paint = term.last_read_at - term.started
            term.settle(QUIET, timeout=5)
            pump_for(term, think)  # the user reads the screen; the UI is idle
            first, request = enter_to_first_words(term, server, MESSAGE, "Quokka", f"{scenario.name} run {run}")
            pump_for(term, LATER_PAUSE)  # the reply ends, the app does its after-work, the user reads
            later, _ = enter_to_first_words(term, server, LATER_MESSAGE, "Wombat", f"{scenario.name} run {run}, 2nd")
            term.press("ctrl+q")
            if term.wait_exit(15) is None:
                term.close()
        return paint, first, later, request
    finally:
        shutil.rmtree(home, ignore_errors=True)


def default_before() -> str:
    added = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%H", "--diff-filter=A", "--",
                            "src/agenttui/agent/prepare.py"],
                           capture_output=True, text=True, check=False).stdout.strip()
    return f"{added}~1" if added else "HEAD"


def export_source(rev: str, into: Path) -> Path:
    """``git archive REV src`` unpacked into ``into``; returns the src directory."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into / "src"


def summary(values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return f"median {statistics.median(ms):6.1f} ms (min {min(ms):6.1f}, max {max(ms):6.1f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--think", type=float, default=2.0,
                        help="seconds between the first frame and typing (the UI idle); default 2. With 1, "
                             "some runs press Enter while the preparation (~1.3 s on a quiet 2-core "
                             "machine) still runs: the turn then waits for it")
    parser.add_argument("--before", default=None, help="git revision for 'before' (default: see the doc)")
    parser.add_argument("--hogs", type=int, default=0, help="busy-loop processes running beside (default 0)")
    parser.add_argument("--history", type=int, default=0,
                        help="messages in agenttui's profile (one conversation); default 0: a new profile")
    args = parser.parse_args()
    before_rev = args.before or default_before()
    python = sys.executable
    server = openai_server.FakeOpenAI(default_reply=REPLY).start()
    hogs = [subprocess.Popen([python, "-c", "while 1: pass"]) for _ in range(args.hogs)]
    print(f"load average {os.getloadavg()[0]:.1f}; {args.hogs} busy-loop process(es) beside", flush=True)
    try:
        with tempfile.TemporaryDirectory(prefix="agenttui-bench-first-turn-") as tmp:
            work = Path(tmp)
            (work / "project").mkdir()
            before_src = export_source(before_rev, work / "before") if not args.history else None
            minimal = work / "minimal_app.py"
            minimal.write_text(MINIMAL_APP)
            scenarios = [
                Scenario("now", "agenttui (this tree)", [python, "-m", "agenttui"], "─ Chat ─"),
                Scenario("before", f"agenttui at {before_rev[:12]}", [python, "-m", "agenttui"], "─ Chat ─",
                         pythonpath=str(before_src)),
                Scenario("minimal", "minimal Textual + openai app", [python, str(minimal)], "minimal ready"),
            ]
            if args.history:
                scenarios = [s for s in scenarios if s.name != "before"]
            resolved = subprocess.run(["git", "-C", str(ROOT), "rev-parse", before_rev], capture_output=True,
                                      text=True, check=False).stdout.strip()[:12]
            print(f"before = {before_rev} ({resolved}); think {args.think:g} s; {args.runs} runs", flush=True)
            for scenario in scenarios:  # uncounted: page cache and .pyc files
                one_run(scenario, server, work, -1, args.think, args.history)
            for run in range(args.runs):
                for scenario in scenarios:
                    paint, words, later, request = one_run(scenario, server, work, run, args.think, args.history)
                    scenario.paint.append(paint)
                    scenario.first_words.append(words)
                    scenario.later_words.append(later)
                    scenario.first_request.append(request)
                line = "  ".join(f"{s.name} {s.first_words[-1] * 1000:6.1f}" for s in scenarios)
                print(f"run {run + 1}/{args.runs}: Enter -> first words {line} ms", flush=True)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
        server.stop()
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    report(scenarios)
    return 0


def report(scenarios: list[Scenario]) -> None:
    by = {s.name: s for s in scenarios}
    print("\nEnter -> first words on screen, first message after launch:")
    for s in scenarios:
        print(f"  {s.name:<8} {s.label:<32} {summary(s.first_words)}")
    print("Enter -> the first message's request at the server (a wait for the preparation shows here):")
    for s in scenarios:
        print(f"  {s.name:<8} {s.label:<32} {summary(s.first_request)}")
    print("Enter -> first words, the second message (for reference):")
    for s in scenarios:
        print(f"  {s.name:<8} {s.label:<32} {summary(s.later_words)}")
    print("first paint (fork -> first frame):")
    for s in scenarios:
        print(f"  {s.name:<8} {s.label:<32} {summary(s.paint)}")
    med = {name: statistics.median(s.first_words) for name, s in by.items()}
    paint = {name: statistics.median(s.paint) for name, s in by.items()}
    ratio = med["now"] / med["minimal"]
    versus_before = f"; before / minimal = {med['before'] / med['minimal']:.2f}x" if "before" in med else ""
    print(f"first turn: now / minimal = {ratio:.2f}x (goal <= {GOAL}x: {'met' if ratio <= GOAL else 'NOT met'})"
          f"{versus_before}")
    later = {name: statistics.median(s.later_words) for name, s in by.items()}
    print(f"now: first / second message = {med['now'] / later['now']:.2f}x; "
          f"minimal: {med['minimal'] / later['minimal']:.2f}x")
    if "before" in paint:
        print(f"first paint: now / before = {paint['now'] / paint['before']:.2f}x "
              f"({paint['now'] * 1000:.0f} vs {paint['before'] * 1000:.0f} ms; minimal app "
              f"{paint['minimal'] * 1000:.0f} ms)")


if __name__ == "__main__":
    raise SystemExit(main())
