"""Move ``core/`` into subpackages and the agent's tools into ``agent/tools/``.

Usage (from anywhere; the repository root is the argument)::

    python scripts/move_core_modules.py /path/to/repo [--dry-run]

Re-runnable on a newer main: the move touches every import, so it is a script
rather than a commit to rebase. It

1. ``git mv``s each module of :data:`MOVES` (and the data files of
   :data:`DATA_MOVES`) and writes each new package's ``__init__.py``: a one-line
   docstring and no imports, so a lazy import stays lazy;
2. rewrites every reference in ``src/``, ``tests/``, ``bench/``, ``scripts/``,
   ``docs/``, ``README.md`` and ``pyproject.toml``: import statements located by
   ``ast`` (absolute and relative, ``from agenttui.core import x`` forms keep
   their local name with ``as``, lazy ones inside functions too), then dotted
   names in any text (``"agenttui.core.x.f"`` monkeypatch targets, ``-c``
   snippets, ``import_module``, import-linter contracts, ``core.x`` in prose),
   file paths (``core/x.py``, ``agent/tool_x.py``, ``core/data/*.gz``), bare
   file names that name one module only (``memory_gate.py``), docstring roles
   (``:mod:`context_prompt```) and the ``importlib.resources`` anchor of the
   moved data;
3. sorts the rewritten imports (``ruff check --select I --fix``), regenerates
   the module map in ``docs/architecture.md`` from the packages' docstrings,
   and checks every ``agenttui`` import in the tree resolves: module found,
   each imported name defined there. Anything it cannot map fails loudly.

Idempotent: a module already at its new place is skipped, and only the names of
modules still at their old place when the run starts are rewritten, so a second
run changes nothing (``agenttui.core.context.assemble`` is the function before
the move and the module after it).

Fails loudly, before anything moves, on a module at ``core/`` top level (or an
``agent/tool_*.py``) that is in neither :data:`MOVES` nor :data:`STAY`, and on an
import it cannot map; after the move, on an ``agenttui`` import that does not
resolve or a ruff finding (a line the longer names pushed past 120: add a
:data:`HAND_FIXES` entry). To retry: ``git reset --hard && git clean -fd src``,
fix the table, run again.

A branch still in the old layout is ported the same way: run this on it.

CHANGELOG.md is left as written: it records what the paths were then.

Re-applying on a newer main (the commit before this script's holds the tool-types split it
needs; ``git log --oneline -3 health-pkgs`` names both)::

    git switch -C health-pkgs main      # in a work tree of your own
    git cherry-pick <tool-types commit> <this script's commit>
    python scripts/move_core_modules.py .    # moves, rewrites, checks, stages what it changed
    git commit -m "core: subpackages"
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import subprocess
import sys
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

# Old path -> new path, relative to src/agenttui. One level of subpackages.
MOVES: list[tuple[str, str]] = [
    # memory: the store, its files, the gate, and what feeds it
    ("core/memory.py", "core/memory/store.py"),
    ("core/memory_backup.py", "core/memory/backup.py"),
    ("core/memory_file.py", "core/memory/file.py"),
    ("core/memory_gate.py", "core/memory/gate.py"),
    ("core/memory_import.py", "core/memory/importer.py"),
    ("core/memory_secret_notes.py", "core/memory/secret_notes.py"),
    ("core/memory_text.py", "core/memory/text.py"),
    ("core/project_memory.py", "core/memory/project.py"),
    ("core/corrections.py", "core/memory/corrections.py"),
    # history: the SQLite store and what reads or writes it whole
    ("core/history.py", "core/history/store.py"),
    ("core/history_export.py", "core/history/export.py"),
    ("core/history_import.py", "core/history/importer.py"),
    ("core/history_readonly.py", "core/history/readonly.py"),
    ("core/history_schema.py", "core/history/schema.py"),
    ("core/history_search.py", "core/history/search.py"),
    ("core/term_counts.py", "core/history/term_counts.py"),
    ("core/history_recall.py", "core/history/recall_queries.py"),
    ("core/history_rows.py", "core/history/rows.py"),
    # recall: ranking, its word tables, semantic ranking and the vectors it uses
    ("core/retrieval.py", "core/recall/retrieval.py"),
    ("core/recall_dates.py", "core/recall/dates.py"),
    ("core/recall_dedup.py", "core/recall/dedup.py"),
    ("core/recall_index.py", "core/recall/index.py"),
    ("core/recall_related.py", "core/recall/related.py"),
    ("core/recall_text.py", "core/recall/text.py"),
    ("core/recall_usage.py", "core/recall/usage.py"),
    ("core/english_words.py", "core/recall/english_words.py"),
    ("core/semantic.py", "core/recall/semantic.py"),
    ("core/embeddings.py", "core/recall/embeddings.py"),
    ("core/embedding_client.py", "core/recall/embedding_client.py"),
    # context: what one request holds and what it costs
    ("core/context.py", "core/context/assemble.py"),
    ("core/context_prompt.py", "core/context/prompt.py"),
    ("core/context_window.py", "core/context/window.py"),
    ("core/compaction.py", "core/context/compaction.py"),
    ("core/model_limits.py", "core/context/model_limits.py"),
    # audit: the memory audit and its duplicate searches
    ("core/audit.py", "core/audit/findings.py"),
    ("core/audit_duplicates.py", "core/audit/duplicates.py"),
    ("core/audit_vectors.py", "core/audit/vectors.py"),
    # config: settings, config.toml, locations, profiles, the API key
    ("core/config.py", "core/config/file.py"),
    ("core/config_schema.py", "core/config/schema.py"),
    ("core/settings.py", "core/config/settings.py"),
    ("core/paths.py", "core/config/paths.py"),
    ("core/profiles.py", "core/config/profiles.py"),
    ("core/secrets.py", "core/config/api_key.py"),
    ("core/key_file.py", "core/config/key_file.py"),
    # backup: full backups, restore and its limits
    ("core/backup.py", "core/backup/archive.py"),
    ("core/backup_limits.py", "core/backup/limits.py"),
    # doctor: the checks of `agenttui doctor`
    ("core/doctor.py", "core/doctor/checks.py"),
    ("core/doctor_endpoint.py", "core/doctor/endpoint.py"),
    # agent/tools: the registry above the tools, the shared types below them
    ("agent/tools.py", "agent/tools/registry.py"),
    ("agent/tool_spec.py", "agent/tools/spec.py"),
    ("agent/tool_schema.py", "agent/tools/schema.py"),
    ("agent/tool_files.py", "agent/tools/files.py"),
    ("agent/tool_history.py", "agent/tools/history.py"),
    ("agent/tool_memory.py", "agent/tools/memory.py"),
    ("agent/tool_project.py", "agent/tools/project.py"),
    ("agent/tool_shell.py", "agent/tools/shell.py"),
    ("agent/shell_risk.py", "agent/tools/shell_risk.py"),
    ("agent/shell_readonly.py", "agent/tools/shell_readonly.py"),
    ("agent/shell_scripts.py", "agent/tools/shell_scripts.py"),
]
# The foundations every family uses stay at core/ top level. A module found at core/ top
# level (or an agent/tool_*.py, agent/shell_*.py) that is in neither table stops the script.
STAY: set[str] = {
    "core/__init__.py", "core/models.py", "core/files.py", "core/errors.py", "core/tokens.py",
    "core/services_view.py", "core/visible_text.py", "core/stale_install.py", "core/crash_log.py",
    "core/data_watch.py", "core/endpoint_state.py", "core/incognito.py",
}
# Data files go with the module that loads them (importlib.resources, anchored at its package).
DATA_MOVES: list[tuple[str, str]] = [
    ("core/data/english_words.tsv.gz", "core/recall/data/english_words.tsv.gz"),
    ("core/data/related_words.tsv.gz", "core/recall/data/related_words.tsv.gz"),
]
# Each new package's __init__.py: this docstring, nothing else.
PACKAGES: dict[str, str] = {
    "core/memory": "Long-term memory: the store, its files and backups, the write gate, corrections, project memory.",
    "core/history": "Conversation history: the SQLite store, its schema, export, import, search by conversation.",
    "core/recall": "Recall: ranking what was said and noted for a question; word tables; semantic ranking.",
    "core/context": "One request: assembling its messages, the prompt budget, what it costs, compaction.",
    "core/audit": "The memory audit: findings per item, duplicates by wording and by meaning.",
    "core/config": "Configuration: the settings model, config.toml, file locations, profiles, the API key.",
    "core/backup": "Full backups and restore, with the limits restore holds an archive to.",
    "core/doctor": "`agenttui doctor`: checks of the install, the configuration and the endpoint.",
    "agent/tools": "The model's tools: the registry, the shared tool types, argument checks, one module a family.",
}
# Lines the rewrite made too long (E501), in their rewritten form: (file, too long, wrapped).
# Applied after the rewrite; one that no longer matches is reported, and ruff says what is left.
HAND_FIXES: list[tuple[str, str, str]] = [
    ("tests/unit/recall/test_english_words.py",
     '            "from agenttui.core.recall.related import related_words; '
     'from agenttui.core.recall.retrieval import names_in; "\n',
     '            "from agenttui.core.recall.related import related_words; "\n'
     '            "from agenttui.core.recall.retrieval import names_in; "\n'),
    # Bare file names that other modules share (ui/screens/audit.py, mcp/config.py): by hand.
    ("docs/DESIGN.md", "`config.py` loads and saves them", "`core/config/file.py` loads and saves them"),
    ("docs/DESIGN.md", "memory/corrections.py, audit.py (", "memory/corrections.py, audit/findings.py ("),
]
# Old module names that are also other things' names, left alone in prose: the MCP tool
# `history_search` and the UI's project_memory screen.
PROSE_KEEP = {"history_search", "project_memory"}
PRECONDITION = "agent/tool_spec.py"  # the tool types split out of tools.py (the cycle fix) must come first
MAP_START = "<!-- module map: one row per package, its docstring says what it holds -->"
MAP_END = "<!-- end of module map -->"
# Not rewritten: this script's tables, and its test (whose stubs are the old layout on purpose).
SELF = {Path("scripts/move_core_modules.py"), Path("tests/unit/test_move_core_modules.py")}
LAYERS = ("core", "agent")


class MoveError(Exception):
    """Something the script cannot map: fix it by hand or extend the tables, then re-run."""


def dotted(path: str) -> str:
    return "agenttui." + path.removesuffix(".py").replace("/", ".")


@dataclass
class Plan:
    """The move as name maps. ``pending`` holds the old modules still at their old place when
    the script started: only their names are rewritten, so a re-run leaves the new names alone
    (``agenttui.core.context.assemble`` was a function before the move and is a module after)."""

    old_to_new: dict[str, str] = field(default_factory=dict)  # dotted module names
    short: dict[str, str] = field(default_factory=dict)  # "memory_gate" -> "memory/gate" (within its layer)
    pending: set[str] = field(default_factory=set)

    @classmethod
    def build(cls, src: Path) -> Plan:
        plan = cls()
        for old, new in MOVES:
            plan.old_to_new[dotted(old)] = dotted(new)
            plan.short[old.split("/", 1)[1].removesuffix(".py")] = new.split("/", 1)[1].removesuffix(".py")
            if (src / "agenttui" / old).exists():
                plan.pending.add(dotted(old))
        return plan

    def map_dotted(self, name: str) -> str:
        """The new dotted name for ``name`` (a module, or a module's attribute); unchanged if not moved."""
        parts = name.split(".")
        if len(parts) < 3 or parts[0] != "agenttui":
            return name
        head, rest = ".".join(parts[:3]), parts[3:]
        if head not in self.pending:
            return name
        return ".".join([self.old_to_new[head], *rest])


# --------------------------------------------------------------------------- moving files


def git(root: Path, *argv: str) -> None:
    subprocess.run(["git", *argv], cwd=root, check=True)


def move_files(root: Path, dry_run: bool) -> list[str]:
    src = root / "src/agenttui"
    done: list[str] = []
    for old, new in [*MOVES, *DATA_MOVES]:
        a, b = src / old, src / new
        if a.exists() and b.exists():
            raise MoveError(f"both {old} and {new} exist: merge them by hand first")
        if not a.exists() and not b.exists():
            raise MoveError(f"neither {old} nor {new} exists: update MOVES")
        if a.exists():
            done.append(f"{old} -> {new}")
            if not dry_run:
                b.parent.mkdir(parents=True, exist_ok=True)
                git(root, "mv", str(a.relative_to(root)), str(b.relative_to(root)))
    for package, doc in PACKAGES.items():
        init = src / package / "__init__.py"
        if not dry_run and not init.exists():
            init.write_text(f'"""{doc}"""\n', encoding="utf-8")
            git(root, "add", str(init.relative_to(root)))
    if not dry_run:
        for folder in {(src / old).parent for old, _ in DATA_MOVES}:
            if folder.is_dir() and not any(p for p in folder.iterdir() if p.name != "__pycache__"):
                for cache in folder.glob("__pycache__"):
                    for f in cache.iterdir():
                        f.unlink()
                    cache.rmdir()
                folder.rmdir()
    return done


# --------------------------------------------------------------------------- rewriting text


def text_files(root: Path) -> Iterator[Path]:
    for folder in ("src", "tests", "bench", "scripts"):
        for path in sorted((root / folder).rglob("*.py")):
            if path.relative_to(root) not in SELF and "__pycache__" not in path.parts:
                yield path
    yield from sorted((root / "docs").rglob("*.md"))
    for name in ("README.md", "pyproject.toml"):
        if (root / name).exists():
            yield root / name


def module_of(path: Path, src: Path, new_to_old: dict[str, str]) -> str | None:
    """The dotted name a file had *before* the move (relative imports resolve against it):
    under ``src/`` the package's, elsewhere (``tests.unit.providers.helpers``) the root's."""
    for base in (src, src.parent):
        if path.is_relative_to(base):
            rel = path.relative_to(base)
            break
    else:
        return None
    name = ".".join(rel.with_suffix("").parts)
    if name.endswith(".__init__"):
        return name.removesuffix(".__init__") + ".__init__"
    return new_to_old.get(name, name)


def resolve_relative(node: ast.ImportFrom, module: str | None, where: str = "") -> str:
    if not node.level:
        return node.module or ""
    if module is None:
        raise MoveError(f"{where}: a relative import outside any package")
    package = module.rsplit(".", 1)[0] if not module.endswith(".__init__") else module.removesuffix(".__init__")
    base = package.split(".")
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def alias_text(name: str, asname: str | None) -> str:
    return name if asname is None or asname == name else f"{name} as {asname}"


class Rewriter:
    def __init__(self, root: Path, plan: Plan) -> None:
        self.root, self.plan = root, plan
        self.src = root / "src"
        self.new_to_old = {v: k for k, v in plan.old_to_new.items()}
        # Bare "memory_gate.py" in prose is rewritten only when no other module, before or
        # after the move, has that file name ("config.py" is also mcp/config.py).
        files = {p.relative_to(root / "src/agenttui").as_posix() for p in (root / "src/agenttui").rglob("*.py")}
        files |= {new for _, new in MOVES}
        self.unique_bare = set()
        for old, new in MOVES:
            short = old.split("/", 1)[1]
            if not any(Path(f).name == short for f in files - {old, new}):
                self.unique_bare.add(short.removesuffix(".py"))
        old_names = "|".join(sorted(plan.short, key=len, reverse=True))
        self.dotted_re = re.compile(
            r"(?<![\w.])((?:agenttui\.)?core|agenttui\.agent)\.([A-Za-z_]\w*)((?:\.[A-Za-z_]\w*)*)")
        self.path_re = re.compile(rf"(?<![\w.-])(core|agent)/({old_names})\.py\b")
        data = "|".join(re.escape(old.split("/", 1)[1]) for old, _ in DATA_MOVES)
        self.data_re = re.compile(rf"(?<![\w.-])core/({data})")
        bare = "|".join(sorted(self.unique_bare, key=len, reverse=True))
        self.bare_re = re.compile(rf"(?<![\w./-])({bare})\.py\b")
        self.role_re = re.compile(r"(:(?:mod|func|class|meth|attr|data|exc|obj):`~?)([a-z_]\w*)((?:\.\w+)*)`")
        self.from_re = re.compile(r"\bfrom (agenttui\.(?:core|agent)) import (\w+(?: as \w+)?(?:, *\w+(?: as \w+)?)*)")
        renamed = sorted((short for short, new in plan.short.items()
                          if "_" in short and short != new.rsplit("/", 1)[-1] and short not in PROSE_KEEP),
                         key=len, reverse=True)
        self.prose_re = re.compile(rf"(?<![\w/.-])({'|'.join(renamed)})((?:\.[A-Za-z_]\w*)*)(?![\w/])")
        self.anchor_re = re.compile(r'resources\.files\("agenttui\.core"\)\.joinpath\("data/([\w.]+)"\)')

    # -- dotted names, paths, roles: any text outside import statements

    def layer_of(self, short: str) -> str:
        for old, _ in MOVES:
            if old.split("/", 1)[1].removesuffix(".py") == short:
                return old.split("/", 1)[0]
        raise KeyError(short)

    def rewrite_text(self, text: str) -> str:
        def dotted_sub(m: re.Match[str]) -> str:
            prefix, first, rest = m.group(1), m.group(2), m.group(3)
            if prefix == "core":  # "core.memory_gate" in prose: same rule, without the root
                mapped = self.plan.map_dotted(f"agenttui.core.{first}{rest}")
                return mapped.removeprefix("agenttui.")
            return self.plan.map_dotted(f"{prefix}.{first}{rest}")

        def path_sub(m: re.Match[str]) -> str:
            layer, short = m.group(1), m.group(2)
            if self.layer_of(short) != layer:
                return m.group(0)
            return f"{layer}/{self.plan.short[short]}.py"

        def data_sub(m: re.Match[str]) -> str:
            for old, new in DATA_MOVES:
                if old == f"core/{m.group(1)}":
                    return new
            return m.group(0)

        def bare_sub(m: re.Match[str]) -> str:
            return f"{self.plan.short[m.group(1)]}.py"

        def role_sub(m: re.Match[str]) -> str:
            role, first, rest = m.group(1), m.group(2), m.group(3)
            if first not in self.plan.short or (not rest and not role.startswith(":mod:")):
                return m.group(0)  # :func:`audit` is the function audit, not the module
            layer = self.layer_of(first)
            mapped = self.plan.map_dotted(f"agenttui.{layer}.{first}{rest}")
            return f"{role}{mapped.removeprefix(f'agenttui.{layer}.')}`"

        def anchor_sub(m: re.Match[str]) -> str:
            for old, new in DATA_MOVES:
                if old == f"core/data/{m.group(1)}":
                    package = dotted(new.rsplit("/data/", 1)[0] + ".py")
                    return f'resources.files("{package}").joinpath("data/{m.group(1)}")'
            return m.group(0)

        def from_sub(m: re.Match[str]) -> str:  # "from agenttui.core import x" inside a string
            base, names = m.group(1), [n.strip() for n in m.group(2).split(",")]
            moved = [n for n in names if f"{base}.{n.split(' as ')[0]}" in self.plan.pending]
            if not moved:
                return m.group(0)
            if len(names) > 1:
                raise MoveError(f"cannot split '{m.group(0)}' inside a string: write one import a name")
            name, _, asname = names[0].partition(" as ")
            parent, last = self.plan.old_to_new[f"{base}.{name}"].rsplit(".", 1)
            return f"from {parent} import {alias_text(last, asname or name)}"

        text = self.anchor_re.sub(anchor_sub, text)
        text = self.from_re.sub(from_sub, text)
        text = self.dotted_re.sub(dotted_sub, text)
        text = self.path_re.sub(path_sub, text)
        text = self.data_re.sub(data_sub, text)
        text = self.role_re.sub(role_sub, text)
        return self.bare_re.sub(bare_sub, text)

    # -- import statements, located by ast

    def import_edit(self, node: ast.Import | ast.ImportFrom, module: str | None, moved: bool,
                    where: str) -> str | None:
        """The statement(s) replacing ``node``, or None when it needs no change."""
        if isinstance(node, ast.Import):
            names = [(self.plan.map_dotted(a.name), a.asname) for a in node.names]
            if all(new == a.name for (new, _), a in zip(names, node.names, strict=True)):
                return None
            return "import " + ", ".join(alias_text(n, s) for n, s in names)
        base = resolve_relative(node, module, where)
        if not base.startswith("agenttui"):
            return None
        groups: dict[str, list[str]] = {}
        changed = False
        for a in node.names:
            target, name, asname = base, a.name, a.asname
            if base in self.plan.pending:  # the module itself moves
                target = self.plan.old_to_new[base]
            elif self.plan.map_dotted(base) != base:
                raise MoveError(f"{where}: cannot map 'from {base} import {a.name}'")
            elif f"{base}.{a.name}" in self.plan.pending:  # from agenttui.core import memory_file
                target, name = self.plan.old_to_new[f"{base}.{a.name}"].rsplit(".", 1)
                asname = a.asname or a.name
            if (target, name) != (base, a.name):
                changed = True
            groups.setdefault(target, []).append(alias_text(name, asname))
        if not changed and not (node.level and moved):  # a moved file's relative imports are written out
            return None
        return "\n".join(f"from {target} import {', '.join(names)}" for target, names in groups.items())

    def rewrite_python(self, path: Path, text: str) -> str:
        tree = ast.parse(text, filename=str(path))
        module = module_of(path, self.src, self.new_to_old)
        moved = module is not None and module != module_of(path, self.src, {})
        lines = text.splitlines(keepends=True)
        offsets = [0]
        for line in lines:
            offsets.append(offsets[-1] + len(line))

        def at(line: int, col: int) -> int:  # ast columns are UTF-8 byte offsets
            raw = lines[line - 1].encode("utf-8")[:col]
            return offsets[line - 1] + len(raw.decode("utf-8"))

        edits: list[tuple[int, int, str]] = []
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            assert node.end_lineno is not None and node.end_col_offset is not None
            start, end = at(node.lineno, node.col_offset), at(node.end_lineno, node.end_col_offset)
            where = f"{path.relative_to(self.root)}:{node.lineno}"
            new = self.import_edit(node, module, moved, where)
            if new is None:
                edits.append((start, end, text[start:end]))  # masked from the text pass as it is
                continue
            if "#" in text[start:end]:
                raise MoveError(f"{where}: a comment inside an import statement to rewrite")
            tail = text[end:offsets[node.end_lineno]]
            comment = tail.rstrip("\n").strip() if tail.strip().startswith("#") else ""
            indent = " " * node.col_offset
            statements = new.split("\n")
            if comment and len(statements) > 1:  # a trailing noqa (E402) holds for each of them
                new = f"  {comment}\n{indent}".join(statements)
            else:
                new = f"\n{indent}".join(statements)
            edits.append((start, end, new))
        edits.sort()
        out, pos = [], 0
        for start, end, new in edits:
            if start < pos:
                raise MoveError(f"{path}: overlapping import statements")
            out.append(self.rewrite_text(text[pos:start]))
            out.append(new)
            pos = end
        out.append(self.rewrite_text(text[pos:]))
        return "".join(out)

    def rewrite_prose(self, text: str) -> str:
        """Old module names in prose ("the gate (memory_gate)", ``recall_text.word_forms``)."""
        def sub(m: re.Match[str]) -> str:
            short, rest = m.group(1), m.group(2)
            layer = self.layer_of(short)
            if f"agenttui.{layer}.{short}" not in self.plan.pending:
                return m.group(0)
            return self.plan.short[short].replace("/", ".") + rest

        return self.prose_re.sub(sub, text)

    def rewrite_python_prose(self, path: Path, text: str) -> str:
        """:meth:`rewrite_prose` on comments and docstrings only: code keeps its identifiers."""
        spans: list[tuple[int, int]] = []
        lines = text.splitlines(keepends=True)
        offsets = [0]
        for line in lines:
            offsets.append(offsets[-1] + len(line))
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                (row, col), (end_row, end_col) = token.start, token.end
                spans.append((offsets[row - 1] + col, offsets[end_row - 1] + end_col))
        for node in ast.walk(ast.parse(text)):  # docstrings, not other triple-quoted strings (code for -c)
            body = getattr(node, "body", None)
            if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                doc = body[0].value
                assert doc.end_lineno is not None and doc.end_col_offset is not None
                spans.append((offsets[doc.lineno - 1] + len(lines[doc.lineno - 1].encode()[:doc.col_offset].decode()),
                              offsets[doc.end_lineno - 1]
                              + len(lines[doc.end_lineno - 1].encode()[:doc.end_col_offset].decode())))
        spans.sort()
        out, pos = [], 0
        for start, end in spans:
            out.append(text[pos:start])
            out.append(self.rewrite_prose(text[start:end]))
            pos = end
        out.append(text[pos:])
        return "".join(out)

    def run(self, dry_run: bool) -> list[Path]:
        changed = []
        for path in text_files(self.root):
            text = path.read_text(encoding="utf-8")
            if path.suffix == ".py":
                new = self.rewrite_python_prose(path, self.rewrite_python(path, text))
            else:
                new = self.rewrite_prose(self.rewrite_text(text))
            if new != text:
                changed.append(path)
                if not dry_run:
                    path.write_text(new, encoding="utf-8")
        return changed


# --------------------------------------------------------------------------- the module map


def first_line(doc: str | None) -> str:
    return (doc or "").strip().split("\n\n")[0].replace("\n", " ").strip()


def module_map(root: Path) -> str:
    """docs/architecture.md's map of core/ and agent/tools/, from the docstrings on disk."""
    src = root / "src/agenttui"
    rows = ["| package | holds | modules |", "|---|---|---|"]
    top = sorted(p.stem for p in (src / "core").glob("*.py") if p.stem != "__init__")
    rows.append("| `core/` | The foundations every family uses: plain data, safe file writes, error "
                "text, token estimates, the services the core sees, incognito. | "
                + ", ".join(f"`{m}`" for m in top) + " |")
    for package in PACKAGES:
        folder = src / package
        if not folder.is_dir():
            continue
        doc = first_line(ast.get_docstring(ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))))
        modules = sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__")
        rows.append(f"| `{package}/` | {doc} | " + ", ".join(f"`{m}`" for m in modules) + " |")
    return "\n".join([MAP_START, *rows, MAP_END])


