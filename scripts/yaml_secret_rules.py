"""Shared by generate_noseyparker_rules.py and generate_kingfisher_rules.py.

Both projects keep their rules as YAML (``rules: [{name, id, pattern,
examples, negative_examples, …}]``) with patterns in the syntax of Rust's
``regex`` crate (Kingfisher's are also compiled by Vectorscan). This module
converts them to Python ``re`` (compiled with ``re.ASCII``), finds each rule's
literal anchors for the Aho-Corasick prefilter (``gitleaks_scan``) and writes
a rule module in the shape of ``gitleaks_rules`` plus a JSON file of the
rules' own examples for the tests.

Conversion (Rust regex → Python re):
- ``(?x)`` verbose mode is expanded here, Rust's way: unescaped whitespace is
  dropped everywhere (also inside classes, unlike Python) and ``#`` starts a
  comment outside classes;
- leading flag groups are merged into one (``(?x)(?i)`` → ``(?i)``); a flag
  group later in the pattern is scoped to the rest of its group (as gitleaks'
  generator does); Rust's ``u`` flag is dropped;
- ``\\z`` → ``\\Z``, ``(?<name>`` → ``(?P<name>``, POSIX classes → ranges,
  ``\\x{HH}`` → ``\\xHH``/``\\uHHHH``.
A rule is skipped, and counted with its reason, when its search backtracks
(``BacktrackCheck``: Rust's engine is linear, ``re`` is not), when it uses what ``re``
lacks (Unicode classes ``\\p{…}``, nested or set-operation classes), when it
still fails to compile, when it has no literal of 3+ characters that every
match contains (it would need a full scan of every text), or when its
source marks it as no secret (identifiers: Kingfisher's ``visible: false``,
Nosey Parker's categories with ``identifier`` and without ``secret``).
"""

from __future__ import annotations

import json
import pprint
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

from generate_gitleaks_rules import _posix_classes, _scope_inline_flags  # noqa: E402
from generated_rule_module import module_header  # noqa: E402

from agenttui.security.literals import literal_prefixes  # noqa: E402
from agenttui.security.required_literals import required_literals  # noqa: E402

MIN_ANCHOR = 3


class Unconvertible(ValueError):
    pass


def _strip_verbose(p: str) -> str:
    out, i, in_class = [], 0, False
    while i < len(p):
        c = p[i]
        if c == "\\":
            nxt = p[i + 1 : i + 2]
            out.append(c + nxt)  # `\ ` and `\#` stay literal
            i += 2
            continue
        if in_class:
            if c == "]" and not (out and out[-1] in ("[", "[^")):
                in_class = False
            if not c.isspace():
                out.append(c)
            i += 1
            continue
        if c == "[":
            in_class = True
            if p[i + 1 : i + 2] == "^":
                out.append("[^")
                i += 2
                continue
        elif c == "#":
            nl = p.find("\n", i)
            i = len(p) if nl < 0 else nl + 1
            continue
        elif c.isspace():
            i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


_LEADING_FLAGS = re.compile(r"\A(?:\s*\(\?([a-zA-Z]+)\))+")
_ONE_FLAG_GROUP = re.compile(r"\(\?([a-zA-Z]+)\)")


def _hex_escape(m: re.Match[str]) -> str:
    code = int(m.group(1), 16)
    return f"\\x{code:02x}" if code < 256 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def rust_to_python(pattern: str) -> str:
    p = re.sub(r"(?<!\\)\(\?#[^)]*\)", "", pattern).strip()  # inline comments `(?# … )`
    flags = ""
    m = _LEADING_FLAGS.match(p)
    if m:
        flags = "".join(_ONE_FLAG_GROUP.findall(m.group()))
        p = p[m.end() :]
    if "x" in flags:
        p = _strip_verbose(p)
        flags = flags.replace("x", "")
    if re.search(r"\(\?[a-zA-Z-]*x", p):
        raise Unconvertible("verbose flag in the middle of the pattern")
    flags = "".join(sorted(set(flags) - {"u"}))
    if re.search(r"\\[pP]", p):
        raise Unconvertible("Unicode class \\p{…}")
    if "&&" in p or "--" in p and re.search(r"\[[^\]]*--", p) or re.search(r"\[[^\]\\]*\[(?!:)", p):
        raise Unconvertible("nested or set-operation character class")
    if "\\Q" in p:
        raise Unconvertible("\\Q…\\E quoting")
    p = p.replace(r"\z", r"\Z").replace("(?<", "(?P<").replace("(?P<=", "(?<=").replace("(?P<!", "(?<!")
    p = re.sub(r"\\x\{([0-9a-fA-F]+)\}", _hex_escape, p)
    p = _posix_classes(p)
    p = re.sub(r"\(\?([a-zA-Z]*)u([a-zA-Z]*)([:)])", lambda m: f"(?{m.group(1)}{m.group(2)}{m.group(3)}", p)
    p = re.sub(r"\(\?-u([:)])", lambda m: "(?:" if m.group(1) == ":" else "", p)
    p = re.sub(r"\(\?\)", "", p)
    p = _scope_inline_flags(p)
    if flags:
        p = f"(?{flags})" + p
    try:
        re.compile(p, re.ASCII)
    except re.error as exc:
        raise Unconvertible(f"does not compile in Python re: {exc}") from exc
    except (FutureWarning, DeprecationWarning) as exc:
        raise Unconvertible(f"ambiguous in Python re: {exc}") from exc
    return p


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


