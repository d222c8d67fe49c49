"""Soak: a long conversation of long replies, then a big conversation opened from History.

    .venv/bin/python bench/bench_soak.py [--turns 50] [--at 5,25,50] [--wps 400] [--hog 0]
                                         [--words 500] [--open-sizes 1000,2000] [--open-runs 3]

The installed ``agenttui`` runs in a pseudo-terminal (120x40) watched through
pyte (``timed_pty``: output stamped on arrival), against the loopback fake
OpenAI server in this process. Each turn sends a short question (``q007 ...``)
and waits for that turn's reply -- about ``--words`` words of Markdown
(headings, lists, a table, code; ``tests/fakes/markdown_reply``) ending in a
unique marker -- to show its marker. Replies stream at ``--wps`` words/s
(0 = flat out).

After the turns listed in ``--at``, once the app is idle:

a. **key echo** -- the next question is typed one key at a time: each key is
   written to the pty, its echo is the arrival of the output after which the
   prompt's row shows the text typed so far; the next key follows 50-150 ms
   after the echo. Spaces are typed but not timed (a trailing space is not
   visible on the row, so its echo cannot be told from no echo).
b. **RSS** of the app's process and its children (``/proc/PID/status`` VmRSS).
c. **scroll to top** -- the chat log is focused (``shift+tab`` from the prompt),
   then ``home`` is pressed every 150 ms until the first question's text is on
   screen, inside the chat pane (the History pane lists the conversation under
   that same text); the time from the first press to that frame, and the presses.
   (agenttui's ``home`` mounts the conversation's first page in place of what is
   shown; the minimal app has it all mounted and scrolls.) Then ``end``, the
   latest reply's marker on screen again, ``escape`` back to the prompt.

The same conversation, the same keys, at the same turns, are measured in the
same run for a minimal Textual app (``--skip-minimal`` leaves it out; it keeps
every reply mounted, so its turns grow slower: ``--minimal-turn-timeout``): a
``TextArea`` prompt under a ``VerticalScroll`` where each Enter mounts the
question and a new ``Markdown`` streamed with ``Markdown.get_stream``, never
trimming old ones (``shift+tab`` focuses the scroll, ``home``/``end`` are
Textual's own scroll bindings there, ``escape`` goes back to the prompt).

Then **opening from History**: a separate ``AGENTTUI_HOME`` is filled before
the app starts, through the real core API (``build_services`` ->
``HistoryStore.append_many``), with conversations of 20 and ``--open-sizes``
messages (500-word replies); agenttui starts on a short conversation, and each
conversation is opened ``--open-runs`` times, the sizes alternating: ``f3``
(the History list), ``home``, ``down`` to its row, ``Enter``; the time from
Enter to its last message's marker on screen. Reported: the median per size,
and its ratio to the 20-message one (goal: 1,000 and 2,000 as fast as 20).

``--hog N`` keeps N busy-looping processes beside the apps (the "busy
machine"; they are this script's children and end with it).

Goals (issue "the app crashes, freezes or shows the wrong text"): alive and
showing the latest reply after the last turn; echo at the last checkpoint
<= 50 ms median and <= 1.5x the first checkpoint's; RSS growth from the first
to the last checkpoint <= 50 MiB; opening 1,000/2,000 messages as fast as 20.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_streaming import env_for, process_cpu  # noqa: E402
from soak_conversations import (  # noqa: E402
    START_MARK,
    START_TITLE,
    TurnServer,
    build_profile,
    marker,
    question,
    size_mark,
    size_title,
)
from timed_pty import TimedPty, percentile  # noqa: E402

AGENTTUI = Path(sys.executable).parent / "agenttui"
SIZE = (120, 40)
PLACEHOLDER = "Message…"
SHIFT_TAB, HOME, END, ESCAPE, ENTER, F3, DOWN = "\x1b[Z", "\x1b[H", "\x1b[F", "\x1b", "\r", "\x1bOR", "\x1b[B"
ALT_2 = "\x1b2"
TURN_TIMEOUT = 180.0
TOP_TIMEOUT = 180.0
# A screen change the app owes a key (focus moved, a list shown, back to the prompt): waited for
# on the screen's content, generously -- at load ~9, 15 s was not enough for Escape at turn 25.
UI_TIMEOUT = 180.0
MINIMAL_APP = '''
import os
from openai import AsyncOpenAI
from textual import work
from textual.app import App
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Markdown, Static, TextArea

class Minimal(App):
    BINDINGS = [Binding("enter", "go", "go", priority=True),
                Binding("shift+tab", "focus_log", "log", priority=True),
                Binding("escape", "focus_prompt", "prompt", priority=True)]
    CSS = "TextArea { height: 3; } VerticalScroll { height: 1fr; }"

    def compose(self):
        yield Static("minimal ready", id="status")
        yield VerticalScroll(id="log")
        yield TextArea(placeholder="Message… (Enter sends, /help)")

    def on_mount(self):
        self.client = AsyncOpenAI(base_url=os.environ["OPENAI_BASE_URL"], api_key="sk-bench")
        self.query_one(VerticalScroll).anchor()
        self.query_one(TextArea).focus()

    def action_focus_log(self):
        self.query_one(VerticalScroll).focus()
        self.query_one("#status", Static).update("minimal ready (log focused)")

    def action_focus_prompt(self):
        self.query_one(TextArea).focus()
        self.query_one("#status", Static).update("minimal ready")

    def action_go(self):
        area = self.query_one(TextArea)
        text = area.text.strip()
        area.clear()
        if text:
            self.stream(text)

    @work
    async def stream(self, question):
        log = self.query_one(VerticalScroll)
        await log.mount(Static("> " + question))
        reply = Markdown()
        await log.mount(reply)
        log.anchor()
        stream = Markdown.get_stream(reply)
        response = await self.client.chat.completions.create(
            model="gpt-4o-mini", stream=True, messages=[{"role": "user", "content": question}])
        async for chunk in response:
            if chunk.choices and chunk.choices[0].delta.content:
                await stream.write(chunk.choices[0].delta.content)
        await stream.stop()

Minimal().run()
'''


# -- the screen ------------------------------------------------------------------------
def chat_region(screen: str) -> str:
    """The Chat pane's columns of the screen (agenttui), else the whole screen (minimal):
    text the History pane also shows (the conversation's title is its first question)
    must not count as shown in the chat."""
    lines = screen.split("\n")
    for line in lines:
        start = line.find("╭─ Chat")
        if start >= 0:
            end = line.find("╮", start)
            end = end if end > start else len(line)
            return "\n".join(other[start:end + 1] for other in lines)
    return screen


def in_screen(text: str) -> Callable[[str], bool]:
    return lambda screen: text in screen


def in_chat(text: str) -> Callable[[str], bool]:
    return lambda screen: text in chat_region(screen)


def prompt_area(screen: str) -> tuple[int, int] | None:
    """(row, column) where the empty prompt's placeholder starts."""
    for row, line in enumerate(screen.split("\n")):
        column = line.find(PLACEHOLDER)
        if column >= 0:
            return row, column
    return None


def footer(screen: str) -> str:
    return screen.rstrip("\n").split("\n")[-1]


@dataclass(frozen=True)
class Subject:
    name: str
    argv: list[str]
    ready: str
    log_focused: Callable[[str], bool]  # the screen says the chat log has the focus


def agenttui_log_focused(screen: str) -> bool:
    return "e Edit" in footer(screen)  # ChatLog's message keys show in the footer only while it is focused


def minimal_log_focused(screen: str) -> bool:
    return "(log focused)" in screen


# -- the process -----------------------------------------------------------------------
def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def rss_mib(pid: int) -> float:
    """VmRSS of ``pid`` and all its descendants, MiB."""
    total_kib, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                total_kib += int(line.split()[1])
        todo += _children(current)
    return total_kib / 1024


def wait_idle(term: TimedPty, quiet_cpu: float = 0.03, window: float = 0.3, timeout: float = 15.0) -> None:
    """Until the app uses under ``quiet_cpu`` s of CPU in ``window`` (its end-of-turn work done)."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        before = process_cpu(term.pid)
        term.idle(window)
        if process_cpu(term.pid) - before < quiet_cpu:
            return


def wait_shown(term: TimedPty, check: Callable[[str], bool], what: str, timeout: float) -> float:
    """Arrival time of the frame where ``check`` holds; raises with the screen otherwise."""
    arrived = term.arrival_of(check, timeout=timeout)
    if arrived is None:
        state = "the app exited" if term._ended else f"not within {timeout:.0f} s"
        raise RuntimeError(f"{what}: {state}\n{term.text()}")
    return arrived


# -- one checkpoint --------------------------------------------------------------------
class FocusLost(Exception):
    """shift+tab left the prompt but the chat log does not have the focus."""


@dataclass
class Checkpoint:
    turn: int
    echoes: list[float] = field(default_factory=list)
    rss: float = float("nan")
    top: float | None = None  # None: the first question never came on screen
    home_presses: int = 0
    note: str = ""  # why scroll to top was not measured


def type_measured(term: TimedPty, text: str, rng: random.Random) -> list[float]:
    """Type ``text`` into the (empty) prompt key by key; the echo time of each non-space key."""
    found = prompt_area(term.text())
    if found is None:
        raise RuntimeError("prompt placeholder not found\n" + term.text())
    row, column = found
    echoes: list[float] = []
    for count in range(1, len(text) + 1):
        typed = text[:count]

        def shown(screen: str, expected: str = typed.rstrip()) -> bool:
            return expected in screen.split("\n")[row][column:column + len(text) + 2]

        sent = time.perf_counter()
        term.send(typed[-1])
        if typed[-1] != " ":
            arrived = wait_shown(term, shown, f"echo of {typed!r}", UI_TIMEOUT)
            echoes.append(max(0.0, arrived - sent))
        term.idle(rng.uniform(0.05, 0.15))
    return echoes


def scroll_to_top(term: TimedPty, subject: Subject, latest: int) -> tuple[float | None, int]:
    """Seconds from the first ``home`` to the first question on screen, and the presses."""
    term.send(SHIFT_TAB)
    if term.arrival_of(subject.log_focused, timeout=UI_TIMEOUT) is None:
        # reported, and the soak goes on: alt+2 puts the focus back on agenttui's prompt
        note = (f"turn {latest}: shift+tab did not focus the chat log within {UI_TIMEOUT:.0f} s; "
                f"the screen:\n{term.text()}")
        term.send(ALT_2)
        term.idle(1.0)
        raise FocusLost(note)
    first = in_chat(question(1))
    started = time.perf_counter()
    presses, arrived = 0, None
    while time.perf_counter() - started < TOP_TIMEOUT:
        term.send(HOME)
        presses += 1
        arrived = term.arrival_of(first, timeout=0.15)
        if arrived is not None or term._ended:
            break
    took = None if arrived is None else max(0.0, arrived - started)
    term.send(END)
    wait_shown(term, in_chat(marker(latest)), "back at the end (latest reply)", TOP_TIMEOUT)
    term.send(ESCAPE)
    wait_shown(term, lambda s: not subject.log_focused(s), "back to the prompt (escape)", UI_TIMEOUT)
    return took, presses


def checkpoint(term: TimedPty, subject: Subject, turn: int, rng: random.Random) -> Checkpoint:
    wait_idle(term)
    point = Checkpoint(turn)
    point.echoes = type_measured(term, question(turn + 1), rng)
    wait_idle(term)
    point.rss = rss_mib(term.pid)
    try:
        point.top, point.home_presses = scroll_to_top(term, subject, turn)
    except FocusLost as lost:
        point.note = str(lost)
    return point


# -- one app's soak --------------------------------------------------------------------
@dataclass
class SoakResult:
    name: str
    points: list[Checkpoint] = field(default_factory=list)
    turn_seconds: list[float] = field(default_factory=list)  # Enter to the reply's marker, per turn
    alive_at_end: bool = False
    anomalies: list[str] = field(default_factory=list)


def soak(subject: Subject, env: dict[str, str], turns: int, at: set[int], rng: random.Random,
         cwd: str, turn_timeout: float = TURN_TIMEOUT) -> SoakResult:
    result = SoakResult(subject.name)
    term = TimedPty(subject.argv, env=env, size=SIZE, cwd=cwd)  # (``with ... as`` would type it PtyTerminal)
    with term:
        try:
            wait_shown(term, lambda s: subject.ready in s, "ready", 60)
            term.idle(0.5)
            typed_next = False
            for turn in range(1, turns + 1):
                if not typed_next:
                    asked = question(turn)
                    term.send(asked)
                    wait_shown(term, in_screen(asked), f"question {turn} in the prompt", 30)
                sent = time.perf_counter()
                term.send(ENTER)
                arrived = wait_shown(term, in_chat(marker(turn)), f"turn {turn}'s reply", turn_timeout)
                result.turn_seconds.append(arrived - sent)
                typed_next = False
                if turn in at:
                    point = checkpoint(term, subject, turn, rng)
                    result.points.append(point)
                    if point.note:
                        result.anomalies.append(point.note)
                    typed_next = True  # the question typed for the echo is the next turn's
                    print(f"  {subject.name:8} turn {turn:3}: echo median "
                          f"{statistics.median(point.echoes) * 1000:5.0f} ms, p95 "
                          f"{percentile(point.echoes, 0.95) * 1000:5.0f} ms; RSS {point.rss:6.1f} MiB; "
                          f"to the top {_secs(point.top)} ({point.home_presses} x home); "
                          f"turn took {result.turn_seconds[-1]:.2f} s", flush=True)
            wait_idle(term)
            result.alive_at_end = not term._ended and in_chat(marker(turns))(term.text())
            if not result.alive_at_end:
                result.anomalies.append(f"after turn {turns}: latest reply not on screen\n{term.text()}")
        except RuntimeError as error:
            result.anomalies.append(str(error))
            print(f"  {subject.name}: STOPPED -- {str(error).splitlines()[0]}", flush=True)
        finally:
            term.send("\x11")  # ctrl+q
            if term.wait_exit(10) is None:
                term.close()
    return result


def crash_logs(home: Path) -> list[str]:
    return [f"{path}:\n" + "\n".join(path.read_text(errors="replace").splitlines()[-15:])
            for path in sorted(home.rglob("crash-*.log"))]


# -- opening from History --------------------------------------------------------------
def history_rows(screen: str, titles: list[str]) -> list[str]:
    """The given titles in the order the History pane lists them (one line per row)."""
    placed = []
    for row, line in enumerate(screen.split("\n")):
        for title in titles:
            if f" {title} ·" in line:
                placed.append((row, title))
    return [title for _, title in sorted(placed)]


def open_from_history(env: dict[str, str], home: Path, sizes: list[int], runs: int, cwd: str
                      ) -> tuple[dict[int, list[float]], list[str]]:
    took: dict[int, list[float]] = {size: [] for size in sizes}
    anomalies: list[str] = []
    titles = [START_TITLE, *(size_title(size) for size in sizes)]  # every row the list has
    term = TimedPty([str(AGENTTUI)], env=env, size=SIZE, cwd=cwd)
    with term:
        try:
            wait_shown(term, in_chat(START_MARK), "the start conversation at start-up", 60)
            wait_idle(term)
            for _run in range(runs):
                for size in sizes:  # the same order each run: never the one already shown
                    term.send(F3)
                    wait_shown(term, lambda s: "Rename" in footer(s), "the History list focused by f3", 60)
                    listed = wait_listed(term, titles)
                    term.send(HOME)
                    for _ in range(listed.index(size_title(size))):  # from the first row, down to it
                        term.send(DOWN)
                    term.idle(0.3)
                    if in_chat(size_mark(size))(term.text()):
                        raise RuntimeError(f"the {size}-message conversation is shown before it is opened")
                    sent = time.perf_counter()
                    term.send(ENTER)
                    arrived = wait_shown(term, in_chat(size_mark(size)), f"the {size}-message conversation", 120)
                    took[size].append(arrived - sent)
                    wait_idle(term)
        except RuntimeError as error:
            anomalies.append(str(error))
            print(f"  opening: STOPPED -- {str(error).splitlines()[0]}", flush=True)
        finally:
            term.send("\x11")
            if term.wait_exit(10) is None:
                term.close()
    anomalies += crash_logs(home)
    return took, anomalies


def wait_listed(term: TimedPty, titles: list[str]) -> list[str]:
    wait_shown(term, lambda s: len(history_rows(s, titles)) == len(titles), "every conversation listed", UI_TIMEOUT)
    return history_rows(term.text(), titles)


# -- report ----------------------------------------------------------------------------
def _secs(value: float | None) -> str:
    return "never" if value is None else f"{value:.2f} s"


def _ms(values: list[float], fraction: float | None = None) -> float:
    if not values:
        return float("nan")
    return (statistics.median(values) if fraction is None else percentile(values, fraction)) * 1000


def table(results: list[SoakResult]) -> str:
    head = f"{'turn':>5} | " + " | ".join(
        f"{r.name + ' echo med/p95 ms':>27} {'RSS MiB':>8} {'top s':>7} {'homes':>5}" for r in results)
    lines = [head, "-" * len(head)]
    turns = sorted({p.turn for r in results for p in r.points})
    for turn in turns:
        cells = []
        for r in results:
            point = next((p for p in r.points if p.turn == turn), None)
            if point is None:
                cells.append(f"{'-':>27} {'-':>8} {'-':>7} {'-':>5}")
                continue
            top = "never" if point.top is None else f"{point.top:.2f}"
            cells.append(f"{_ms(point.echoes):>19.0f} / {_ms(point.echoes, 0.95):>5.0f} "
                         f"{point.rss:>8.1f} {top:>7} {point.home_presses:>5}")
        lines.append(f"{turn:>5} | " + " | ".join(cells))
    return "\n".join(lines)


def goals(result: SoakResult, turns: int) -> list[str]:
    out = [f"alive and showing turn {turns}'s reply at the end: {'yes' if result.alive_at_end else 'NO'}"]
    if len(result.points) >= 2:
        first, last = result.points[0], result.points[-1]
        med_first, med_last = _ms(first.echoes), _ms(last.echoes)
        out.append(f"echo median at turn {last.turn}: {med_last:.0f} ms (goal <= 50) -> "
                   f"{'ok' if med_last <= 50 else 'MISSED'}")
        out.append(f"echo median turn {last.turn} / turn {first.turn}: {med_last / med_first:.2f} "
                   f"(goal <= 1.5) -> {'ok' if med_last <= 1.5 * med_first else 'MISSED'}")
        growth = last.rss - first.rss
        out.append(f"RSS growth turn {first.turn} -> {last.turn}: {growth:+.1f} MiB (goal <= 50) -> "
                   f"{'ok' if growth <= 50 else 'MISSED'}")
    if len(result.turn_seconds) >= 10:
        early, late = result.turn_seconds[:5], result.turn_seconds[-5:]
        out.append(f"Enter to the reply's marker, median of the first 5 turns {statistics.median(early):.2f} s, "
                   f"of the last 5 {statistics.median(late):.2f} s")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=50)
    parser.add_argument("--at", default="5,25,50", help="turns after which to measure (comma-separated)")
    parser.add_argument("--words", type=int, default=500, help="words per reply")
    parser.add_argument("--wps", type=float, default=400.0,
                        help="words per second the replies stream at (0 = flat out)")
    parser.add_argument("--hog", type=int, default=0, help="CPU-bound processes running beside the apps")
    parser.add_argument("--open-sizes", default="1000,2000",
                        help="conversation sizes opened from History, each against 20 ('' to skip)")
    parser.add_argument("--open-runs", type=int, default=3)
    parser.add_argument("--skip-minimal", action="store_true")
    parser.add_argument("--minimal-turn-timeout", type=float, default=600.0,
                        help="seconds a turn of the minimal app may take (its turns grow with the conversation)")
    args = parser.parse_args()
    if not AGENTTUI.exists():
        print(f"not installed: {AGENTTUI}", file=sys.stderr)
        return 1
    at = {int(x) for x in args.at.split(",") if x.strip() and int(x) <= args.turns}
    open_sizes = [int(x) for x in args.open_sizes.split(",") if x.strip()]
    server = TurnServer(args.words, args.wps)
    rng = random.Random(22)
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.hog)]
    try:
        with tempfile.TemporaryDirectory(prefix="agenttui-soak-") as tmp:
            report(args, at, open_sizes, server, rng, Path(tmp))
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
        server.stop()
    return 0


def report(args: argparse.Namespace, at: set[int], open_sizes: list[int], server: TurnServer,
           rng: random.Random, tmp: Path) -> None:
    minimal = tmp / "minimal_app.py"
    minimal.write_text(MINIMAL_APP)
    subjects = [Subject("agenttui", [str(AGENTTUI)], "─ Chat ─", agenttui_log_focused)]
    if not args.skip_minimal:
        subjects.append(Subject("minimal", [sys.executable, str(minimal)], "minimal ready", minimal_log_focused))
    print(f"soak: {args.turns} turns of {args.words}-word Markdown replies at "
          f"{'flat out' if not args.wps else f'{args.wps:.0f} words/s'}, {SIZE[0]}x{SIZE[1]}, "
          f"measured after turns {sorted(at)}; {args.hog} CPU hogs beside", flush=True)
    results = []
    for subject in subjects:
        home = tmp / f"home-{subject.name}"
        timeout = args.minimal_turn_timeout if subject.name == "minimal" else TURN_TIMEOUT
        result = soak(subject, env_for(home, server.fake.base_url), args.turns, at, rng, str(tmp), timeout)
        result.anomalies += crash_logs(home)
        results.append(result)

    opened: dict[int, list[float]] = {}
    open_anomalies: list[str] = []
    if open_sizes:
        sizes = [20, *open_sizes]
        home = tmp / "home-open"
        env = env_for(home, server.fake.base_url)
        built = build_profile(home, sizes, env)
        print(f"opening from History: conversations of {sizes} messages (built in {built:.1f} s), "
              f"{args.open_runs} openings each", flush=True)
        opened, open_anomalies = open_from_history(env, home, sizes, args.open_runs, str(tmp))

    print()
    print(table(results))
    print()
    for result in results:
        print(f"{result.name}:")
        for line in goals(result, args.turns):
            print("  " + line)
    if opened and opened.get(20):
        base = statistics.median(opened[20])
        print("opening from History (Enter to the last message on screen, median):")
        for size, samples in opened.items():
            if samples:
                print(f"  {size:>5} messages: {statistics.median(samples):.3f} s  "
                      f"(runs: {', '.join(f'{s:.3f}' for s in samples)})"
                      + ("" if size == 20 else f"  ratio vs 20 = {statistics.median(samples) / base:.2f} (goal ~1.0)"))
    if server.unmatched:
        print(f"note: {server.unmatched} streamed requests carried no question number (answered 'ok')")
    anomalies = [(r.name, a) for r in results for a in r.anomalies] + [("opening", a) for a in open_anomalies]
    for name, text in anomalies:
        print(f"\nANOMALY ({name}): {text}")


if __name__ == "__main__":
    sys.exit(main())
