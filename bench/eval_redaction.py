"""Redaction recall and false positives per corpus, with where each comes from.

Run: `.venv/bin/python bench/eval_redaction.py [--real GIT_DIR:PATTERN ...] [--show N]`

Corpora:
- gitleaks: the tp/fp literals of gitleaks' own rules (tests/unit/security/
  data/gitleaks_examples.json; MIT, extracted by scripts/extract_gitleaks_examples.py).
  Recall = share of tps in which the whole redactor finds a secret; "same rule"
  = share found by the gitleaks rule they were written for (conversion check),
  and fps = share of that rule's fps it (wrongly) matches.
- noseyparker, kingfisher: the examples of every rule of each project
  (tests/unit/security/data/*_examples.json; Apache-2.0), less rules that
  capture identifiers, not secrets (Kingfisher's `visible: false`, Nosey
  Parker's and Kingfisher's categories with "identifier" but not "secret":
  bucket names, ARNs, client ids, public keys). Recall of the whole
  redactor, of the generated rule itself, and of detect-secrets (as its
  CLI scans a file: default plugins and filters) when it is installed, on the same examples.
- provider key formats: tests/unit/security/test_provider_key_formats.py (documented
  provider shapes, values generated) and its ordinary-text negatives.
- synthetic: tests/unit/security/secret_corpus.py (seeded, generated contexts).
- real text (optional, `--real`): files of public repositories fetched with
  git (e.g. logpai/loghub's *_2k.log, fastapi's docs in several languages,
  psf/requests' code), read with `git show HEAD:path`. Nothing there is
  expected to be a secret, so every redaction is printed for review
  (`--show`), and counted per MB.
Throughput of the real text is printed too (CPU time, median of 5).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agenttui.security import find_secrets, gitleaks_rules, gitleaks_scan, redact_secrets  # noqa: E402  # noqa: E402
from agenttui.security.redaction import ascii_lower  # noqa: E402


def gitleaks_figures() -> None:
    data = json.loads((ROOT / "tests/unit/security/data/gitleaks_examples.json").read_text())
    ids = {r["id"] for r in gitleaks_rules.RULES}
    tps = [(rid, t) for rid, ex in data["rules"].items() for t in ex["tps"]]
    fps = [(rid, t) for rid, ex in data["rules"].items() for t in ex["fps"] if rid in ids]
    in_config = [(rid, t) for rid, t in tps if rid in ids]

    def kinds(text: str) -> set[str]:
        return {k for _, _, k, _ in gitleaks_scan.find_gitleaks(text, ascii_lower(text))}

    whole = sum(bool(find_secrets(t)) for _, t in tps)
    same = sum(rid in kinds(t) for rid, t in in_config)
    wrong = sum(rid in kinds(t) for rid, t in fps)
    print(f"gitleaks examples ({data['source']})")
    print(f"  whole redactor recall: {whole}/{len(tps)} = {whole / len(tps):.3f} "
          "(all extracted tps, incl. rules not in the config)")
    print(f"  same-rule recall:      {same}/{len(in_config)} = {same / len(in_config):.3f} (rules in config)")
    print(f"  same-rule fp matches:  {wrong}/{len(fps)} = {wrong / len(fps):.3f}")
    missed = [(rid, t[:70]) for rid, t in tps if not find_secrets(t)]
    for rid, t in missed:
        print(f"    missed {rid}: {t!r}")


IDENTIFIER = "identifier, not a secret"  # the generators' reason for such rules


def detect_secrets_finds():
    """Whether detect-secrets (as its CLI scans a file: default plugins and filters) finds anything."""
    try:
        from detect_secrets import SecretsCollection
        from detect_secrets.settings import default_settings
    except ImportError:
        return None
    import os
    import tempfile

    def finds(text: str) -> bool:
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write(text)
        try:
            with default_settings():
                found = SecretsCollection()
                found.scan_file(f.name)
                return any(found.data.values())
        finally:
            os.unlink(f.name)

    return finds


def source_figures(show: int) -> None:
    from agenttui.security import kingfisher_rules, noseyparker_rules
    from agenttui.security.redaction import byte_view

    ds = detect_secrets_finds()
    for name, mod in (("noseyparker", noseyparker_rules), ("kingfisher", kingfisher_rules)):
        data = json.loads((ROOT / f"tests/unit/security/data/{name}_examples.json").read_text())
        kept = {r["id"] for r in mod.RULES}
        tps = [(rid, t) for rid, ex in data["rules"].items() for t in ex["tps"]
               if not mod.DROPPED.get(rid, "").startswith(IDENTIFIER)]
        whole = [bool(find_secrets(t)) for _, t in tps]
        own = [(rid, t) for rid, t in tps if rid in kept]
        same = sum(rid in {r.id for *_, r in gitleaks_scan.find_rule_matches(byte_view(t), ascii_lower(byte_view(t)))}
                   for rid, t in own)
        line = (f"{name} ({data['source'][:80]}…)\n  whole redactor recall {sum(whole)}/{len(tps)} = "
                f"{sum(whole) / len(tps):.3f}; same rule {same}/{len(own)} = {same / len(own):.3f} "
                f"({len(mod.RULES)} rules kept, {len(mod.DROPPED)} dropped)")
        if ds is not None:
            d = sum(ds(t) for _, t in tps)
            line += f"; detect-secrets {d}/{len(tps)} = {d / len(tps):.3f}"
        print(line)
        for (rid, t), ok in list(zip(tps, whole, strict=True)):
            if not ok and show > 0:
                show -= 1
                print(f"    missed {rid}: {t[:70]!r}")


def issue_figures() -> None:
    from tests.unit.security import test_provider_key_formats as f

    pos = f.POSITIVES
    found = sum("[REDACTED:" in redact_secrets(t) and (s is None or s not in redact_secrets(t)) for t, s in pos)
    negs = next(m.args[1] for m in f.test_ordinary_text_is_left_alone.pytestmark if m.name == "parametrize")
    kept = sum(redact_secrets(t) == t for t in negs)
    print("documented provider key formats "
          "(tests/unit/security/test_provider_key_formats.py; shapes from provider docs)")
    print(f"  recall {found}/{len(pos)} = {found / len(pos):.3f}; ordinary texts kept {kept}/{len(negs)}")


def synthetic_figures() -> None:
    from tests.unit.security.corpus_report import redaction_figures

    fig = redaction_figures()
    print("synthetic corpus (tests/unit/security/secret_corpus.py, seed 20240601)")
    print(f"  recall {fig.recall:.4f} over {fig.positives} positives, "
          f"FP rate {fig.fp_rate:.4f} over {fig.negatives} negatives")


def _real_files(spec: str) -> list[tuple[str, str]]:
    git_dir, pattern = spec.split(":", 1)
    names = subprocess.run(["git", f"--git-dir={git_dir}", "ls-tree", "-r", "--name-only", "HEAD"],
                           check=True, capture_output=True, text=True).stdout.split()
    out = []
    for name in names:
        if fnmatch.fnmatch(name, pattern):
            blob = subprocess.run(["git", f"--git-dir={git_dir}", "show", f"HEAD:{name}"], capture_output=True).stdout
            try:
                out.append((f"{Path(git_dir).parent.name}/{name}", blob.decode("utf-8")))
            except UnicodeDecodeError:
                continue
    return out


def real_figures(specs: list[str], show: int) -> None:
    for spec in specs:
        files = _real_files(spec)
        text_mb = sum(len(t) for _, t in files) / 1e6
        hits = []
        for name, text in files:
            for m in find_secrets(text):
                lo = text.rfind("\n", 0, m.start) + 1
                hi = text.find("\n", m.end)
                hits.append((name, m.kind, text[lo : hi if hi >= 0 else len(text)][:160]))
        joined = "\n".join(t for _, t in files)
        times = []
        for _ in range(5):
            t0 = time.process_time()
            redact_secrets(joined)
            times.append(time.process_time() - t0)
        print(f"real text {spec}: {len(files)} files, {text_mb:.2f} MB, {len(hits)} redactions "
              f"({len(hits) / max(text_mb, 1e-9):.1f}/MB), {text_mb / statistics.median(times):.1f} MB/s")
        for name, kind, line in hits[:show]:
            print(f"    {kind:28s} {name}: {line!r}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--real", action="append", default=[], help="GIT_DIR:GLOB of files expected to hold no secret")
    ap.add_argument("--show", type=int, default=20)
    args = ap.parse_args()
    gitleaks_figures()
    source_figures(args.show)
    issue_figures()
    synthetic_figures()
    real_figures(args.real, args.show)


if __name__ == "__main__":
    main()