# A keyword is "common" when it occurs more often than this in ordinary
# text (the reference below): as a prefilter hit it would make its rule run
# on most texts. Such rules get other anchors, or are dropped as generic.
COMMON_PER_MB = 20.0


# Words a chat about credentials is full of, whatever the reference says.
ALWAYS_COMMON = ("secret", "http://", "https://", "password", "token", "user", "key", "auth", "api", "pass",
                 "client", "access", "private", "account", "login", "cred")
# ... as whole literals only (a longer literal holding one, "hooks.slack.com", is fine):
ALWAYS_COMMON = tuple(w for w in ALWAYS_COMMON if w.startswith("http"))
ALWAYS_COMMON_EXACT = frozenset(("secret", "password", "token", "user", "key", "auth", "api", "pass", "client",
                                 "access", "private", "account", "login", "cred", "secret_key", "api_key",
                                 "apikey", "access_key", "accesskey", "username", "passwd", "pwd"))


class Reference:
    """Ordinary text to count keywords in: this Python's standard library
    sources and this repository's README and docs (lower-cased)."""

    def __init__(self, limit: int = 8_000_000) -> None:
        import sysconfig

        parts, size = [], 0
        files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
                 *sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py"))]
        for f in files:
            if size >= limit:
                break
            t = f.read_text("utf-8", "replace").lower()
            parts.append(t)
            size += len(t)
        self.text = "\n".join(parts)
        self.mb = len(self.text) / 1e6
        self._cache: dict[str, bool] = {}

    def common(self, literal: str) -> bool:
        if literal in ALWAYS_COMMON_EXACT or any(literal.rstrip("/") == w.rstrip("/") or
                                                 (literal.startswith(w) and len(literal) <= len(w) + 3)
                                                 for w in ALWAYS_COMMON):
            return True
        hit = self._cache.get(literal)
        if hit is None:
            hit = self._cache[literal] = self.text.count(literal) / self.mb > COMMON_PER_MB
        return hit


def anchors(py: str, ref: Reference) -> tuple[list[str], bool] | str:
    """(keywords, anchored), or why there are none; anchored: every match starts with a keyword."""
    pre = literal_prefixes(py, re.ASCII)
    if pre and all(len(x) >= MIN_ANCHOR for x in pre) and not any(ref.common(x.lower()) for x in pre):
        return sorted({x.lower() for x in pre}), True
    req = required_literals(py, re.ASCII, avoid=lambda x: len(x) < MIN_ANCHOR or ref.common(x))
    if req:
        return sorted(req), False
    if required_literals(py, re.ASCII, avoid=lambda x: len(x) < MIN_ANCHOR):
        return ("generic: every literal it needs is common in ordinary text (key, password, user, http…), "
                "so it would run on most texts; agenttui's context rules cover assignments and URLs")
    return "no literal of 3+ characters in every match (would need a full scan)"


APACHE_BOILERPLATE = """Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.

Changes: patterns converted to Python re syntax, literal anchors added,
validation and metadata left out (see scripts/yaml_secret_rules.py)."""


# Rust's regex engine is linear; Python's `re` backtracks. A rule whose search
# takes longer than this on its own examples, or on runs of one character led
# by its keyword (a few KB), is skipped: the scanner would stall on text like it.
BACKTRACK_BUDGET_S = 0.05


