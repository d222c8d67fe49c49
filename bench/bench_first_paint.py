"""Time to first paint of the installed ``agenttui`` in a pseudo-terminal (README "Performance").

    .venv/bin/python bench/bench_first_paint.py [--runs 7] [--messages 200000]

Each run spawns the command in a pty (120x36, TERM=xterm-256color) and
pumps its output into a pyte screen until the first frame is visible; the
time is from fork to the arrival of the output that completed that frame. Medians over ``--runs``; every figure is a
ratio to a baseline measured in the same run:

* ``first_paint_ratio`` -- agenttui with a real data dir (memory notes,
  project memory, 200 conversations of 10 messages), "painted" = the three
  pane titles are on screen, vs a bare Textual app showing one line of text.
  Goal <= 1.2.
* ``large_profile_ratio`` -- agenttui on a profile holding ``--messages``
  messages vs an empty profile. Goal <= 1.1.

Runs alternate between the compared commands so drift (CPU frequency,
caches) hits both alike.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from tests.e2e.pty_terminal import PtyTerminal  # noqa: E402

AGENTTUI = Path(sys.executable).parent / "agenttui"
BARE_APP = '''
from textual.app import App
from textual.widgets import Static

class Hello(App):
    def compose(self):
        yield Static("hello from a bare textual app")

Hello().run()
'''


def titles_visible(screen: str) -> bool:
    return all(f"─ {title} ─" in screen for title in ("Memory", "Chat", "History"))


def time_to_paint(argv: list[str], env: dict[str, str], predicate, cwd: str) -> float:
    with PtyTerminal(argv, env=env, size=(120, 36), cwd=cwd) as term:
        term.wait_for(predicate, timeout=30)
        # when the bytes completing the frame arrived, not when pyte parsed them:
        # a bigger first frame must not be charged for the emulator's slowness
        elapsed = term.last_read_at - term.started
        term.press("ctrl+q")
        term.wait_exit(5)
    return elapsed


def env_for(home: Path) -> dict[str, str]:
    # PYTHONDONTWRITEBYTECODE is dropped so the warm-up run leaves .pyc files for
    # agenttui as an install has them (Textual's came with the wheel): otherwise
    # every agenttui run would compile its modules from source and the bare app not.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OPENAI_", "AGENTTUI_")) and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(AGENTTUI_HOME=str(home), TERM="xterm-256color", OPENAI_API_KEY="sk-bench",
               OPENAI_BASE_URL="http://127.0.0.1:9/v1",
               PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
    return env


def populate(home: Path, conversations: int, per_conversation: int, notes: int) -> None:
    from agenttui.bootstrap import build_services
    from agenttui.core.config.paths import Paths
    from agenttui.core.models import Message

    services = build_services(paths=Paths.from_env({"AGENTTUI_HOME": str(home)}), cwd=home, environ={})
    for i in range(notes):
        services.memory.add_note(f"preference number {i}: keep answers about topic {i} short", "user")
    services.project.write_context("# Context\n\nWorking on the benchmark.\n")
    for c in range(conversations):
        conversation = services.history.create_conversation(f"conversation {c}")
        batch = [Message(role="user" if m % 2 == 0 else "assistant",
                         content=f"message {m} of conversation {c} about sqlite, textual and memory")
                 for m in range(per_conversation)]
        for start in range(0, len(batch), 10_000):
            services.history.append_many(conversation.id, batch[start:start + 10_000])
    services.close()


def compare(label_a: str, run_a, label_b: str, run_b, runs: int) -> tuple[float, float]:
    a_times, b_times = [], []
    run_a(), run_b()  # warm the page cache and .pyc files; not counted
    for _ in range(runs):
        a_times.append(run_a())
        b_times.append(run_b())
    a, b = statistics.median(a_times), statistics.median(b_times)
    print(f"  {label_a}: median {a * 1000:.0f} ms   {label_b}: median {b * 1000:.0f} ms   ratio {a / b:.2f}")
    return a, b


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--messages", type=int, default=200_000)
    args = parser.parse_args()
    if not AGENTTUI.exists():
        print(f"not installed: {AGENTTUI}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="agenttui-bench-") as tmp:
        tmp_path = Path(tmp)
        bare = tmp_path / "bare_app.py"
        bare.write_text(BARE_APP)
        real, big, empty = tmp_path / "real", tmp_path / "big", tmp_path / "empty"
        print("building data dirs ...", flush=True)
        populate(real, conversations=200, per_conversation=10, notes=40)
        populate(big, conversations=1, per_conversation=args.messages, notes=0)
        populate(empty, conversations=0, per_conversation=0, notes=0)
        cwd = str(tmp_path)

        print(f"first paint, real data dir vs bare Textual app ({args.runs} runs):")
        a, b = compare(
            "agenttui", lambda: time_to_paint([str(AGENTTUI)], env_for(real), titles_visible, cwd),
            "bare app", lambda: time_to_paint([sys.executable, str(bare)], env_for(real),
                                              "hello from a bare textual app", cwd),
            args.runs)
        print(f"first_paint_ratio = {a / b:.2f}   (goal <= 1.2)")

        print(f"first paint, {args.messages:,} messages vs empty profile ({args.runs} runs):")
        c, d = compare(
            "large profile", lambda: time_to_paint([str(AGENTTUI)], env_for(big), titles_visible, cwd),
            "empty profile", lambda: time_to_paint([str(AGENTTUI)], env_for(empty), titles_visible, cwd),
            args.runs)
        print(f"large_profile_ratio = {c / d:.2f}   (goal <= 1.1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
