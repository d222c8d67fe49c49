"""read_file on one huge line: peak memory and time.

A sparse file holds a single line of --mb MiB (16 KiB of text, then a hole:
no disk used). Each run is a fresh subprocess so its peak RSS (ru_maxrss) is
its own. Two readers, measured in the same run:

* baseline -- what read_file did before: iterate the file by lines, so the
  first line is read whole (``for raw in handle``), then keep the budget;
* read_file -- the tool as it is now (byte-bounded).

Run: ``.venv/bin/python bench/bench_read_file_memory.py [--mb 300] [--runs 3]``
Prints the median peak RSS and time of each and the ratios baseline/read_file.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, resource, sys, time, types
from pathlib import Path
which, path, budget = sys.argv[1], Path(sys.argv[2]), 20_000
import agenttui.agent.tools.files as tool_files
import agenttui.security  # loaded before measuring, for both readers
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
if which == "baseline":
    with path.open("rb") as handle:
        for raw in handle:
            text = raw.decode("utf-8", errors="replace")[:budget]
            break
else:
    settings = types.SimpleNamespace(redaction=types.SimpleNamespace(extra_patterns=[]))
    services = types.SimpleNamespace(profile=types.SimpleNamespace(paths=[str(path.parent)]))
    context = types.SimpleNamespace(services=services, settings=settings, max_output=budget)
    text = tool_files.read_file(context, {"path": path.name, "offset": 1, "max_lines": 400}).output
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "peak_mb": peak / 1024, "added_mb": (peak - base) / 1024,
                  "chars": len(text)}))
"""


def sparse_line(path: Path, size: int) -> None:
    with path.open("wb") as handle:
        handle.write(b"a" * 16_384)
        handle.truncate(size - 1)
        handle.seek(size - 1)
        handle.write(b"\n")


def measure(which: str, path: Path) -> dict:
    proc = subprocess.run([sys.executable, "-c", CHILD, which, str(path)], capture_output=True,
                          text=True, cwd=ROOT, check=True)
    return json.loads(proc.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "one-line.txt"
        sparse_line(path, args.mb * 1024 * 1024)
        results = {which: [measure(which, path) for _ in range(args.runs)]
                   for which in ("baseline", "read_file")}
    medians = {which: {key: statistics.median(r[key] for r in runs) for key in ("seconds", "added_mb")}
               for which, runs in results.items()}
    for which, m in medians.items():
        print(f"{which:>9}: +{m['added_mb']:.1f} MB peak RSS, {m['seconds'] * 1000:.0f} ms "
              f"(median of {args.runs}, {args.mb} MiB single line)")
    base, new = medians["baseline"], medians["read_file"]
    print(f"ratio baseline/read_file: memory {base['added_mb'] / max(new['added_mb'], 0.1):.0f}x, "
          f"time {base['seconds'] / max(new['seconds'], 1e-6):.0f}x")


if __name__ == "__main__":
    main()
