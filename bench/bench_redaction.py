"""Redaction throughput (goal: tens of MB/s, docs/security.md#secret-redaction) against baselines.

Prints MB/s of `redact_secrets` on prose, code, logs and chat (~2 MB each,
no or few secrets, which is the common case on the save path; chat has
emoji, accents and dashes, so it takes the non-ASCII paths), and the slowdown
versus two baselines measured on the same data in the same run:
`str.translate` (one C pass over the text) and a single `re.sub` with a
literal-led pattern (what "one regex pass" costs). Figures are medians of
several runs of this process's CPU time.

A fifth corpus, "mixed", is real text of this repository (README, docs and
Python sources, the security package excluded) with the logs, in turns.
The second table compares the keyword prefilter's engines on each corpus:
the Aho-Corasick automaton (ahocorasick_rs) against one `bytes.find` scan per
keyword, i.e. whether the multi-pattern engine pays.

A third table measures every rule set on real text: "dense" is the secret
examples of the three generated rule sets (gitleaks, Nosey Parker,
Kingfisher: tests/unit/security/data/*_examples.json), one per line, ~2 MB;
"stdlib" is this Python's standard library sources and "docs" this
repository's README and docs (ordinary text: every redaction there is a false
positive, counted per MB, the first few printed). When detect-secrets is
installed (`pip install detect-secrets`; a baseline only, no dependency), it
scans the same text as its CLI scans a file in the same run: its rate and its
findings per MB (recall on each source's examples: bench/eval_redaction.py).

The figure (docs/security.md): >= 10 MB/s on "dense", >= 30 MB/s on ordinary
text. Each row of the third table also has the single `re.sub` baseline of the
first, on the same text in the same run, so rows from a busy machine compare.

Run: `.venv/bin/python bench/bench_redaction.py [--real-only] [--no-detect-secrets]`
(`--no-detect-secrets`: leave that baseline out; it takes minutes per corpus)
"""

from __future__ import annotations

import random
import re
import statistics
import time
from pathlib import Path

from agenttui.security import gitleaks_scan, redact_secrets
from agenttui.security.redaction import _needles, ascii_lower, byte_view

RUNS = 7
SIZE = 2_000_000

_PROSE = (
    "Budi bilang dia lagi refactor modul billing minggu ini. The user prefers short answers, "
    "uses Neovim, and forgot his password last week so we talked about password managers. "
    "Meeting moved to Thursday at 10:30; bring the quarterly numbers and the API key rotation plan. "
    "Gue prefer jawaban singkat, jangan pakai emoji ya. Keys, tokens and secrets belong in the keyring. "
)
_CODE = '''def load_settings(path: Path) -> Settings:
    """Read config.toml; fall back to defaults on error."""
    data = tomllib.loads(path.read_text())
    token = os.environ.get("OPENAI_API_KEY")
    for key, value in data.items():
        if key == "password":
            raise ValueError("no secrets in config")
    return Settings(model=data.get("model", "gpt-4o-mini"), timeout=30, max_tokens=4096)

'''
_CHAT = (
    "Oke, aku udah cobain — hasilnya lumayan 👍 tapi café-nya tutup jam 9. "
    "Can you remind me tomorrow? Naïve approach first, then we’ll optimise… "
    "Jangan lupa kirim laporan ke Bu Ratna ya 🙏 «deadline» Jumat. "
)
_LOG = (
    "2024-05-01T12:00:{s:02d}Z INFO  http GET /api/v1/notes/{n} 200 {ms}ms user=budi trace={t}\n"
    "2024-05-01T12:00:{s:02d}Z WARN  retrying request attempt=2 backoff=0.5s endpoint=https://api.example.com/v1\n"
)


def _build(unit_fn) -> str:
    parts, size = [], 0
    i = 0
    while size < SIZE:
        chunk = unit_fn(i)
        parts.append(chunk)
        size += len(chunk)
        i += 1
    return "".join(parts)[:SIZE]


def corpora() -> dict[str, str]:
    rng = random.Random(1)
    prose = _build(lambda i: _PROSE)
    code = _build(lambda i: _CODE.replace("load_settings", f"load_settings_{i}"))
    logs = _build(
        lambda i: _LOG.format(s=i % 60, n=i, ms=rng.randint(1, 900), t=f"{rng.getrandbits(128):032x}")
    )
    chat = _build(lambda i: _CHAT)
    return {"prose": prose, "code": code, "logs": logs, "chat": chat, "mixed": _mixed(logs)}


def _mixed(logs: str) -> str:
    root = Path(__file__).resolve().parents[1]
    files = [root / "README.md", *sorted((root / "docs").glob("*.md")), *sorted((root / "src").rglob("*.py"))]
    # The security package is left out: its docs and rules are about secrets.
    real = [f.read_text("utf-8") for f in files if "security" not in f.parts]
    parts, size, i = [], 0, 0
    while size < SIZE:
        chunk = real[i % len(real)] + logs[(i * 4000) % len(logs) :][:4000]
        parts.append(chunk)
        size += len(chunk)
        i += 1
    return "".join(parts)[:SIZE]


