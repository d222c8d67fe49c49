"""``agenttui usage`` over a large history (README "Usage and cost").

    .venv/bin/python bench/bench_usage.py [--messages 200000] [--runs 21]

Builds a profile of ``--messages`` assistant replies, every one with a usage row
(the worst case: in real use about half the messages are replies), over 2,000
conversations, a year of days and 12 models, exactly as schema v9 stores them.
Then, medians of ``--runs`` calls each (the store opened and warm, as the command
has it after its first query):

* ``totals_<by>_median_ms`` for the grand total and ``--by day|model|conversation``,
  and ``--since`` 30 days -- ``HistoryStore.usage_totals``, what the command runs;
* ``baseline_sum_median_ms``: a plain ``SELECT SUM(...) FROM message_usage`` on the
  same connection, in the same run, and each figure's ratio to it;
* ``cli_median_ms``: the whole command (``python -m agenttui usage --by model --json``,
  a new process each time) next to ``python -c pass`` as its baseline.

Goal: every ``totals_*`` median <= 100 ms at 200,000 messages.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from agenttui.core.history.rows import to_ts  # noqa: E402
from agenttui.core.history.schema import LINK_AS_ONE_BRANCH  # noqa: E402
from agenttui.core.history.store import HistoryStore  # noqa: E402

MODELS = ["gpt-4o-mini", "gpt-4o", "gpt-4.1", "o3-mini", "claude-sonnet-4", "deepseek-chat",
          "gemini-2.5-flash", "llama3.2", "qwen2.5:7b", "mistral-large", "openai/gpt-5", "local-model"]
CONVERSATIONS = 2_000


def build(db_path: Path, messages: int, seed: int = 11) -> None:
    store = HistoryStore(db_path)
    ids = [store.create_conversation(f"conversation {n}").id for n in range(CONVERSATIONS)]
    store.close()
    rng = random.Random(seed)
    start = datetime.now(UTC) - timedelta(days=365)
    step = timedelta(days=365) / messages
    conn = sqlite3.connect(str(db_path), isolation_level=None)
    conn.execute("BEGIN")
    rows, usage = [], []
    for n in range(messages):
        cid = ids[rng.randrange(CONVERSATIONS)]
        created = to_ts(start + step * n)
        rows.append((n + 1, cid, "assistant", f"reply {n}", created))
        prompt = rng.randint(200, 20_000)
        cost = None if rng.random() < 0.2 else prompt * 1e-7
        usage.append((n + 1, cid, created, rng.choice(MODELS), prompt, rng.randint(10, 2_000),
                      rng.randint(0, prompt // 2), rng.randint(0, 500), int(rng.random() < 0.05), cost,
                      "" if cost is None else "openai/gpt-4o-mini"))  # "": looked up, unknown
    conn.executemany("INSERT INTO messages (id, conversation_id, role, content, created) "
                     "VALUES (?, ?, ?, ?, ?)", rows)
    conn.executemany("INSERT INTO message_usage (message_id, conversation_id, created, model, prompt_tokens, "
                     "completion_tokens, cached_tokens, reasoning_tokens, estimated, cost, priced_as) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", usage)
    for statement in LINK_AS_ONE_BRANCH:
        conn.execute(statement)
    conn.execute("UPDATE conversations SET message_count = "
                 "(SELECT COUNT(*) FROM messages WHERE conversation_id = conversations.id)")
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.close()


def median_ms(call, runs: int) -> float:
    call()  # warm: the first query reads the pages into the cache
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--cli-runs", type=int, default=5)
    args = parser.parse_args()
    results: dict[str, float | int] = {"messages": args.messages}
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        env = {**os.environ, "AGENTTUI_HOME": str(home), "PYTHONPATH": str(ROOT / "src")}
        db_path = Path(subprocess.run(
            [sys.executable, "-c", "from agenttui.core.config.paths import Paths; "
             "print(Paths.from_env().history_db('default'))"],
            env=env, capture_output=True, text=True, check=True).stdout.strip())
        db_path.parent.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        build(db_path, args.messages)
        results["build_s"] = round(time.perf_counter() - started, 1)
        store = HistoryStore(db_path)
        raw = sqlite3.connect(str(db_path))
        baseline = median_ms(lambda: raw.execute(
            "SELECT SUM(prompt_tokens), SUM(completion_tokens), SUM(cost) FROM message_usage").fetchall(),
            args.runs)
        results["baseline_sum_median_ms"] = round(baseline, 2)
        since = to_ts(datetime.now(UTC) - timedelta(days=30))
        for name, kwargs in (("total", {}), ("day", {"by": "day"}), ("model", {"by": "model"}),
                             ("conversation", {"by": "conversation"}), ("since_30d", {"since": since})):
            figure = median_ms(lambda kwargs=kwargs: store.usage_totals(**kwargs), args.runs)
            results[f"totals_{name}_median_ms"] = round(figure, 2)
            results[f"totals_{name}_ratio_to_sum"] = round(figure / baseline, 2)
        store.close()
        raw.close()

        def cli() -> None:
            subprocess.run([sys.executable, "-m", "agenttui", "usage", "--by", "model", "--json"],
                           env=env, capture_output=True, check=True)

        results["cli_median_ms"] = round(median_ms(cli, args.cli_runs), 1)
        results["python_start_median_ms"] = round(median_ms(
            lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), args.cli_runs), 1)
    worst = max(v for k, v in results.items() if k.startswith("totals_") and k.endswith("_median_ms"))
    results["goal_met"] = int(worst <= 100)
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
