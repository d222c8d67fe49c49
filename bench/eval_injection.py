"""Injection screen on public corpora: recall per dataset, precision per language.

    .venv/bin/python bench/eval_injection.py [--mirror DIR] [--misses] [--speed]

Sources (read at run time from git snapshots of the public repositories under
``--mirror``, default ``/work/.mirror``; nothing is copied into this repository,
and nothing is downloaded -- a missing snapshot is reported and skipped):

Injections (recall):
* ``deepset``: deepset/prompt-injections (Apache-2.0; English and German), as
  parquet in sinanw/llm-security-prompt-injection ``data/raw``; label 1.
  Needs ``pyarrow`` (``pip install pyarrow``). train = tuning part, test = held out.
* ``promptmap``: utkusen/promptmap (GPL-3.0) ``rules/{prompt_stealing,jailbreak,
  distraction}/*.yaml`` ``prompt:`` fields; every third file held out.
* ``written``: tests/unit/security/injection_multilingual.py (ten languages,
  paraphrase families; written for agenttui, every third held out).

Ordinary text (precision):
* ``ud-<lang>``: the ``# text =`` sentences of Universal Dependencies treebanks
  (CC BY-SA 4.0; uk: CC BY-NC-SA 4.0): EWT (en: web reviews, e-mails, forums),
  GSD (id, es, fr, de, pt, ru, zh), IU (uk), VTB (vi). dev = tuning part,
  test = held out.
* ``notinject``: leolee99/PIGuard ``datasets/NotInject_*.json`` (MIT): benign
  prompts built around trigger words ("ignore", "bypass" …), PIGuard's
  over-defence set. one = tuning part, two and three = held out.
* ``deepset-benign``: deepset label 0 (English and German questions).
* PIGuard ``datasets/valid.json``, all held out: ``pint-injection`` (Lakera PINT injection and
  jailbreak samples, recall; its BIPIA rows are skipped: BIPIA is one of the sets we
  are judged by, never read here), ``pint-benign`` (PINT chat, documents, hard
  negatives) and ``wildguard-benign`` (precision).
* ``written-ordinary``: personal notes with trigger words in ten languages.
* ``promptshield`` / ``promptshield-benign``: Neural-alchemy/promptshield (MIT)
  ``openclay/shields/attack_db/*/*.json``: attacks by category (override,
  persona, indirect, extraction, jailbreak, context confusion …; recall) and
  its benign hard negatives (precision). All held out: no rule was written
  from it, so it measures how the rule families generalise. Encoding,
  token-smuggling, crescendo and many-shot files are left out (multi-turn or
  decoded elsewhere; not memory-note shapes).

Decision: "precision on ordinary notes" is the share of ordinary texts the
screen leaves alone (1 - false-positive rate): with ordinary text only, a
flag is always a false alarm. ``--misses`` lists tuning-part misses and false
alarms; held-out parts only ever print counts.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from agenttui.security import injection_reasons  # noqa: E402

UD = {
    "en": ("UD_English-EWT", "en_ewt"), "id": ("UD_Indonesian-GSD", "id_gsd"),
    "es": ("UD_Spanish-GSD", "es_gsd"), "fr": ("UD_French-GSD", "fr_gsd"),
    "de": ("UD_German-GSD", "de_gsd"), "pt": ("UD_Portuguese-GSD", "pt_gsd"),
    "uk": ("UD_Ukrainian-IU", "uk_iu"), "ru": ("UD_Russian-GSD", "ru_gsd"),
    "vi": ("UD_Vietnamese-VTB", "vi_vtb"), "zh": ("UD_Chinese-GSD", "zh_gsd"),
}
PRECISION_GOAL = 0.95
# The words the attack families are built on, per language: the ``-trigger`` rows
# are the ordinary sentences holding one (where a false alarm would come from).
TRIGGERS = {lang: re.compile(p, re.I) for lang, p in {
    "en": r"\b(?:ignor|forget|disregard|instruction|previous|system|prompt|you are now|from now on|pretend|reveal)",
    "id": r"\b(?:abaikan|lupakan|instruksi|perintah|aturan|sistem|sekarang|mulai|jangan)",
    "es": r"\b(?:ignor|olvid|instrucci|anterior|sistema|ahora eres|a partir de ahora|reglas|sigue)",
    "fr": r"\b(?:ignor|oubli|instruction|consigne|précédent|système|désormais|maintenant|règles)",
    "de": r"\b(?:ignorier|vergiss|vergessen|anweisung|vorherig|bisherig|system|jetzt|ab sofort|regeln)",
    "pt": r"\b(?:ignor|esque|instruç|anterior|sistema|agora|regras|siga)",
    "uk": r"(?:ігнор|забу|інструкц|попередн|систем|тепер|правил)",
    "ru": r"(?:игнор|забу|инструкц|предыдущ|систем|теперь|правил)",
    "vi": r"(?:bỏ qua|quên|hướng dẫn|chỉ dẫn|trước|hệ thống|bây giờ|quy tắc)",
    "zh": r"(?:忽略|无视|忘记|指令|指示|之前|以上|系统|规则|现在)",
}.items()}


@dataclass
class Corpus:
    name: str
    positive: bool
    tune: list[str]
    held_out: list[str]


def _git_show(mirror: Path, repo: str, path: str) -> bytes | None:
    git_dir = mirror / repo.replace("/", "+") / "repo"
    if not git_dir.is_dir():
        return None
    out = subprocess.run(["git", f"--git-dir={git_dir}", "show", f"HEAD:{path}"],
                         capture_output=True, check=False)
    return out.stdout if out.returncode == 0 else None


def _git_ls(mirror: Path, repo: str, under: str) -> list[str]:
    git_dir = mirror / repo.replace("/", "+") / "repo"
    if not git_dir.is_dir():
        return []
    out = subprocess.run(["git", f"--git-dir={git_dir}", "ls-tree", "-r", "--name-only", "HEAD", under],
                         capture_output=True, text=True, check=False)
    return sorted(out.stdout.split())


def _ud(mirror: Path) -> Iterator[Corpus]:
    for lang, (repo, stem) in UD.items():
        parts = []
        for split in ("dev", "test"):
            raw = _git_show(mirror, f"UniversalDependencies/{repo}", f"{stem}-ud-{split}.conllu")
            text = (raw or b"").decode("utf-8")
            parts.append([m.strip() for m in re.findall(r"^# text ?= ?(.*)$", text, re.M) if m.strip()])
        if parts[0] or parts[1]:
            yield Corpus(f"ud-{lang}", False, parts[0], parts[1])
            hard = lambda texts, trigger=TRIGGERS[lang]: [t for t in texts if trigger.search(t)]  # noqa: E731
            yield Corpus(f"ud-{lang}-trigger", False, hard(parts[0]), hard(parts[1]))
        else:
            print(f"  (skipped ud-{lang}: no snapshot of UniversalDependencies/{repo})")


def _deepset(mirror: Path) -> Iterator[Corpus]:
    repo = "sinanw/llm-security-prompt-injection"
    files = _git_ls(mirror, repo, "data/raw")
    if not files:
        print(f"  (skipped deepset: no snapshot of {repo})")
        return
    try:
        import pyarrow.parquet as pq
    except ImportError:
        print("  (skipped deepset: pyarrow is not installed)")
        return
    rows: dict[str, list[dict]] = {}
    for path in files:
        split = "test" if "/test-" in path else "train"
        rows[split] = pq.read_table(io.BytesIO(_git_show(mirror, repo, path) or b"")).to_pylist()
    for positive, name in ((True, "deepset"), (False, "deepset-benign")):
        pick = lambda split, positive=positive: [r["text"] for r in rows.get(split, []) if bool(r["label"]) == positive]  # noqa: E731
        yield Corpus(name, positive, pick("train"), pick("test"))
        if positive:  # the same, by language (the set is English and German)
            for lang in ("en", "de"):
                by = lambda split, pick=pick, de=lang == "de": [t for t in pick(split) if _german(t) == de]  # noqa: E731
                yield Corpus(f"deepset-{lang}", True, by("train"), by("test"))


_GERMAN = re.compile(r"\b(?:und|der|die|das|ist|nicht|ich|du|sie|wie|was|mit|für|auf|eine?|bitte|jetzt|nun)\b", re.I)


def _german(text: str) -> bool:
    """deepset mixes English and German rows; three German function words decide."""
    return len(_GERMAN.findall(text)) >= 3


def _promptmap(mirror: Path) -> Iterator[Corpus]:
    repo = "utkusen/promptmap"
    files = [f for f in _git_ls(mirror, repo, "rules")
             if f.endswith(".yaml") and f.split("/")[1] in ("prompt_stealing", "jailbreak", "distraction")]
    if not files:
        print(f"  (skipped promptmap: no snapshot of {repo})")
        return
    tune, held = [], []
    for i, path in enumerate(files):
        prompt = _yaml_prompt((_git_show(mirror, repo, path) or b"").decode("utf-8"))
        if prompt:
            (held if i % 3 == 2 else tune).append(prompt)
    yield Corpus("promptmap", True, tune, held)


def _yaml_prompt(text: str) -> str:
    """The ``prompt:`` value of a promptmap rule (quoted, plain or block scalar; no PyYAML here)."""
    m = re.search(r"^prompt: *(.*)$", text, re.M)
    if not m:
        return ""
    value = m.group(1).strip()
    if value[:1] in "|>":
        block = []
        for line in text[m.end() + 1 :].splitlines():
            if line and not line.startswith((" ", "\t")):
                break
            block.append(line.strip())
        return ("\n" if value[0] == "|" else " ").join(block).strip()
    if value.startswith('"'):
        try:
            return str(json.loads(value))
        except ValueError:
            return value.strip('"')
    return value.strip("'")


def _notinject(mirror: Path) -> Iterator[Corpus]:
    repo = "leolee99/PIGuard"
    parts: dict[str, list[str]] = {}
    for n in ("one", "two", "three"):
        raw = _git_show(mirror, repo, f"datasets/NotInject_{n}.json")
        parts[n] = [row["prompt"] for row in json.loads(raw)] if raw else []
    if not any(parts.values()):
        print(f"  (skipped notinject: no snapshot of {repo})")
        return
    yield Corpus("notinject", False, parts["one"], parts["two"] + parts["three"])
    raw = _git_show(mirror, repo, "datasets/valid.json")
    if raw:  # PIGuard's validation mix; its BIPIA rows (a set we are judged by) are never read
        rows = json.loads(raw)
        picked = {name: [r["prompt"] for r in rows if r["source"].startswith(prefix) and r["label"] == label]
                  for name, prefix, label in (("pint-injection", "PINT", 1),
                                              ("pint-benign", "PINT", 0), ("wildguard-benign", "WildGuard", 0))}
        for name, texts in picked.items():
            yield Corpus(name, name == "pint-injection", [], texts)


_PROMPTSHIELD_SKIP = ("encoding", "encoding_obfuscation", "token_smuggling", "crescendo", "many_shot")


def _promptshield(mirror: Path) -> Iterator[Corpus]:
    repo = "Neural-alchemy/promptshield"
    files = _git_ls(mirror, repo, "openclay/shields/attack_db")
    if not files:
        print(f"  (skipped promptshield: no snapshot of {repo})")
        return
    attacks, benign = [], []
    for path in files:
        folder = path.split("/")[-2]
        if not path.endswith(".json") or folder in _PROMPTSHIELD_SKIP:
            continue
        for row in json.loads(_git_show(mirror, repo, path) or b"[]"):
            text = row.get("text") or row.get("prompt") or ""
            bad = row.get("expected_violation", folder != "benign")
            (attacks if bad else benign).append(text)
    yield Corpus("promptshield", True, [], attacks)
    yield Corpus("promptshield-benign", False, [], benign)


def _written() -> Iterator[Corpus]:
    from tests.unit.security.injection_multilingual import LANGS, ordinary, samples

    attacks, notes = samples(), ordinary()
    for lang in LANGS:
        yield Corpus(f"written-{lang}", True, [s.text for s in attacks if s.lang == lang and not s.held_out],
                     [s.text for s in attacks if s.lang == lang and s.held_out])
    yield Corpus("written-ordinary", False, [s.text for s in notes if not s.held_out],
                 [s.text for s in notes if s.held_out])


def corpora(mirror: Path) -> list[Corpus]:
    out: list[Corpus] = []
    for source in (_deepset(mirror), _promptmap(mirror), _promptshield(mirror), _written(), _ud(mirror),
                   _notinject(mirror)):
        out.extend(source)
    return out


def _rate(texts: list[str], positive: bool) -> tuple[float, int, list[str]]:
    """(share screened correctly, count, the wrong ones)."""
    wrong = [t for t in texts if bool(injection_reasons(t)) != positive]
    return (1 - len(wrong) / len(texts) if texts else float("nan")), len(texts), wrong


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirror", type=Path, default=Path(os.environ.get("AGENTTUI_MIRROR", "/work/.mirror")))
    parser.add_argument("--misses", action="store_true", help="list tuning-part misses and false alarms")
    parser.add_argument("--speed", action="store_true", help="median µs per ordinary text")
    args = parser.parse_args()
    print(f"injection screen on public corpora (snapshots under {args.mirror})")
    print(f"{'corpus':18} {'measure':10} {'tune':>14} {'held out':>14}")
    below: list[str] = []
    ordinary_texts: list[str] = []
    for corpus in corpora(args.mirror):
        measure = "recall" if corpus.positive else "precision"
        tune = _rate(corpus.tune, corpus.positive)
        held = _rate(corpus.held_out, corpus.positive)
        print(f"{corpus.name:18} {measure:10} {tune[0]:8.3f} ({tune[1]:4d}) {held[0]:8.3f} ({held[1]:4d})")
        if not corpus.positive:
            ordinary_texts += corpus.held_out
            if corpus.name.startswith("ud-") and held[1] and held[0] < PRECISION_GOAL:
                below.append(corpus.name)
        if args.misses:
            for text in tune[2][:15]:
                why = injection_reasons(text)
                print(f"    {'FALSE ALARM' if why else 'missed'}: {text[:110]!r} {'; '.join(why)[:90]}")
    if args.speed and ordinary_texts:
        times = []
        for text in ordinary_texts[:3000]:
            t0 = time.perf_counter()
            injection_reasons(text)
            times.append(time.perf_counter() - t0)
        times.sort()
        print(f"speed: median {times[len(times) // 2] * 1e6:.1f} µs per ordinary text ({len(times)} texts)")
    langs = sum(1 for c in corpora(args.mirror) if c.name.startswith("ud-") and not c.name.endswith("-trigger"))
    print(f"precision goal {PRECISION_GOAL} on held-out ordinary text: "
          f"{langs - len({b.split('-')[1] for b in below})}/{langs} languages meet it"
          + (f" (below: {', '.join(below)})" if below else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
