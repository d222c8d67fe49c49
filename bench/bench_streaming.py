"""Streaming a long reply into the installed ``agenttui`` (README "Performance").

    .venv/bin/python bench/bench_streaming.py [--runs 5] [--words 2000]

The loopback fake OpenAI server runs in this process; each run spawns the
command in a pty (120x36) watched through a pyte screen, sends one message
and waits for the reply's last word (a unique marker) on screen.

* ``flat_out_ratio`` -- the reply sent as fast as the server can: time from
  Enter to the last word on screen, agenttui vs a minimal Textual app that
  streams the same reply (same openai client) into one Markdown widget with
  ``Markdown.get_stream``. Goal <= 1.0.
* paced at 200 words/s -- ``lag``: last word on screen minus the moment the
  server wrote its last chunk (goal <= 0.3 s); and CPU seconds of the child
  process over the whole run (``resource.getrusage(RUSAGE_CHILDREN)``),
  agenttui vs the minimal app (goal: no more); and CPU seconds of the app
  during the stream only, from Enter to the last word on screen (utime +
  stime of the process in ``/proc``), once the app is idle before Enter, so
  start-up (the app's imports, its first-turn preparation) is not charged to
  streaming. Goal: ``stream_cpu_ratio`` <= 0.5.

Medians over ``--runs``; the compared commands alternate run by run.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from tests.e2e.pty_terminal import PtyTerminal  # noqa: E402
from tests.fakes import openai_server  # noqa: E402

AGENTTUI = Path(sys.executable).parent / "agenttui"
MARKER = "LASTWORDMARKER"
MINIMAL_APP = '''
import os
from openai import AsyncOpenAI
from textual import work
from textual.app import App
from textual.containers import VerticalScroll
from textual.widgets import Markdown, Static

class Minimal(App):
    BINDINGS = [("enter", "go", "go")]

    def compose(self):
        yield Static("minimal ready")
        with VerticalScroll():
            yield Markdown()

    def action_go(self):
        self.stream()

    @work
    async def stream(self):
        scroll = self.query_one(VerticalScroll)
        scroll.anchor()
        stream = Markdown.get_stream(self.query_one(Markdown))
        client = AsyncOpenAI(base_url=os.environ["OPENAI_BASE_URL"], api_key="sk-bench")
        response = await client.chat.completions.create(
            model="gpt-4o-mini", stream=True, messages=[{"role": "user", "content": "go"}])
        async for chunk in response:
            if chunk.choices and chunk.choices[0].delta.content:
                await stream.write(chunk.choices[0].delta.content)
        await stream.stop()

Minimal().run()
'''


class Server:
    """The in-process fake server, noting when it wrote the last chunk of each reply."""

    def __init__(self, text: str) -> None:
        self.fake = openai_server.FakeOpenAI(default_reply=text)
        self.finished: list[float] = []
        original = openai_server._Handler._stream
        server = self

        def stream_and_note(handler, item, body):
            original(handler, item, body)
            server.finished.append(time.perf_counter())

        openai_server._Handler._stream = stream_and_note
        self.fake.start()

    def pace(self, words_per_second: float) -> None:
        self.fake.default.words_per_second = words_per_second


def env_for(home: Path, base_url: str) -> dict[str, str]:
    # Without PYTHONDONTWRITEBYTECODE the children keep .pyc files as an install
    # has them (Textual's and openai's came with their wheels; ours would else be
    # compiled from source on every run and counted as CPU).
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OPENAI_", "AGENTTUI_")) and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(AGENTTUI_HOME=str(home), TERM="xterm-256color", OPENAI_API_KEY="sk-bench",
               OPENAI_BASE_URL=base_url, PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
    return env


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system, all threads) the running process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_until_idle(term: PtyTerminal, quiet_cpu: float = 0.03, window: float = 0.3,
                    timeout: float = 10.0) -> None:
    """Until the app uses under ``quiet_cpu`` seconds of CPU in ``window``: start-up work that
    runs after the first frames (agenttui prepares the first turn then) is start-up's, not
    the stream's, for both apps alike."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        before = process_cpu(term.pid)
        term.settle(window, timeout=window)
        if process_cpu(term.pid) - before < quiet_cpu:
            return


