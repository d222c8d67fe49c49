"""Regenerate ``src/agenttui/security/gitleaks_rules.py`` from gitleaks' rule set.

    .venv/bin/python scripts/generate_gitleaks_rules.py --git-dir PATH/TO/gitleaks/.git
    .venv/bin/python scripts/generate_gitleaks_rules.py --toml gitleaks.toml --commit SHA --license LICENSE

The source is ``config/gitleaks.toml`` of https://github.com/gitleaks/gitleaks
(MIT licence, Copyright (c) 2019 Zachary Rice). The generated module is
committed, so nothing is downloaded at run time; its header keeps the licence
and says which commit it came from.

Go's RE2 syntax is converted to Python ``re`` (compiled with ``re.ASCII``,
since RE2's ``\\w``, ``\\d``, ``\\s`` and ``\\b`` are ASCII):
- ``\\z`` becomes ``\\Z``; POSIX classes (``[[:alnum:]]``) become ranges;
- a flag group in the middle of a pattern (``p8e-(?i)[a-z0-9]{32}``), which
  RE2 applies to the rest of the enclosing group, becomes a scoped group
  ``(?i:…)`` around the rest of that group (each remaining alternative);
- the leading ``[\\w.-]{0,50}?`` of gitleaks' "generic" shape only widens the
  whole match to the key's name; it never holds the secret group, so it is
  cut: the pattern then starts at the keyword, and the scanner can try it
  only where a keyword was found (``anchored``), instead of scanning.
A rule is dropped (and listed in ``DROPPED`` with the reason) when it has no
content regex (path-only rules), when it still fails to compile, or when it
is replaced by an agenttui rule (see ``REPLACED``).

``anchored`` is computed from the parsed pattern: true when every match must
start with one of the rule's keywords, so a match can be tried at each
keyword hit (``Pattern.match``) rather than searched for in a window.
"""

from __future__ import annotations

import argparse
import pprint
import re
import sys
import tomllib
from pathlib import Path

from generated_rule_module import git, module_header

OUT = Path(__file__).resolve().parents[1] / "src/agenttui/security/gitleaks_rules.py"

# Rules agenttui covers with its own, context-aware rules (why, for the record).
REPLACED = {
    "generic-api-key": (
        "agenttui's assignment rules (context_rules.find_assignments) cover `KEY=value`, keep key "
        "names, and know placeholders and code references; this rule's keywords (key, api, token, "
        "password…) occur in nearly every line of prose, so as a keyword-gated rule it would run everywhere"
    ),
}

# Keywords that occur in most ordinary text ('ey' in "key", 's.' ending a
# sentence): as prefilter hits they would cost a Python-level match attempt
# each. For them the rule gets a *seek* regex instead, run over the lowered
# text: literal-led (so `re` scans for it in C) and implied by the rule (every
# match of the rule contains a match of the seek at the keyword's place), so
# only real candidates reach Python. The tests run gitleaks' own examples
# through the result.
SEEKS: dict[str, dict[str, str]] = {
    "jwt": {"ey": r"ey[a-z0-9]{17}"},  # \b(ey[a-zA-Z0-9]{17,}\.ey…
    "vault-service-token": {"s.": r"s\.[a-z0-9]{24}"},  # …|s\.(?i:[a-z0-9]{24})
    "twilio-api-key": {"sk": r"sk[0-9a-f]{32}"},  # SK[0-9a-fA-F]{32}; 'sk' is in "ask", "task"
    "hashicorp-tf-password": {  # (?i)…password(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|…)[\x60'"\s=]{0,5}("…
        "password": r"""password(?=[ \t\w.-]{0,20}+[\s'"]{0,3}+(?:=|>|:|,|\|\||\?=)[\x60'"\s=]{0,5}+")""",
    },
    # Both alternatives contain `kind: secret` (the other one's `data:` is
    # searched for in the window around it).
    "kubernetes-secret-yaml": {"secret": r"""kind:[ \t]*["']?secret"""},
}

