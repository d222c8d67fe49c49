"""docs/ is the design in the repository: its links hold, the code's references to it
resolve, and the ids of the old out-of-tree spec (M7, H4, "SPEC §9", "seed 002") stay out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
MARKDOWN = [ROOT / "README.md", *PAGES]  # the top-level README and docs/README.md
LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE_REF = re.compile(r"\bdocs/([a-z_]+\.md)(?:#([a-z0-9-]+))?")
# Ids of the old spec: "(M3)", "(A1-A5, …)", "M7 consent", "# S4:", "SPEC §9", "seed 002".
OLD_ID = re.compile(
    r"\((?:[SMPHADU]\d{1,2}|§\d+)[,)/ –-]"
    r"|(?:^|[\s\"#])(?:[SMPHADU]\d{1,2}):\s"
    r"|\b(?:M\d{1,2}|H[1-6]) (?:consent|gate|extraction|correction|usage|budgets|wiring)\b"
    r"|SPEC §|\bseeds? 00\d\b"
)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    seen: dict[str, int] = {}
    for m in re.finditer(r"^#{1,6} (.+)$", text, re.M):  # a repeated heading gets -1, -2, …
        base = slug(m.group(1))
        seen[base] = seen.get(base, -1) + 1
        if seen[base]:
            seen[f"{base}-{seen[base]}"] = 0
    return set(seen)


def test_slug_matches_githubs_rule():
    assert slug("Caps and the archive") == "caps-and-the-archive"
    assert slug("Privacy and security") == "privacy-and-security"
    assert slug("Recall: what the model is reminded of") == "recall-what-the-model-is-reminded-of"
    assert slug("### `[memory]`".lstrip("# ")) == "memory"


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(path):
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # http(s), mailto
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        if not linked.exists() or (anchor and linked.suffix == ".md" and anchor not in anchors(linked)):
            broken.append(target)
    assert not broken, f"{path.name}: {broken}"


def test_readme_links_the_design_pages():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in ("docs/README.md", "docs/architecture.md", "docs/memory.md", "docs/security.md",
                 "docs/storage.md", "docs/cli.md"):
        assert f"]({page})" in readme, page
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    assert {p.name for p in PAGES} - {"README.md"} <= set(LINK.findall(index))


def _code_files():
    for folder in ("src", "tests", "bench", "scripts"):
        yield from (ROOT / folder).rglob("*.py")


def test_references_from_the_code_resolve():
    broken = []
    for path in _code_files():
        for page, anchor in CODE_REF.findall(path.read_text(encoding="utf-8")):
            target = DOCS / page
            if not target.exists() or (anchor and anchor not in anchors(target)):
                broken.append(f"{path.relative_to(ROOT)}: docs/{page}#{anchor}")
    assert not broken, broken


def test_no_ids_of_the_old_spec():
    found = []
    for path in [*_code_files(), *MARKDOWN]:
        if path.name == "test_docs.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OLD_ID.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, "refer to a docs/ page instead:\n" + "\n".join(found)


def test_the_old_id_pattern_catches_what_it_should():
    for text in ('"""Memory audit (M9). Pure', "x  # S4: say where", "the M3 gate", "(A1-A5)",
                 "(SPEC §9, D3)", "seed 002 policy", "(M7 consent)", "(§1)"):
        assert OLD_ID.search(text), text
    for text in ("Samsung Galaxy S23", "A3-ASWWYB-798JRY", "macOS on an M2", "seed 20240601",
                 "seed phrase", "(H264)", "F1 help", "[REDACTED:seed_phrase]"):
        assert not OLD_ID.search(text), text