def one_run(argv, env, ready, server: Server, cwd: str) -> tuple[float, float, float, float]:
    """(seconds from Enter to the marker on screen, lag after the server finished, child CPU,
    CPU of the app from Enter to the marker)."""
    cpu_before = child_cpu()
    with PtyTerminal(argv, env=env, size=(120, 36), cwd=cwd) as term:
        term.wait_for(ready, timeout=30)
        term.settle(0.5)
        if not isinstance(ready, str):  # agenttui: its prompt takes the message
            term.type("go")
        wait_until_idle(term)
        stream_cpu = process_cpu(term.pid)
        sent = time.perf_counter()
        term.press("enter")
        term.wait_for(MARKER, timeout=120)
        shown = time.perf_counter()
        stream_cpu = process_cpu(term.pid) - stream_cpu
        term.press("ctrl+q")
        if term.wait_exit(10) is None:
            term.close()
    lag = shown - server.finished[-1] if server.finished else float("nan")
    return shown - sent, lag, child_cpu() - cpu_before, stream_cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--words", type=int, default=2000)
    parser.add_argument("--wps", type=float, default=200.0)
    parser.add_argument("--paced-only", action="store_true", help="skip the flat-out comparison")
    parser.add_argument("--command", nargs="+", default=[str(AGENTTUI)], metavar="ARG",
                        help="the agenttui command to measure (default: the installed one)")
    args = parser.parse_args()
    text = openai_server.long_text(args.words - 1).rstrip() + f" {MARKER}\n"
    server = Server(text)
    with tempfile.TemporaryDirectory(prefix="agenttui-bench-") as tmp:
        tmp_path = Path(tmp)
        minimal = tmp_path / "minimal_app.py"
        minimal.write_text(MINIMAL_APP)
        ours = (args.command, lambda s: "─ Chat ─" in s)
        theirs = ([sys.executable, str(minimal)], "minimal ready")

        def measure(label: str, wps: float) -> dict[str, list[tuple[float, float, float, float]]]:
            server.pace(wps)
            results: dict[str, list] = {"agenttui": [], "minimal": []}
            for run in range(args.runs):
                for name, (argv, ready) in (("agenttui", ours), ("minimal", theirs)):
                    home = tmp_path / f"home-{label}-{name}-{run}"
                    results[name].append(one_run(argv, env_for(home, server.fake.base_url), ready,
                                                 server, str(tmp_path)))
            return results

        if not args.paced_only:
            print(f"flat out: {args.words} words as fast as the loopback server sends ({args.runs} runs)")
            flat = measure("flat", 0.0)
            a = statistics.median(r[0] for r in flat["agenttui"])
            b = statistics.median(r[0] for r in flat["minimal"])
            print(f"  agenttui {a:.3f} s   minimal app {b:.3f} s")
            print(f"flat_out_ratio = {a / b:.2f}   (goal <= 1.0)")

        print(f"paced: {args.wps:.0f} words/s ({args.runs} runs)")
        paced = measure("paced", args.wps)
        lag_a = statistics.median(r[1] for r in paced["agenttui"])
        lag_b = statistics.median(r[1] for r in paced["minimal"])
        cpu_a = statistics.median(r[2] for r in paced["agenttui"])
        cpu_b = statistics.median(r[2] for r in paced["minimal"])
        print(f"  lag after the server finished: agenttui {lag_a:.3f} s (goal <= 0.3)   minimal {lag_b:.3f} s")
        print(f"  child CPU per run: agenttui {cpu_a:.2f} s   minimal {cpu_b:.2f} s   ratio {cpu_a / cpu_b:.2f}"
              "   (goal <= 1.0)")
        stream_a = statistics.median(r[3] for r in paced["agenttui"])
        stream_b = statistics.median(r[3] for r in paced["minimal"])
        print(f"  CPU during the stream (Enter -> last word): agenttui {stream_a:.2f} s   minimal {stream_b:.2f} s")
        print(f"stream_cpu_ratio = {stream_a / stream_b:.2f}   (goal <= 0.5)")
    server.fake.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
