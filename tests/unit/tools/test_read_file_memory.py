"""``read_file`` bounds memory by bytes, even for one 300 MB line.

The long lines live in sparse files (a few KiB of text, then a hole the
filesystem stores as nothing): creating them costs no disk and no time. Peak
memory is measured with tracemalloc, which sees every bytes/str object the
tool allocates.
"""

from __future__ import annotations

import tracemalloc

from agenttui.agent.tools.registry import ToolRegistry
from tests.unit.tools.conftest import run

MB = 1024 * 1024


def sparse_line(path, size: int, head: bytes = b"a" * 16_384, tail: bytes = b"\n") -> None:
    """One line of ``size`` bytes: text first (so it is not sniffed as binary), then a hole."""
    with path.open("wb") as handle:
        handle.write(head)
        handle.truncate(size - len(tail))
        handle.seek(size - len(tail))
        handle.write(tail)


async def measured(registry, arguments):
    tracemalloc.start()
    try:
        outcome = await run(registry, "read_file", arguments)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return outcome, peak


async def test_a_300_mb_single_line_is_read_in_bounded_memory(project_services, project_dir):
    project_services.settings.agent.max_tool_output = 20_000
    sparse_line(project_dir / "huge.min.js", 300 * MB)
    outcome, peak = await measured(ToolRegistry(project_services), {"path": "huge.min.js"})
    assert outcome.ok
    assert outcome.output.startswith("huge.min.js (lines 1-1)\n" + "a" * 1000)
    assert "line 1 is longer than the 20000-character output limit" in outcome.output
    assert "the next line is offset=2" in outcome.output
    assert len(outcome.output) < 20_000 + 400
    assert peak < 4 * MB, peak  # the old reader held the whole line: > 300 MB


async def test_skipping_past_a_huge_line_to_an_offset_is_bounded_too(project_services, project_dir):
    path = project_dir / "two.txt"
    sparse_line(path, 64 * MB, tail=b"\n")
    with path.open("ab") as handle:
        handle.write(b"second line\n")
    outcome, peak = await measured(ToolRegistry(project_services), {"path": "two.txt", "offset": 2})
    assert outcome.ok and outcome.output == "two.txt (lines 2-2)\nsecond line\n"
    assert peak < 4 * MB, peak


async def test_a_cut_never_splits_a_character_and_short_lines_still_page(project_services, project_dir):
    project_services.settings.agent.max_tool_output = 1_000
    (project_dir / "wide.txt").write_text("日本語" * 2_000 + "\nnext\n", encoding="utf-8")
    outcome = await run(ToolRegistry(project_services), "read_file", {"path": "wide.txt"})
    body = outcome.output.split("\n")[1]
    assert body == ("日本語" * 2_000)[:1_000] and "\ufffd" not in body
    (project_dir / "short.txt").write_text("".join(f"{k}\n" for k in range(10)))
    paged = await run(ToolRegistry(project_services), "read_file", {"path": "short.txt", "max_lines": 3})
    assert paged.output == "short.txt (lines 1-3)\n0\n1\n2\n\n[… more lines follow; continue with offset=4]"
    beyond = await run(ToolRegistry(project_services), "read_file", {"path": "short.txt", "offset": 12})
    assert not beyond.ok and "has only 10 lines" in beyond.output