def _median(fn, text: str) -> float:
    """Median CPU time of this process (other work on a shared machine does not count)."""
    times = []
    for _ in range(RUNS):
        t0 = time.process_time()
        fn(text)
        times.append(time.process_time() - t0)
    return statistics.median(times)


_TRANSLATE = str.maketrans({"\r": None})
_ONE_REGEX = re.compile(r"sk-[A-Za-z0-9_-]{20,}+")


def _real_corpora() -> dict[str, str]:
    import json
    import sysconfig

    root = Path(__file__).resolve().parents[1]
    examples = []
    for name in ("gitleaks", "noseyparker", "kingfisher"):
        data = json.loads((root / f"tests/unit/security/data/{name}_examples.json").read_text())
        examples += [tp for ex in data["rules"].values() for tp in ex["tps"]]
    dense = "\n".join(examples)
    stdlib = sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py"))
    docs = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    return {
        "dense": (dense + "\n") * max(1, SIZE // len(dense)),
        "stdlib": "\n".join(f.read_text("utf-8", "replace") for f in stdlib)[: 2 * SIZE],
        "docs": "\n".join(f.read_text("utf-8", "replace") for f in docs),
    }


def _detect_secrets():
    """detect-secrets as its CLI scans a file (default plugins and filters): the number of
    findings in a text, or None when it is not installed."""
    try:
        from detect_secrets import SecretsCollection
        from detect_secrets.settings import default_settings
    except ImportError:
        return None
    import os
    import tempfile

    def scan(text: str) -> int:
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write(text)
        try:
            with default_settings():
                found = SecretsCollection()
                found.scan_file(f.name)
                return sum(len(v) for v in found.data.values())
        finally:
            os.unlink(f.name)

    return scan


def real_text() -> None:
    import sys

    from agenttui.security import find_secrets

    ds = None if "--no-detect-secrets" in sys.argv else _detect_secrets()
    print("\nreal text, every rule loaded (CPU time, median of 3)")
    print(f"{'corpus':8s} {'MB':>5s} {'redact MB/s':>12s} {'found/MB':>9s} {'1 re.sub MB/s':>14s} {'x slower':>9s}"
          + (f" {'detect-secrets MB/s':>20s} {'found/MB':>9s}" if ds is not None else ""))
    shown = []
    for name, text in _real_corpora().items():
        mb = len(text) / 1e6
        t = statistics.median(_timed(redact_secrets, text) for _ in range(3))
        found = find_secrets(text)
        if name != "dense":
            shown += [(name, m.kind, text[max(0, m.start - 30) : m.end + 10]) for m in found[:5]]
        t_re = statistics.median(_timed(lambda s: _ONE_REGEX.sub("[REDACTED]", s), text) for _ in range(3))
        line = f"{name:8s} {mb:5.2f} {mb / t:12.1f} {len(found) / mb:9.1f} {mb / t_re:14.1f} {t / t_re:9.1f}"
        if ds is not None:
            td = _timed(ds, text)
            line += f" {mb / td:20.2f} {ds(text) / mb:9.1f}"
        print(line)
    for name, kind, ctx in shown:
        print(f"  false positive? {name}: {kind}: {ctx!r}")


def _timed(fn, text: str) -> float:
    t0 = time.process_time()
    fn(text)
    return time.process_time() - t0


def main() -> None:
    import sys

    if "--real-only" in sys.argv:
        real_text()
        return
    print(f"redaction throughput, {SIZE / 1e6:.1f} MB per corpus, median of {RUNS} runs")
    print(f"{'corpus':8s} {'redact MB/s':>12s} {'translate MB/s':>15s} {'x slower':>9s} "
          f"{'1 re.sub MB/s':>14s} {'x slower':>9s}")
    for name, text in corpora().items():
        mb = len(text) / 1e6
        t_red = _median(redact_secrets, text)
        t_tr = _median(lambda s: s.translate(_TRANSLATE), text)
        t_re = _median(lambda s: _ONE_REGEX.sub("[REDACTED]", s), text)
        print(
            f"{name:8s} {mb / t_red:12.1f} {mb / t_tr:15.1f} {t_red / t_tr:9.1f} "
            f"{mb / t_re:14.1f} {t_red / t_re:9.1f}"
        )
    keywords = gitleaks_scan.compiled(_needles()[1])
    print(f"\nkeyword prefilter, {len(keywords.keywords)} keywords: ms per MB, median of {RUNS} runs")
    print(f"{'corpus':8s} {'automaton':>10s} {'find loop':>10s} {'x faster':>9s}")
    for name, text in corpora().items():
        view = ascii_lower(byte_view(text)).encode("latin-1")
        mb = len(text) / 1e6
        t_ac = _median(lambda v: gitleaks_scan.keyword_hits(v, keywords), view)
        t_find = _median(lambda v: gitleaks_scan.find_loop_hits(v, keywords.keywords), view)
        print(f"{name:8s} {t_ac * 1e3 / mb:10.2f} {t_find * 1e3 / mb:10.2f} {t_find / t_ac:9.1f}")
    real_text()


if __name__ == "__main__":
    main()
