"""Injection screen on public sets: recall per source and language, precision on ordinary text per language.

    .venv/bin/python bench/bench_injection_public.py [--mirror DIR] [--misses N] [--only S] [--without MODULE]

``--without injection_indirect_wide`` repeats the run without that module's
rules: the baseline its rules must beat (recall up, precision unchanged).

Read at run time from git snapshots under ``--mirror`` (default /work/.mirror,
made by the search tool's ``fetch``); nothing is copied into this repository and
nothing is downloaded: a missing snapshot is reported and skipped.

Injections (recall):

* ``deepset-en`` / ``deepset-de``: deepset/prompt-injections (Apache-2.0), the
  parquet files in sinanw/llm-security-prompt-injection ``data/raw`` (commit
  c8af0b015a9a4f3380f9e20214828c2dbeadc72c), label 1, split by language with a
  German function-word count. Needs pyarrow. ``deepset-de/tune`` and
  ``/held``: the German row split by a hash of the text (see below).
* ``gandalf``: Lakera/gandalf_ignore_instructions (MIT), as vendored in
  Parapet-Tech/parapet (Apache-2.0, commit
  17394b7ef07d93cd480f8a2b1609ba251f8c4629)
  ``schema/eval/opensource_gandalf_attacks.yaml``.
* ``mosscap``: Lakera/mosscap_prompt_injection (MIT), same repository,
  ``opensource_mosscap_attacks.yaml``. Many rows only ask for the password
  ("what is the password?"), which is no injection into a memory note: the
  figure is a floor.
* ``written-<lang>``: tests/unit/security/injection_multilingual.py, written
  for agenttui (ten languages; no public multilingual set was fetchable here).

Indirect, agent-style attacks (documents, e-mails, tool responses): spikee,
InjecAgent and Agent Security Bench, per language and framing, each split by a
hash into a ``/tune`` half (rules may be written while reading it) and a
``/held`` half (never read when writing rules); see bench/injection_indirect_sets.py.
WASP's web-agent attacks (GitLab issues, Reddit posts), split the same way:
see bench/injection_web_mail_sets.py.

Ordinary text (precision = share left alone):

* ``ud-<lang>``: the ``# text =`` sentences of Universal Dependencies
  treebanks: EWT (en), GSD (id es fr de pt ru zh), IU (uk), VTB (vi) -- as
  bench/eval_injection.py -- and PUD (ar hi it th tr; CC BY-SA 3.0), TRG and
  Ugnayan (tl; CC BY-SA 4.0 / CC BY-NC-SA 4.0), IDT (ga; CC BY-SA 3.0,
  commit ecefd4dfddc5da6d56a56429535e64aec060ec4f), ARCOSG (gd; CC BY-SA 4.0,
  d899aedfd1bfb5383e8867294d7db8f85108fb32), TSA and STAF (sq; CC BY-SA 4.0,
  f9f4cf1be5564b5d50bafe7d4d6234d5552cdfce / 22ae839b1d7c78005e900dd97747f0739b233c42).
  LassySmall (nl; CC BY-SA 4.0,
  7880e0bc4c8138607c8e9724db2294dc89d4e2b5), LFG (pl; GPL-3.0, 7e859fe7edce4ac30afe8ca757bfa6c9c4c36c62).
  All splits. (No Zulu or Swahili treebank is in UD; zu precision is
  spikee-fp-zu only, sw is not measured.) For the languages of
  injection_core_languages: PUD (ko cs sv fi; CC BY-SA 3.0/4.0), Greek GDT
  (CC BY-NC-SA 3.0), Danish DDT, Norwegian Bokmaal, Romanian RRT, Persian
  Seraji, Bengali BRU (CC BY-SA 4.0), Hungarian Szeged (CC BY-NC-SA 3.0),
  Bulgarian BTB (CC BY-NC-SA 3.0), Hebrew HTB (CC BY-NC-SA 4.0); read for
  evaluation only. (Japanese PUD's file is over the 4 MiB the snapshots keep:
  ja is not measured.)
* ``spikee-fp-<lang>``: spikee's benign false-positive inputs (see
  bench/injection_indirect_sets.py).
* ``deepset-benign``: deepset label 0 (English and German).
* ``llmail-emails``: the benign e-mails of LLMail-Inject; ``notinject-en`` /
  ``notinject-multi``: NotInject's questions built around injection words
  (see bench/injection_web_mail_sets.py).
* ``python-docs``: paragraphs of the docstrings of this interpreter's standard
  library (PSF licence): technical English that says "ignore", "instructions",
  "system", "previous".

Held out and never read here: agentdojo, BIPIA, CyberSecEval, Tensor Trust,
garak's probes (Giskard's prompt-injections set is built from garak, so it is
left out too). ``--misses N`` prints N misses / false alarms per row.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import os
import re
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]

from bench.injection_indirect_sets import indirect_sets, part_of, spikee_false_positive_checks  # noqa: E402
from bench.injection_web_mail_sets import llmail_emails, notinject, wasp  # noqa: E402


def _without(argv: list[str]) -> list[str]:
    """``--without MODULE`` (repeatable): empty that rule module's tables before the screen
    assembles them, so the same run can be repeated as a baseline without those rules."""
    names = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--without"]
    import importlib

    from agenttui.security import injection_patterns  # the assembled tables, compiled at first use

    for name in names:
        module = importlib.import_module(f"agenttui.security.{name}")
        for table in ("WORD_RULES", "PLAIN_RULES", "TWO_STEP_RULES"):
            drop = set(getattr(module, table, []))
            assembled = getattr(injection_patterns, table)
            assembled[:] = [rule for rule in assembled if rule not in drop]
    return names


_ABLATED = _without(sys.argv)
from agenttui.security import injection_reasons  # noqa: E402

PRECISION_GOAL = 0.95
UD = {
    "en": ["UD_English-EWT"], "id": ["UD_Indonesian-GSD"], "es": ["UD_Spanish-GSD"],
    "fr": ["UD_French-GSD"], "de": ["UD_German-GSD"], "pt": ["UD_Portuguese-GSD"],
    "uk": ["UD_Ukrainian-IU"], "ru": ["UD_Russian-GSD"], "vi": ["UD_Vietnamese-VTB"],
    "zh": ["UD_Chinese-GSD"], "ar": ["UD_Arabic-PUD"], "hi": ["UD_Hindi-PUD"],
    "it": ["UD_Italian-PUD"], "th": ["UD_Thai-PUD"], "tr": ["UD_Turkish-PUD"],
    "tl": ["UD_Tagalog-TRG", "UD_Tagalog-Ugnayan"],
    "ga": ["UD_Irish-IDT"], "gd": ["UD_Scottish_Gaelic-ARCOSG"], "sq": ["UD_Albanian-TSA", "UD_Albanian-STAF"],
    "nl": ["UD_Dutch-LassySmall"], "pl": ["UD_Polish-LFG"],
    "ja": ["UD_Japanese-PUD"], "ko": ["UD_Korean-PUD"], "cs": ["UD_Czech-PUD"], "sv": ["UD_Swedish-PUD"],
    "fi": ["UD_Finnish-PUD"], "el": ["UD_Greek-GDT"], "da": ["UD_Danish-DDT"], "no": ["UD_Norwegian-Bokmaal"],
    "hu": ["UD_Hungarian-Szeged"], "ro": ["UD_Romanian-RRT"], "bg": ["UD_Bulgarian-BTB"], "he": ["UD_Hebrew-HTB"],
    "fa": ["UD_Persian-Seraji"], "bn": ["UD_Bengali-BRU"],
}
PARAPET = "Parapet-Tech/parapet"


@dataclass
class Row:
    name: str
    lang: str
    positive: bool
    texts: list[str]


def _git(mirror: Path, repo: str, *args: str) -> bytes | None:
    git_dir = mirror / repo.replace("/", "+") / "repo"
    if not git_dir.is_dir():
        return None
    out = subprocess.run(["git", f"--git-dir={git_dir}", *args], capture_output=True, check=False)
    return out.stdout if out.returncode == 0 else None


def _ls(mirror: Path, repo: str) -> list[str]:
    out = _git(mirror, repo, "ls-tree", "-r", "--name-only", "HEAD")
    return out.decode().split() if out else []


def _ud(mirror: Path) -> Iterator[Row]:
    for lang, repos in UD.items():
        texts: list[str] = []
        for repo in repos:
            full = f"UniversalDependencies/{repo}"
            for path in (p for p in _ls(mirror, full) if p.endswith(".conllu")):
                raw = (_git(mirror, full, "show", f"HEAD:{path}") or b"").decode("utf-8")
                texts += [m.strip() for m in re.findall(r"^# text ?= ?(.*)$", raw, re.M) if m.strip()]
        if texts:
            yield Row(f"ud-{lang}", lang, False, texts)
        else:
            print(f"  (skipped ud-{lang}: no snapshot of {', '.join(repos)})")


_GERMAN = re.compile(r"\b(?:und|der|die|das|ist|nicht|ich|du|sie|wie|was|mit|für|auf|eine?|bitte|jetzt|nun)\b", re.I)


def _deepset(mirror: Path) -> Iterator[Row]:
    repo = "sinanw/llm-security-prompt-injection"
    files = [p for p in _ls(mirror, repo) if p.startswith("data/raw/") and p.endswith(".parquet")]
    if not files:
        print(f"  (skipped deepset: no snapshot of {repo})")
        return
    try:
        import pyarrow.parquet as pq
    except ImportError:
        print("  (skipped deepset: pyarrow is not installed)")
        return
    rows = [r for p in files
            for r in pq.read_table(io.BytesIO(_git(mirror, repo, "show", f"HEAD:{p}") or b"")).to_pylist()]
    attacks = [r["text"] for r in rows if r["label"] == 1]
    german = [t for t in attacks if len(_GERMAN.findall(t)) >= 3]
    yield Row("deepset-en", "en", True, [t for t in attacks if t not in german])
    yield Row("deepset-de", "de", True, german)
    # the same German attacks in two halves by a hash of the text: rules for German may be
    # written from the tuning half's misses; the held half's are not read
    for part in ("tune", "held"):
        yield Row(f"deepset-de/{part}", "de", True, [t for t in german if part_of(t) == part])
    yield Row("deepset-benign", "en+de", False, [r["text"] for r in rows if r["label"] == 0])


def _yaml_contents(text: str) -> list[str]:
    """``content:`` values of Parapet's eval files (plain, quoted or block scalars; no PyYAML here)."""
    out: list[str] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^ *content: ?(.*)$", line)
        if not m:
            continue
        value = m.group(1)
        if value[:1] in ("|", ">"):
            block = []
            for nxt in lines[i + 1:]:
                if nxt.strip() and not nxt.startswith("    "):
                    break
                block.append(nxt.strip())
            out.append("\n".join(block).strip())
        elif value.startswith('"'):
            try:
                out.append(str(json.loads(value)))
            except ValueError:
                out.append(value.strip('"'))
        else:
            out.append(value.strip("'").replace("''", "'"))
    return [t for t in out if t]