def _probes(keywords: list[str], examples: list[str]) -> list[str]:
    probes = [*examples]
    for kw in keywords[:3]:
        for filler in (" ", "a", "=", "\n ", "1", "'", " a"):
            probes.append(kw + filler * (2000 // len(filler)))
            probes.append(kw + ":" + filler * (2000 // len(filler)) + kw)
    return probes


def _probe_worker(conn: Any) -> None:
    """Child process: time each (pattern, probes) it is sent; answer True when one is slow."""
    import time

    while True:
        job = conn.recv()
        if job is None:
            return
        py, probes = job
        rx = re.compile(py, re.ASCII)
        slow = False
        for probe in probes:
            t0 = time.process_time()
            rx.search(probe)
            if time.process_time() - t0 > BACKTRACK_BUDGET_S:
                slow = True
                break
        conn.send(slow)


class BacktrackCheck:
    """Times searches in a child process: `re` cannot be interrupted mid-match, so a
    search that would run for hours is ended by killing the child."""

    def __init__(self) -> None:
        self._start()

    def _start(self) -> None:
        import multiprocessing as mp

        self.conn, child = mp.Pipe()
        self.proc = mp.Process(target=_probe_worker, args=(child,), daemon=True)
        self.proc.start()

    def slow(self, py: str, keywords: list[str], examples: list[str]) -> bool:
        self.conn.send((py, _probes(keywords, examples)))
        if self.conn.poll(5.0):
            return bool(self.conn.recv())
        self.proc.kill()
        self.proc.join()
        self._start()
        return True

    def close(self) -> None:
        self.conn.send(None)
        self.proc.join(5)


def _identifier_only(r: dict[str, Any]) -> str | None:
    """Why a rule finds identifiers, not secrets (None when it finds secrets): Kingfisher's
    `visible: false`, Nosey Parker's categories with "identifier" and without "secret"."""
    if r.get("visible") is False:
        return "visible: false"
    cats = r.get("categories") or []
    if "identifier" in cats and "secret" not in cats:
        return "categories: " + ", ".join(cats)
    return None


def convert_rules(raw_rules: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, str], dict[str, Any]]:
    """(rules, skipped id -> reason, examples per id)."""
    import warnings

    ref = Reference()
    check = BacktrackCheck()
    rules: list[dict[str, Any]] = []
    skipped: dict[str, str] = {}
    examples: dict[str, Any] = {}
    seen: dict[str, int] = {}
    for r in raw_rules:
        rid = r["id"]
        seen[rid] = seen.get(rid, 0) + 1
        if seen[rid] > 1:
            rid = f"{rid}~{seen[rid]}"  # two upstream rules share an id (kingfisher.fullstory.1)
        # Every rule's examples are kept, also a skipped rule's: recall is measured on all of them.
        examples[rid] = {
            "tps": [str(x) for x in r.get("examples") or []],
            "fps": [str(x) for x in (r.get("negative_examples") or r.get("non_examples") or [])],
        }
        why = _identifier_only(r)
        if why:
            skipped[rid] = f"identifier, not a secret ({why})"
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                py = rust_to_python(r["pattern"])
        except Unconvertible as exc:
            skipped[rid] = f"unconvertible: {exc}"
            continue
        found = anchors(py, ref)
        if isinstance(found, str):
            skipped[rid] = found
            continue
        keywords, anchored = found
        if check.slow(py, keywords, examples[rid]["tps"] + examples[rid]["fps"]):
            skipped[rid] = "backtracks in Python re (Rust's engine is linear): too slow on its own examples"
            continue
        rules.append({
            "id": rid,
            "kind": slug(r["name"]),
            "regex": py,
            "group": 0,
            "entropy": float(r.get("min_entropy", 0.0)),
            "keywords": keywords,
            "anchored": anchored,
            "seeks": {},
            "allow": [],
        })
    check.close()
    return rules, skipped, examples


def write_module(out: Path, *, title: str, source: str, commit: str, files: str, license_name: str,
                 license_text: str, rules: list[dict[str, Any]], skipped: dict[str, str], script: str) -> None:
    header = module_header(
        f"Secret rules generated from {title}. DO NOT EDIT.\n\n"
        f"Regenerate with {script} (scripts/yaml_secret_rules.py says how the\n"
        f"Rust regex syntax is converted). Source: {source}\n"
        f"commit {commit}, files {files}.\n"
        f"Used under the {license_name}; its text follows.",
        license_text,
    )
    body = [
        header,
        f"SOURCE = {source!r}\n",
        f"SOURCE_COMMIT = {commit!r}\n",
        "\n# (id, kind, regex, secret group, min entropy, keywords, anchored, allowlists)\n",
        "RULES: tuple[dict[str, Any], ...] = " + pprint.pformat(tuple(rules), width=110, sort_dicts=False) + "\n",
        "\n# Upstream rules not used, and why.\n",
        "DROPPED: dict[str, str] = " + pprint.pformat(skipped, width=110, sort_dicts=True) + "\n",
    ]
    text = "".join(body)
    out.write_text(text)
    ns: dict[str, Any] = {}
    exec(compile(text, str(out), "exec"), ns)  # the module must load


def write_examples(out: Path, source: str, commit: str, license_name: str, examples: dict[str, Any]) -> None:
    out.write_text(json.dumps({"source": f"{source} commit {commit} ({license_name}); the rules' own "
                                         "examples and negative examples",
                               "rules": examples}, indent=1, ensure_ascii=False) + "\n")


def report(name: str, rules: list[dict[str, Any]], skipped: dict[str, str]) -> None:
    from collections import Counter

    reasons = Counter(v.split(":")[0] if v.startswith(("unconvertible", "generic", "backtracks")) else v
                      for v in skipped.values())
    print(f"{name}: {len(rules)} rules kept, {len(skipped)} skipped "
          f"({sum(r['anchored'] for r in rules)} anchored at their keyword)", file=sys.stderr)
    for why, n in reasons.most_common():
        print(f"  {n:4d} skipped: {why}", file=sys.stderr)