def write_module_map(root: Path, dry_run: bool) -> bool:
    page = root / "docs/architecture.md"
    text = page.read_text(encoding="utf-8")
    block = module_map(root)
    if MAP_START in text:
        head, _, rest = text.partition(MAP_START)
        _, _, tail = rest.partition(MAP_END)
        new = head + block + tail
    else:
        anchor = "Imports point down only:"
        if anchor not in text:
            raise MoveError(f"docs/architecture.md: no '{anchor}' to put the module map before")
        new = text.replace(anchor, "The packages of the core and the agent's tools:\n\n" + block + "\n\n" + anchor, 1)
    if new != text and not dry_run:
        page.write_text(new, encoding="utf-8")
    return new != text


# --------------------------------------------------------------------------- checks


def top_level_names(tree: ast.Module) -> set[str] | None:
    """Names a module defines at import (None: it has a module __getattr__, anything goes)."""
    names: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
            elif isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
            elif isinstance(node, ast.Import):
                names.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                names.update(a.asname or a.name for a in node.names)
            elif isinstance(node, ast.If | ast.Try | ast.With):
                visit(node.body)
                visit(getattr(node, "orelse", []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)
                visit(getattr(node, "finalbody", []))
            elif type(node).__name__ == "TypeAlias":  # `type X = ...` (3.12)
                names.add(node.name.id)  # type: ignore[attr-defined]

    visit(tree.body)
    return None if "__getattr__" in names else names


def check_imports(root: Path, new_to_old: dict[str, str]) -> list[str]:
    """Every agenttui import in the tree resolves: the module exists and defines each name."""
    src = root / "src"
    cache: dict[str, set[str] | None] = {}

    def find(module: str) -> Path | None:
        base = src / module.replace(".", "/")
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.exists():
                return candidate
        return None

    def names_of(module: str) -> set[str] | None:
        if module not in cache:
            file = find(module)
            cache[module] = top_level_names(ast.parse(file.read_text(encoding="utf-8"))) if file else set()
        return cache[module]

    problems = []
    for path in text_files(root):
        if path.suffix != ".py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = module_of(path, src, {})
        for node in ast.walk(tree):
            where = f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.startswith("agenttui") and find(a.name) is None:
                        problems.append(f"{where}: no module {a.name}")
            elif isinstance(node, ast.ImportFrom):
                base = resolve_relative(node, module, where)
                if not base.startswith("agenttui"):
                    continue
                if find(base) is None:
                    problems.append(f"{where}: no module {base}")
                    continue
                defined = names_of(base)
                for a in node.names:
                    if a.name == "*" or defined is None or a.name in defined or find(f"{base}.{a.name}"):
                        continue
                    problems.append(f"{where}: {base} has no {a.name}")
    return problems


def leftovers(root: Path, plan: Plan) -> list[str]:
    """Old names of renamed modules still in the text (prose the rules did not recognise), to read
    by hand; a name a Python file binds itself (``import ... as memory_file``) is not reported."""
    names = sorted(s for s, new in plan.short.items()
                   if "_" in s and s != new.rsplit("/", 1)[-1] and s not in PROSE_KEEP)
    pattern = re.compile(rf"(?<![\w/.])({'|'.join(names)})(?![\w/])")
    found = []
    for path in text_files(root):
        text = path.read_text(encoding="utf-8")
        bound = set(re.findall(r"\bas (\w+)", text)) if path.suffix == ".py" else set()
        for number, line in enumerate(text.splitlines(), 1):
            for m in pattern.finditer(line):
                if m.group(1) not in bound:
                    found.append(f"{path.relative_to(root)}:{number}: {m.group(1)}: {line.strip()[:110]}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("root", type=Path, help="the repository root (a git work tree)")
    parser.add_argument("--dry-run", action="store_true", help="say what would change, change nothing")
    parser.add_argument("--no-leftovers", action="store_true", help="skip the report of old names in prose")
    args = parser.parse_args(argv)
    root: Path = args.root.resolve()
    src = root / "src/agenttui"
    try:
        if not (src / PRECONDITION).exists() and not (src / "agent/tools/spec.py").exists():
            raise MoveError(f"{PRECONDITION} is missing: apply the commit that splits the tool types "
                            "out of agent/tools.py first (it breaks the tools.py <-> tool_*.py cycle)")
        unplaced = sorted(str(p.relative_to(src)) for p in [*(src / "core").glob("*.py"),
                                                             *(src / "agent").glob("tool*.py"),
                                                             *(src / "agent").glob("shell_*.py")]
                          if str(p.relative_to(src)) not in STAY | {old for old, _ in MOVES})
        if unplaced:
            raise MoveError("modules in neither MOVES nor STAY (add each where it fits): " + ", ".join(unplaced))
        plan = Plan.build(src.parent)  # before moving: which old modules are still there
        Rewriter(root, plan).run(dry_run=True)  # what it cannot map stops it before anything moves
        moved = move_files(root, args.dry_run)
        rewriter = Rewriter(root, plan)
        changed = rewriter.run(args.dry_run)
        python = [str(p) for p in changed if p.suffix == ".py"]
        if python and not args.dry_run:
            subprocess.run([sys.executable, "-m", "ruff", "check", "--quiet", "--no-cache", "--select", "I",
                            "--fix", *python], cwd=root, check=False)
        for name, before, after in HAND_FIXES if not args.dry_run else ():
            path = root / name
            text = path.read_text(encoding="utf-8") if path.exists() else ""
            if before in text:
                path.write_text(text.replace(before, after), encoding="utf-8")
                changed.append(path)
            elif after not in text:
                print(f"  hand fix no longer matches: {name}: {before.strip()[:80]}")
        mapped = write_module_map(root, args.dry_run) if not args.dry_run else False
        print(f"moved {len(moved)} files, rewrote {len(changed)} files"
              + (", module map updated" if mapped else ""))
        for line in moved:
            print("  mv", line)
        if not args.dry_run:
            problems = check_imports(root, rewriter.new_to_old)
            if problems:
                raise MoveError("imports that do not resolve:\n  " + "\n  ".join(problems))
            lint = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format",
                                   "concise", "src", "tests", "bench", "scripts"], cwd=root, text=True,
                                  capture_output=True)
            if lint.returncode:
                raise MoveError("ruff finds (add a HAND_FIXES entry):\n" + lint.stdout)
            staged = {str(p.relative_to(root)) for p in changed} | ({"docs/architecture.md"} if mapped else set())
            if staged:  # exactly the files this script changed (the moves are staged by git mv)
                git(root, "add", "--", *sorted(staged))
        if not args.no_leftovers:
            for line in leftovers(root, plan):
                print("  old name left:", line)
    except MoveError as error:
        print(f"move_core_modules: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