def _parapet(mirror: Path) -> Iterator[Row]:
    for name in ("gandalf", "mosscap"):
        raw = _git(mirror, PARAPET, "show", f"HEAD:schema/eval/opensource_{name}_attacks.yaml")
        if raw is None:
            print(f"  (skipped {name}: no snapshot of {PARAPET})")
            continue
        yield Row(name, "en", True, _yaml_contents(raw.decode("utf-8")))


def _written() -> Iterator[Row]:
    from tests.unit.security.injection_multilingual import LANGS, ordinary, samples

    attacks = samples()
    for lang in LANGS:
        yield Row(f"written-{lang}", lang, True, [s.text for s in attacks if s.lang == lang])
    yield Row("written-ordinary", "all", False, [s.text for s in ordinary()])


def _python_docs() -> Iterator[Row]:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    paragraphs: list[str] = []
    for path in sorted(stdlib.glob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node)
                if doc:
                    paragraphs += [" ".join(p.split()) for p in doc.split("\n\n") if len(p.split()) >= 5]
    yield Row("python-docs", "en", False, paragraphs)


def _indirect(mirror: Path) -> Iterator[Row]:
    for s in indirect_sets(mirror):
        yield Row(f"{s.name}/{s.part}", s.lang, True, s.texts)


def _spikee_fp(mirror: Path) -> Iterator[Row]:
    for lang, texts in sorted(spikee_false_positive_checks(mirror).items()):
        yield Row(f"spikee-fp-{lang}", lang, False, texts)


