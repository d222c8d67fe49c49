"""Redaction on ordinary text in many languages: every change is a false positive (target 0).

The text is the `# text = …` sentences of Universal Dependencies treebanks
(https://universaldependencies.org), read from local git mirrors of the
UniversalDependencies/UD_* repositories (one per language; the commit is
printed). Their licences are CC BY-SA / BY-NC-SA, so the text is not
committed: it is built once into local/ud_text/ (gitignored) from the
mirrors, and nothing is downloaded. Prints per language the sentences, MB,
redactions and MB/s (CPU time), and each redaction with its context.

Run: `.venv/bin/python bench/bench_redaction_languages.py [--mirrors DIR] [--show N]`
(default mirrors: /work/.mirror, each treebank at UniversalDependencies+UD_<Name>/repo)
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from agenttui.security import find_secrets, redact_secrets  # noqa: E402

CACHE = ROOT / "local" / "ud_text"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


def _show(repo: Path, path: str) -> str:
    """A file of the mirror, or "" when the snapshot lists it without its blob (large files)."""
    try:
        return _git(repo, "show", f"HEAD:{path}")
    except subprocess.CalledProcessError:
        return ""


def build(mirrors: Path) -> dict[str, tuple[str, str, str]]:
    """{treebank: (commit, licence first line, text)}; the text is cached in local/ud_text/."""
    CACHE.mkdir(parents=True, exist_ok=True)
    out = {}
    for d in sorted(mirrors.glob("UniversalDependencies+UD_*")):
        repo = d / "repo" if (d / "repo").exists() else d
        name = d.name.split("+", 1)[1]
        commit = _git(repo, "rev-parse", "HEAD").strip()
        cached = CACHE / f"{name}-{commit[:12]}.txt"
        if not cached.exists():
            files = [f for f in _git(repo, "ls-tree", "-r", "--name-only", "HEAD").split() if f.endswith(".conllu")]
            lines = []
            for f in files:
                for line in _show(repo, f).splitlines():
                    if line.startswith("# text = "):
                        lines.append(line[9:])
            cached.write_text("\n".join(lines) + "\n", "utf-8")
        licence = next((ln.strip() for ln in _show(repo, "LICENSE.txt").splitlines() if ln.strip()), "?")
        out[name] = (commit, licence, cached.read_text("utf-8"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--show", type=int, default=20)
    args = ap.parse_args()
    corpora = build(Path(args.mirrors))
    if not corpora:
        sys.exit(f"no UniversalDependencies+UD_* mirrors under {args.mirrors}")
    print(f"{'treebank':22s} {'commit':12s} {'sentences':>9s} {'MB':>6s} {'changes':>8s} {'MB/s':>6s}  licence")
    shown, total_mb, total_changes = args.show, 0.0, 0
    for name, (commit, licence, text) in corpora.items():
        mb = len(text.encode("utf-8")) / 1e6
        t0 = time.process_time()
        out = redact_secrets(text)
        dt = time.process_time() - t0
        found = find_secrets(text) if out != text else []
        total_mb += mb
        total_changes += len(found)
        print(f"{name:22s} {commit[:12]} {text.count(chr(10)):9d} {mb:6.2f} {len(found):8d} {mb / dt:6.1f}  "
              f"{licence[:60]}")
        for m in found[: max(0, shown)]:
            print(f"    {m.kind}: {text[max(0, m.start - 40) : m.end + 10]!r}")
        shown -= len(found)
    print(f"{'all':22s} {'':12s} {'':9s} {total_mb:6.2f} {total_changes:8d}")


if __name__ == "__main__":
    main()