_POSIX = {
    "alnum": "A-Za-z0-9", "alpha": "A-Za-z", "digit": "0-9", "lower": "a-z", "upper": "A-Z",
    "xdigit": "0-9A-Fa-f", "space": r" \t\r\n\v\f", "word": "A-Za-z0-9_", "punct": r"!-/:-@\[-`{-~",
}
_PREFIX_I = "(?i)[\\w.-]{0,50}?"  # (?i)[\w.-]{0,50}?(?:kw)…
_PREFIX_SCOPED = "[\\w.-]{0,50}?(?i:[\\w.-]{0,50}?"  # [\w.-]{0,50}?(?i:[\w.-]{0,50}?(?:kw)…)…


def _scan_groups(p: str) -> list[tuple[int, int]]:
    """(open, close) index pairs of every group, skipping escapes and classes."""
    stack, pairs, i, in_class = [], [], 0, False
    while i < len(p):
        c = p[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            if c == "]" and p[i - 1 : i] != "[":
                in_class = False
        elif c == "[":
            in_class = True
            if p[i + 1 : i + 2] == "^":
                i += 1
            if p[i + 1 : i + 2] == "]":
                i += 1  # a leading ']' is a literal
        elif c == "(":
            stack.append(i)
        elif c == ")":
            pairs.append((stack.pop(), i))
        i += 1
    return pairs


def _top_level_bars(p: str, lo: int, hi: int) -> list[int]:
    """Indexes of '|' at depth 0 within p[lo:hi]."""
    bars, depth, i, in_class = [], 0, lo, False
    while i < hi:
        c = p[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            if p[i + 1 : i + 2] == "^":
                i += 1
            if p[i + 1 : i + 2] == "]":
                i += 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            bars.append(i)
        i += 1
    return bars


_FLAG_GROUP = re.compile(r"\(\?([imsU-]+)\)")


def _scope_inline_flags(p: str) -> str:
    """RE2 `(?i)` mid-group → Python `(?i:rest)`, for every remaining alternative."""
    while True:
        for m in _FLAG_GROUP.finditer(p):
            if m.start() == 0:
                continue
            if p[m.start() - 1] == "\\":
                continue
            break
        else:
            return p
        flags = m.group(1)
        groups = _scan_groups(p)
        enclosing = [(o, c) for o, c in groups if o < m.start() and c > m.end()]
        end = min((c for _, c in enclosing), default=len(p))
        rest_lo = m.end()
        bars = _top_level_bars(p, rest_lo, end)
        pieces, lo = [], rest_lo
        for b in [*bars, end]:
            pieces.append(f"(?{flags}:{p[lo:b]})")
            lo = b + 1
        p = p[: m.start()] + "|".join(pieces) + p[end:]


def _posix_classes(p: str) -> str:
    return re.sub(r"\[:(\w+):\]", lambda m: _POSIX[m.group(1)], p)


def go_to_python(go: str) -> str:
    return _scope_inline_flags(_posix_classes(go.replace(r"\z", r"\Z")))


def convert(go: str) -> tuple[str, bool]:
    """(python pattern, generic prefix cut)."""
    p = go.replace(r"\z", r"\Z")
    p = _posix_classes(p)
    cut = False
    if p.startswith(_PREFIX_I):
        p, cut = "(?i)" + p[len(_PREFIX_I) :], True
    elif p.startswith(_PREFIX_SCOPED):
        p, cut = "(?i:" + p[len(_PREFIX_SCOPED) :], True
    p = _scope_inline_flags(p)
    return p, cut


# --- anchoring: must every match start with a keyword? -------------------------

def anchored(pattern: str, keywords: list[str]) -> bool:
    from agenttui.security.literals import literal_prefixes

    prefixes = literal_prefixes(pattern, re.ASCII)
    if not prefixes:
        return False
    kws = [k.lower() for k in keywords]
    return all(p and any(p.lower().startswith(k) for k in kws) for p in prefixes)


# --- output -----------------------------------------------------------------------

def build(toml_text: str, commit: str, license_text: str) -> str:
    data = tomllib.loads(toml_text)
    rules, dropped = [], {}
    for r in data["rules"]:
        rid = r["id"]
        if rid in REPLACED:
            dropped[rid] = "replaced: " + REPLACED[rid]
            continue
        if "regex" not in r:
            dropped[rid] = "no content regex (matches file paths only: " + r.get("path", "") + ")"
            continue
        py, cut = convert(r["regex"])
        try:
            re.compile(py, re.ASCII)
        except re.error as exc:
            dropped[rid] = f"does not compile in Python re after conversion: {exc}"
            continue
        allow = []
        for a in r.get("allowlists", []):
            if a.get("paths") and (a.get("condition") == "AND" or not (a.get("regexes") or a.get("stopwords"))):
                continue  # path-scoped: agenttui redacts text with no path
            allow.append(
                {
                    "target": a.get("regexTarget", "secret"),
                    "regexes": [go_to_python(x) for x in a.get("regexes", [])],
                    "stopwords": [s.lower() for s in a.get("stopwords", [])],
                }
            )
        keywords = sorted({k.lower() for k in r.get("keywords", [])})
        seeks = SEEKS.get(rid, {})
        for k in seeks:
            if k not in keywords:
                raise SystemExit(f"{rid}: seek for {k!r}, which is no longer one of its keywords: review SEEKS")
        rules.append(
            {
                "id": rid,
                "regex": py,
                "group": int(r.get("secretGroup", 0)),
                "entropy": float(r.get("entropy", 0.0)),
                "keywords": keywords,
                "anchored": bool(keywords) and anchored(py, keywords),
                "seeks": seeks,
                "prefix_cut": cut,
                "allow": allow,
            }
        )
    glob = data.get("allowlist", {})
    header = module_header(
        "Secret rules generated from gitleaks' config/gitleaks.toml. DO NOT EDIT.\n\n"
        "Regenerate with scripts/generate_gitleaks_rules.py (its docstring says how\n"
        "RE2 patterns are converted). Source: https://github.com/gitleaks/gitleaks\n"
        f"commit {commit}, file config/gitleaks.toml. Used under the MIT licence:",
        license_text,
    )
    body = [
        header,
        f"SOURCE_COMMIT = {commit!r}\n",
        "\n# (id, regex, secret group, min entropy, keywords, anchored, allowlists)\n",
        "RULES: tuple[dict[str, Any], ...] = " + pprint.pformat(tuple(rules), width=110, sort_dicts=False) + "\n",
        "\nGLOBAL_ALLOW_REGEXES: tuple[str, ...] = "
        + pprint.pformat(tuple(go_to_python(x) for x in glob.get("regexes", [])), width=110) + "\n",
        "\nGLOBAL_STOPWORDS: tuple[str, ...] = "
        + pprint.pformat(tuple(s.lower() for s in glob.get("stopwords", [])), width=110) + "\n",
        "\n# Upstream rules not used, and why.\n",
        "DROPPED: dict[str, str] = " + pprint.pformat(dropped, width=110, sort_dicts=True) + "\n",
    ]
    return "".join(body)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--git-dir", help="a gitleaks git directory (reads HEAD)")
    ap.add_argument("--toml", help="path of config/gitleaks.toml")
    ap.add_argument("--license", help="path of gitleaks' LICENSE (with --toml)")
    ap.add_argument("--commit", default="unknown", help="source commit (with --toml)")
    ap.add_argument("--output", default=str(OUT))
    args = ap.parse_args(argv)
    if args.git_dir:
        toml_text = git(args.git_dir, "show", "HEAD:config/gitleaks.toml")
        license_text = git(args.git_dir, "show", "HEAD:LICENSE")
        commit = git(args.git_dir, "rev-parse", "HEAD").strip()
    elif args.toml and args.license:
        toml_text = Path(args.toml).read_text()
        license_text = Path(args.license).read_text()
        commit = args.commit
    else:
        ap.error("give --git-dir, or --toml and --license")
    text = build(toml_text, commit, license_text)
    Path(args.output).write_text(text)
    ns: dict = {}
    exec(compile(text, args.output, "exec"), ns)  # the module must load
    print(f"wrote {args.output}: {len(ns['RULES'])} rules, {len(ns['DROPPED'])} dropped", file=sys.stderr)
    for rid, why in sorted(ns["DROPPED"].items()):
        print(f"  dropped {rid}: {why[:100]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
