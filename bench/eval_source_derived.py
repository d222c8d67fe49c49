"""Recall on secrets written from public scanners' rule sources, per source and family.

The examples (tests/unit/security/data/source_derived_examples.json, made by
scripts/make_source_derived_examples.py) follow detect-secrets' plugins and
secretlint's rules; each has the secret that must go. An example counts as
found when `find_secrets` spans cover every character of that secret (no part
of it left in the redacted text). Also printed: the ordinary negatives that
were (wrongly) redacted, and, when detect-secrets is importable (not a
dependency: e.g. `pip install --target DIR detect-secrets` and PYTHONPATH=DIR),
its own result on the same examples as its CLI scans a file (default plugins
and filters; found = it reports anything in the file).

Run: `.venv/bin/python bench/eval_source_derived.py [--show N]`
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from eval_redaction import detect_secrets_finds  # noqa: E402  (bench/ is on the path: a sibling script)

from agenttui.security import find_secrets  # noqa: E402

DATA = ROOT / "tests/unit/security/data/source_derived_examples.json"


def covered(text: str, secret: str) -> bool:
    """Every occurrence of `secret` in `text` lies inside the redacted spans."""
    spans = [(m.start, m.end) for m in find_secrets(text)]
    at = text.find(secret)
    while at >= 0:
        end = at + len(secret)
        pos = at
        for s, e in spans:
            if s <= pos < e:
                pos = e
        if pos < end:
            return False
        at = text.find(secret, at + 1)
    return True


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--show", type=int, default=40, help="misses to print")
    args = parser.parse_args()
    data = json.loads(DATA.read_text())
    ds = detect_secrets_finds()
    per: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    misses = []
    for ex in data["examples"]:
        ok = covered(ex["text"], ex["secret"])
        row = per[(ex["source"], ex["family"])]
        row[0] += ok
        row[1] += 1
        if ds is not None:
            row[2] += ds(ex["text"])
        if not ok:
            misses.append(ex)
    for source in sorted({s for s, _ in per}):
        rows = {f: v for (s, f), v in per.items() if s == source}
        found, total, ds_found = (sum(v[i] for v in rows.values()) for i in range(3))
        extra = f"   detect-secrets {ds_found}/{total} = {ds_found / total:.3f}" if ds is not None else ""
        print(f"{source}: recall {found}/{total} = {found / total:.3f}{extra}")
        for family, (f, t, d) in sorted(rows.items()):
            extra = f"   detect-secrets {d}/{t}" if ds is not None else ""
            print(f"  {family:28} {f:3}/{t:<3}{extra}")
    flagged = [n for n in data["negatives"] if find_secrets(n)]
    print(f"negatives redacted: {len(flagged)}/{len(data['negatives'])}")
    for n in flagged:
        print(f"    {n!r}")
    for ex in misses[: args.show]:
        print(f"  missed {ex['source']} {ex['rule']}: {ex['text'][:110]!r}")


if __name__ == "__main__":
    main()