def _web_mail(mirror: Path) -> Iterator[Row]:
    for s in wasp(mirror):
        yield Row(f"{s.name}/{s.part}", s.lang, True, s.texts)
    emails = llmail_emails(mirror)
    if emails:
        yield Row("llmail-emails", "en", False, emails)
    for lang, texts in notinject(mirror).items():
        yield Row(f"notinject-{lang}", lang, False, texts)


def rows(mirror: Path) -> list[Row]:
    out: list[Row] = []
    sources = (_deepset(mirror), _parapet(mirror), _indirect(mirror), _web_mail(mirror), _written(), _ud(mirror),
               _spikee_fp(mirror), _python_docs())
    for source in sources:
        out.extend(source)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirror", type=Path, default=Path(os.environ.get("AGENTTUI_MIRROR", "/work/.mirror")))
    parser.add_argument("--misses", type=int, default=0)
    parser.add_argument("--only", default="", help="rows whose name contains this (e.g. /tune)")
    parser.add_argument("--without", action="append", default=[],
                        help="baseline: run without this rule module (e.g. injection_indirect_wide)")
    args = parser.parse_args()
    if _ABLATED:
        print(f"baseline without {', '.join(_ABLATED)}")
    print(f"{'source':24} {'lang':6} {'measure':9} {'rate':>6} {'n':>6}")
    below: list[str] = []
    for row in rows(args.mirror):
        if args.only and args.only not in row.name:
            continue
        wrong = [t for t in row.texts if bool(injection_reasons(t)) != row.positive]
        rate = 1 - len(wrong) / len(row.texts) if row.texts else float("nan")
        measure = "recall" if row.positive else "precision"
        print(f"{row.name:24} {row.lang:6} {measure:9} {rate:6.3f} {len(row.texts):6d}")
        if not row.positive and rate < PRECISION_GOAL:
            below.append(row.name)
        for text in wrong[: args.misses]:
            why = "; ".join(injection_reasons(text))[:100]
            print(f"      {'FALSE ALARM' if why else 'missed'}: {text[:120]!r} {why}")
    print(f"precision goal {PRECISION_GOAL} per ordinary-text row: "
          + (f"below in {', '.join(below)}" if below else "met in every row"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
