"""The largest functions and classes under ``src/``, at a git revision or in the work tree.

    .venv/bin/python scripts/largest_definitions.py [REV] [--top 6] [--over 60]

Lines from ``def``/``class`` to the definition's last line, docstring included
(``ast``'s ``lineno``/``end_lineno``). The code-health figures in closing notes
come from here: run it on the revision before and after a change.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def sources(rev: str | None) -> dict[str, str]:
    """Path -> text of every Python file under src/ (at ``rev``, or as on disk)."""
    if rev is None:
        return {str(p.relative_to(ROOT)): p.read_text() for p in sorted((ROOT / "src").rglob("*.py"))}
    names = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev, "src/"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split()
    return {name: subprocess.run(["git", "show", f"{rev}:{name}"], cwd=ROOT, check=True, capture_output=True,
                                 text=True).stdout
            for name in names if name.endswith(".py")}


def definitions(files: dict[str, str]) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(lines, "module.py:name") of every function and every class."""
    functions, classes = [], []
    for path, text in files.items():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                found = classes if isinstance(node, ast.ClassDef) else functions
                found.append((size, f"{Path(path).name}:{node.name}"))
    return sorted(functions, reverse=True), sorted(classes, reverse=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", nargs="?", help="a git revision (default: the work tree)")
    parser.add_argument("--top", type=int, default=6)
    parser.add_argument("--over", type=int, default=60, help="count the functions longer than this")
    args = parser.parse_args()
    functions, classes = definitions(sources(args.rev))
    where = args.rev or "work tree"
    print(f"{where} functions: " + ", ".join(f"{name} {n}" for n, name in functions[: args.top]))
    print(f"{where} classes:   " + ", ".join(f"{name} {n}" for n, name in classes[: args.top]))
    print(f"{where} functions over {args.over} lines: {sum(n > args.over for n, _ in functions)} "
          f"of {len(functions)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
