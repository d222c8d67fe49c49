"""Key echo after a 1 MB paste, in the prompt and in the History search box.

    .venv/bin/python bench/bench_paste_echo.py [--runs 2] [--size 1000000] [--keys 12]

The installed ``agenttui`` runs in a pseudo-terminal (120x36, ``timed_pty``)
against the loopback fake OpenAI server; a minimal Textual app (a ``TextArea``
and an ``Input``, nothing else) is measured the same way in the same run, as
the baseline for what Textual itself costs with a megabyte in a widget.

Per run and target: focus the box, paste (bracketed paste, as a terminal
sends it) "what does this blob mean: <base64 on one line> thanks" of
``--size`` characters, wait until the screen shows the paste's end (up to
``--paste-timeout``; longer counts as frozen), let ``--settle`` seconds pass
(the draft's recall is worked out after a pause in typing), then type
``--keys`` keys one at a time, each 50-150 ms after
the previous one's echo. A key's echo is the arrival of the output after
which the box shows the text typed so far (a thread stamps output on
arrival, so the bench's own parsing is not charged). The paste into the
prompt ends with a newline and ">>pasted:" (a copied line and a label), so
what is typed after it is on a screen row of its own; the search box is one line, and shows the end of
its text. With ``[recall]`` on (the default), the draft's preparation runs on
every pause in typing, as for a user. agenttui shows a long paste in the
prompt as one line (``[pasted text #1: N characters]``) and keeps the first
``SEARCH_PASTE_MAX`` characters of one in the search box, so its anchors are
those; the minimal app shows the paste itself.

Printed: the time from the paste to its end on screen, and the median and p95
key echo per app and target. Goal: agenttui <= 100 ms median.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_streaming import Server, env_for  # noqa: E402
from timed_pty import ROOT, TimedPty, percentile  # noqa: E402

sys.path.insert(0, str(ROOT / "src"))

AGENTTUI = Path(sys.executable).parent / "agenttui"
TYPED = "zqxjvkzqxjvkzqxjvk"  # letters the paste never has in this order
BASE64 = "QUJDRGVmZ2hpams0NTY3OA+/x9Zr"
PASTE_END = "thanks"
PROMPT_TAIL = "\n>>pasted:"  # the prompt's paste ends on a row of its own, where the typing goes
MINIMAL_APP = '''
from textual.app import App
from textual.binding import Binding
from textual.widgets import Input, Static, TextArea

class Minimal(App):
    BINDINGS = [Binding("f3", "search", "search", priority=True),
                Binding("f4", "prompt", "prompt", priority=True)]
    CSS = "TextArea { height: 6; }"

    def compose(self):
        yield Static("minimal ready")
        yield Input(placeholder="search history…")
        yield TextArea(placeholder="Message…")

    def on_mount(self):
        self.query_one(TextArea).focus()

    def action_search(self):
        self.query_one(Input).focus()

    def action_prompt(self):
        self.query_one(TextArea).focus()

Minimal().run()
'''


def blob(size: int) -> str:
    head, tail = "what does this blob mean: ", f" {PASTE_END}"
    body = (BASE64 * (size // len(BASE64) + 1))[:max(size - len(head) - len(tail), 0)]
    return head + body + tail


def paste(term: TimedPty, text: str) -> None:
    """Write a bracketed paste in pieces (a pty takes a few kB at a time; the reader thread drains output)."""
    data = ("\x1b[200~" + text + "\x1b[201~").encode()
    view = memoryview(data)
    while view:
        written = os.write(term.fd, view[:65536])
        view = view[written:]


def one_target(term: TimedPty, target: str, ours: bool, args: argparse.Namespace,
               rng: random.Random) -> tuple[float | None, list[float]]:
    """Paste into the prompt or the search box, then type: (seconds to settle, echo times)."""
    if target == "search":
        term.send("\x1bOR")  # f3: the History pane (the minimal app: its Input)
        term.idle(0.3)
        if ours:
            term.send("/")  # into the search box
            term.idle(0.3)
        text, anchor = blob(args.size), PASTE_END
        if ours:  # the box keeps the paste's first 200 characters and shows their start until a key
            anchor = "what does this"
    else:
        text, anchor = blob(args.size) + PROMPT_TAIL, PROMPT_TAIL.strip()
        if ours:  # a long paste shows as one line: "[pasted text #1: 1,000,013 characters]"
            anchor = "characters]"
    sent = time.perf_counter()
    paste(term, text)
    if target == "search":
        term.send("\x1b[F")  # End: Textual's Input may keep showing the paste's start
    arrived = term.arrival_of(lambda s: anchor in s, timeout=args.paste_timeout)
    if arrived is None:
        return None, []
    settle = arrived - sent  # writing the paste included: the app reads it as it comes
    term.idle(args.settle)  # the draft's preparation starts after a pause in typing: let it
    echoes: list[float] = []
    typed = ""
    for char in TYPED[:args.keys]:
        typed += char
        # agenttui's search box shows some part of the paste's start, then what is typed
        expected = typed if ours and target == "search" else anchor + typed
        sent = time.perf_counter()
        term.send(char)
        arrived = term.arrival_of(lambda s, e=expected: e in s, timeout=args.paste_timeout)
        if arrived is None:
            echoes.append(float("inf"))
            break
        echoes.append(max(0.0, arrived - sent))
        term.idle(rng.uniform(0.05, 0.15))
    return settle, echoes


def one_run(argv: list[str], env: dict[str, str], ready: str, ours: bool, target: str,
            args: argparse.Namespace, rng: random.Random, cwd: str) -> tuple[float | None, list[float]]:
    with TimedPty(argv, env=env, size=(120, 36), cwd=cwd) as term:
        term.wait_for(ready, timeout=30)
        if ours:  # the real panes, not the first frame's slots (f3 there hides the History slot)
            term.wait_for("search history", timeout=30)
        term.settle(0.5)
        result = one_target(term, target, ours, args, rng)
        term.press("ctrl+q")
        if term.wait_exit(10) is None:
            term.close()
    return result


def fmt(values: list[float], fraction: float | None = None) -> str:
    if not values:
        return "frozen"
    value = statistics.median(values) if fraction is None else percentile(values, fraction)
    return "frozen" if value == float("inf") else f"{value * 1000:.0f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--size", type=int, default=1_000_000, help="characters pasted")
    parser.add_argument("--keys", type=int, default=12, help=f"keys typed after the paste (at most {len(TYPED)})")
    parser.add_argument("--settle", type=float, default=1.0, help="seconds between the paste shown and the first key")
    parser.add_argument("--paste-timeout", type=float, default=120.0)
    args = parser.parse_args()
    if not AGENTTUI.exists():
        print(f"not installed: {AGENTTUI}", file=sys.stderr)
        return 1
    server = Server("ok")
    rng = random.Random(22)
    settles: dict[tuple[str, str], list[float]] = {}
    echoes: dict[tuple[str, str], list[float]] = {}
    print(f"key echo after a {args.size:,}-character paste ({args.runs} runs, {args.keys} keys each)", flush=True)
    with tempfile.TemporaryDirectory(prefix="agenttui-bench-") as tmp:
        tmp_path = Path(tmp)
        minimal = tmp_path / "minimal_app.py"
        minimal.write_text(MINIMAL_APP)
        apps = {"agenttui": ([str(AGENTTUI)], "─ Chat ─", True),
                "minimal": ([sys.executable, str(minimal)], "minimal ready", False)}
        for run in range(args.runs):
            for target in ("prompt", "search"):
                for name, (argv, ready, ours) in apps.items():
                    home = tmp_path / f"home-{name}-{target}-{run}"
                    settle, times = one_run(argv, env_for(home, server.fake.base_url), ready, ours, target,
                                            args, rng, str(tmp_path))
                    settles.setdefault((name, target), []).append(float("inf") if settle is None else settle)
                    echoes.setdefault((name, target), []).extend(times)
                    print(f"  run {run + 1} {name:8} {target:6} shown in "
                          f"{'frozen' if settle is None else f'{settle:.1f} s'}, echo median {fmt(times)}",
                          flush=True)
    server.fake.stop()
    print()
    print(f"{'app':10} {'box':8} {'paste shown':>14} {'echo median':>12} {'echo p95':>10} {'keys':>5}")
    for (name, target), times in echoes.items():
        settle = statistics.median(settles[(name, target)])
        print(f"{name:10} {target:8} {'frozen' if settle == float('inf') else f'{settle:.1f} s':>14} "
              f"{fmt(times):>12} {fmt(times, 0.95):>10} {len(times):>5}")
    ours = [t for (name, _), times in echoes.items() if name == "agenttui" for t in times]
    print(f"agenttui echo median {fmt(ours)} (goal <= 100 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
