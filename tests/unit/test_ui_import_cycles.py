"""No module of ``agenttui.ui`` imports itself back through others (imports inside functions and
under ``TYPE_CHECKING`` count too).

The import-linter contracts in pyproject.toml hold the packages (no circle among the modules of
``ui/widgets``, ``ui/screens``, ``ui/slash``; the app above the main screen above the panes);
this test holds every module of ``ui/``, across packages.
"""

from __future__ import annotations

import grimp


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_finder_sees_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_ui_modules_import_no_circle() -> None:
    graph = grimp.build_graph("agenttui", cache_dir=None)
    ui = {m for m in graph.modules if m == "agenttui.ui" or m.startswith("agenttui.ui.")}
    edges = {m: graph.find_modules_directly_imported_by(m) & ui for m in ui}
    assert _circles(edges) == []
