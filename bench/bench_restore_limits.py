"""How fast a hostile archive is refused, against reading it whole.

    .venv/bin/python bench/bench_restore_limits.py [--repeat 5] [--bomb-gb 3] [--files 100000]

Archives are built in a temporary directory the way the tests build them
(tests/unit/config/test_restore_limits.py): a gzip of concatenated members
whose tar member expands to ``--bomb-gb`` GB of zeros, and ``--files`` one-byte
files. For each, the median over ``--repeat`` runs of:

* ``refuse``: ``check_archive`` (what ``restore`` runs before writing anything);
* ``baseline``: listing every member with ``tarfile.getmembers()``, which is
  what the old validation did before it could say anything (for the bomb this
  decompresses all of it; the old restore then also wrote it out).

Prints the medians in ms and ``baseline / refuse``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from agenttui.core.backup.archive import BackupError, check_archive  # noqa: E402
from tests.unit.config.test_restore_limits import MB, bomb, many_files  # noqa: E402


def _median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _refuse(archive: Path) -> None:
    try:
        check_archive(archive)
    except BackupError:
        return
    raise AssertionError(f"{archive} was not refused")


def _list_all(archive: Path) -> None:
    with tarfile.open(archive, "r:*") as tar:
        tar.getmembers()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--bomb-gb", type=int, default=3)
    parser.add_argument("--files", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        archives = {
            f"bomb_{args.bomb_gb}gb": bomb(Path(tmp) / "bomb.tar.gz", "data/profiles/w/history.sqlite3",
                                           args.bomb_gb * 1024 * MB),
            f"files_{args.files}": many_files(Path(tmp) / "many.tar.gz", args.files),
        }
        for name, archive in archives.items():
            refuse = _median_ms(lambda a=archive: _refuse(a), args.repeat)
            baseline = _median_ms(lambda a=archive: _list_all(a), max(1, args.repeat // 2))
            size = archive.stat().st_size / MB
            print(f"{name}: archive {size:.1f} MiB  refuse {refuse:.1f} ms  baseline {baseline:.1f} ms  "
                  f"ratio {baseline / refuse:.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
