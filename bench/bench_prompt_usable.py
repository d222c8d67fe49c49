"""Start-up judged when the prompt is usable, not on the first frame.

    .venv/bin/python bench/bench_prompt_usable.py [--runs 7] [--hog]

Each run spawns the command in a pseudo-terminal (120x36) and watches a pyte
screen; output is read by a thread and stamped on arrival (``timed_pty``).
Three moments, from fork:

* ``skeleton`` -- the three pane titles are on screen (agenttui only; what
  ``bench_first_paint`` times);
* ``placeholder`` -- the prompt's placeholder is on screen;
* ``usable`` -- two keys written the moment the placeholder showed are on the
  prompt's row: the prompt is there *and* takes keys.

Compared with a bare Textual app measured in the same run, alternating: one
``TextArea`` with the same placeholder, focused on mount, timed by the same
predicates. ``usable_ratio`` = agenttui's median ``usable`` over the bare
app's. Goal <= 1.2. agenttui runs on a real data dir (40 notes, project
memory, 200 conversations of 10 messages), as in ``bench_first_paint``.

Also printed: the CPU time each process had used when its keys showed
(``/proc``, 10 ms ticks), which a busy machine disturbs less than wall time.
``--hog`` runs a CPU-bound process beside both apps for the whole run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_first_paint import AGENTTUI, env_for, populate, titles_visible  # noqa: E402
from timed_pty import TimedPty  # noqa: E402

PLACEHOLDER = "Message… (Enter sends, /help)"
PROBE = "zq"
BARE_PROMPT_APP = '''
from textual.app import App
from textual.widgets import TextArea

class Bare(App):
    def compose(self):
        yield TextArea(placeholder="Message… (Enter sends, /help)")

    def on_mount(self):
        self.query_one(TextArea).focus()

Bare().run()
'''


def placeholder_at(screen: str) -> tuple[int, int] | None:
    for row, line in enumerate(screen.split("\n")):
        column = line.find(PLACEHOLDER)
        if column >= 0:
            return row, column
    return None


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a running process (Linux /proc; nan elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_run(argv: list[str], env: dict[str, str], cwd: str, skeleton: bool) -> tuple[float, ...]:
    """Seconds from fork to (skeleton, placeholder, usable), and CPU seconds used by then;
    skeleton is nan when not asked."""
    with TimedPty(argv, env=env, size=(120, 36), cwd=cwd) as term:
        started = term.started
        skeleton_at = float("nan")
        if skeleton:
            arrived = term.arrival_of(titles_visible, timeout=30)
            if arrived is None:
                raise RuntimeError("no pane titles\n" + term.text())
            skeleton_at = arrived - started
        placeholder_arrived = term.arrival_of(lambda s: placeholder_at(s) is not None, timeout=30)
        if placeholder_arrived is None:
            raise RuntimeError("no placeholder\n" + term.text())
        row, column = placeholder_at(term.text())  # type: ignore[misc]
        term.send(PROBE)  # now: a user who starts typing the moment they see the prompt

        def probe_shown(screen: str) -> bool:
            return PROBE in screen.split("\n")[row][column:column + 40]

        usable_arrived = term.arrival_of(probe_shown, timeout=30)
        if usable_arrived is None:
            raise RuntimeError("typed keys never shown\n" + term.text())
        cpu = cpu_seconds(term.pid)
        term.press("ctrl+q")
        if term.wait_exit(5) is None:
            term.close()
    return skeleton_at, placeholder_arrived - started, usable_arrived - started, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--hog", action="store_true", help="a CPU-bound process runs beside the apps")
    args = parser.parse_args()
    if not AGENTTUI.exists():
        print(f"not installed: {AGENTTUI}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="agenttui-bench-") as tmp:
        tmp_path = Path(tmp)
        bare = tmp_path / "bare_prompt_app.py"
        bare.write_text(BARE_PROMPT_APP)
        real = tmp_path / "real"
        print("building the data dir ...", flush=True)
        populate(real, conversations=200, per_conversation=10, notes=40)
        cwd = str(tmp_path)
        ours = lambda: one_run([str(AGENTTUI)], env_for(real), cwd, skeleton=True)  # noqa: E731
        theirs = lambda: one_run([sys.executable, str(bare)], env_for(real), cwd, skeleton=False)  # noqa: E731
        hog = subprocess.Popen([sys.executable, "-c", "while 1: pass"]) if args.hog else None
        try:
            ours(), theirs()  # warm the page cache and .pyc files; not counted
            a: list[tuple[float, ...]] = []
            b: list[tuple[float, ...]] = []
            print(f"prompt usable, real data dir vs a bare Textual prompt app ({args.runs} runs"
                  f"{', CPU hog beside' if hog else ''}):", flush=True)
            for _ in range(args.runs):
                a.append(ours())
                b.append(theirs())
                time.sleep(0.2)
        finally:
            if hog is not None:
                hog.kill()
                hog.wait()

        def ms(values: list[tuple[float, ...]], index: int) -> float:
            return statistics.median(v[index] for v in values) * 1000

        print(f"  agenttui: skeleton {ms(a, 0):.0f} ms   placeholder {ms(a, 1):.0f} ms   usable {ms(a, 2):.0f} ms")
        print(f"  bare app:                  placeholder {ms(b, 1):.0f} ms   usable {ms(b, 2):.0f} ms")
        print(f"  CPU used by then: agenttui {ms(a, 3):.0f} ms   bare app {ms(b, 3):.0f} ms")
        print(f"usable_ratio = {ms(a, 2) / ms(b, 2):.2f}   (goal <= 1.2)   "
              f"placeholder_ratio = {ms(a, 1) / ms(b, 1):.2f}   cpu_ratio = {ms(a, 3) / ms(b, 3):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
