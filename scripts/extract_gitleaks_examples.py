"""Extract gitleaks' own rule examples into a test corpus.

    .venv/bin/python scripts/extract_gitleaks_examples.py --git-dir PATH/TO/gitleaks/.git

Each rule of https://github.com/gitleaks/gitleaks is written in Go under
``cmd/generate/config/rules/*.go`` with literal true-positive (``tps``) and
false-positive (``fps``) strings that gitleaks validates its regex against.
Those literals (MIT licence, Copyright (c) 2019 Zachary Rice) are written to
``tests/unit/security/data/gitleaks_examples.json`` as
``{"source": …, "rules": {rule_id: {"tps": [...], "fps": [...]}}}``.
Only plain string literals that are list elements are taken; examples built
at generation time (``secrets.NewSecret(regex)``, concatenations) are not, as
they are random.
"""

from __future__ import annotations

import argparse
import ast
import itertools
import json
import re
import subprocess
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests/unit/security/data/gitleaks_examples.json"
_FUNC = re.compile(r"^func \w+\(\) \*config\.Rule \{", re.M)
_RULE_ID = re.compile(r'RuleID:\s*"([^"]+)"')
_STMT = re.compile(r"\b(tps|fps)\s*(?::=|=)\s*")


def _go_string(tok: str) -> str | None:
    if tok.startswith("`"):
        return tok[1:-1]
    try:
        return ast.literal_eval(tok)
    except (ValueError, SyntaxError):
        return None


_TOKEN = re.compile(r'`[^`]*`|"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/|\[\]string\{|append\(|[(){},+]|[^\s(){},+`"]+|\s+',  # noqa: E501
                    re.S)


def _literals(src: str, pos: int) -> tuple[list[str], int]:
    """String literals that are list elements of the statement starting at `pos`."""
    stack: list[bool] = []  # True: a list ([]string{…} or append(…))
    out: list[str] = []
    prev = None
    pending: str | None = None
    for m in _TOKEN.finditer(src, pos):
        tok = m.group()
        if tok.isspace() or tok.startswith(("//", "/*")):
            continue
        if pending is not None:
            if tok in (",", "}", ")") and stack and stack[-1]:
                value = _go_string(pending)
                if value is not None:
                    out.append(value)
            pending = None
        if tok in ("[]string{", "append("):
            stack.append(True)
        elif tok in ("(", "{"):
            stack.append(False)
        elif tok in (")", "}"):
            if not stack:
                return out, m.start()
            stack.pop()
            if not stack:
                return out, m.end()
        elif tok[0] in "`\"" and prev in ("[]string{", "append(", ","):
            pending = tok
        elif not stack and tok not in (",",) and prev is not None and prev in (")", "}"):
            return out, m.start()
        prev = tok
    return out, len(src)


def extract(files: dict[str, str]) -> dict[str, dict[str, list[str]]]:
    rules: dict[str, dict[str, list[str]]] = {}
    for _name, src in sorted(files.items()):
        starts = [m.start() for m in _FUNC.finditer(src)] + [len(src)]
        for lo, hi in itertools.pairwise(starts):
            body = src[lo:hi]
            rid = _RULE_ID.search(body)
            if not rid:
                continue
            entry = rules.setdefault(rid.group(1), {"tps": [], "fps": []})
            for m in _STMT.finditer(body):
                lits, _ = _literals(body, m.end())
                entry[m.group(1)].extend(lits)
    return {k: v for k, v in rules.items() if v["tps"] or v["fps"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--git-dir", required=True)
    ap.add_argument("--output", default=str(OUT))
    args = ap.parse_args(argv)

    def git(*a: str) -> str:
        return subprocess.run(["git", f"--git-dir={args.git_dir}", *a],
                              check=True, capture_output=True, text=True).stdout

    commit = git("rev-parse", "HEAD").strip()
    names = git("ls-tree", "--name-only", "HEAD", "cmd/generate/config/rules/").split()
    files = {n: git("show", f"HEAD:{n}") for n in names if n.endswith(".go") and not n.endswith("_test.go")}
    rules = extract(files)
    doc = {
        "source": f"https://github.com/gitleaks/gitleaks commit {commit}, cmd/generate/config/rules/*.go "
        "(tps/fps literals); MIT licence, Copyright (c) 2019 Zachary Rice",
        "rules": rules,
    }
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    tps = sum(len(v["tps"]) for v in rules.values())
    fps = sum(len(v["fps"]) for v in rules.values())
    print(f"wrote {args.output}: {len(rules)} rules, {tps} true-positive and {fps} false-positive examples")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
