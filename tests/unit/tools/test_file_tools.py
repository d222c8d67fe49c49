"""read_file / list_directory stay inside the profile's project directory."""

from __future__ import annotations

import os

import pytest

from agenttui.agent.tools.registry import ToolRegistry
from tests.unit.tools.conftest import run


async def test_read_a_file_relative_to_the_project(project_services):
    outcome = await run(ToolRegistry(project_services), "read_file", {"path": "README.md"})
    assert outcome.ok
    assert outcome.output == "README.md (lines 1-2)\n# Demo\nhello\n"


async def test_absolute_path_inside_the_project_is_fine(project_services, project_dir):
    outcome = await run(ToolRegistry(project_services), "read_file",
                        {"path": str(project_dir / "src" / "app.py")})
    assert outcome.ok and "print('hi')" in outcome.output


@pytest.mark.parametrize("path", ["../outside.txt", "src/../../outside.txt", "../proj/../outside.txt"])
async def test_dotdot_escapes_are_refused(project_services, project_dir, path):
    (project_dir.parent / "outside.txt").write_text("top secret")
    outcome = await run(ToolRegistry(project_services), "read_file", {"path": path})
    assert not outcome.ok
    assert "outside the project directory" in outcome.output
    assert "top secret" not in outcome.output


async def test_absolute_paths_outside_are_refused(project_services, tmp_path):
    (tmp_path / "elsewhere.txt").write_text("nope")
    registry = ToolRegistry(project_services)
    for path in (str(tmp_path / "elsewhere.txt"), "/etc/passwd", "~/.ssh/id_rsa"):
        outcome = await run(registry, "read_file", {"path": path})
        assert not outcome.ok and "outside the project directory" in outcome.output, path


async def test_symlink_pointing_outside_is_refused(project_services, project_dir, tmp_path):
    (tmp_path / "secret.txt").write_text("private")
    os.symlink(tmp_path / "secret.txt", project_dir / "link.txt")
    os.symlink(tmp_path, project_dir / "linkdir")
    registry = ToolRegistry(project_services)
    for args in ({"path": "link.txt"}, {"path": "linkdir/secret.txt"}):
        outcome = await run(registry, "read_file", args)
        assert not outcome.ok and "outside the project directory" in outcome.output
    outcome = await run(registry, "list_directory", {"path": "linkdir"})
    assert not outcome.ok and "outside the project directory" in outcome.output


async def test_symlink_inside_the_project_is_followed(project_services, project_dir):
    os.symlink(project_dir / "README.md", project_dir / "readme-link")
    outcome = await run(ToolRegistry(project_services), "read_file", {"path": "readme-link"})
    assert outcome.ok and "# Demo" in outcome.output


async def test_no_bound_project_directory_is_a_clear_error(services):
    outcome = await run(ToolRegistry(services), "read_file", {"path": "README.md"})
    assert not outcome.ok
    assert "no project directory is bound to profile 'default'" in outcome.output
    assert "agenttui profile create" in outcome.output
    outcome = await run(ToolRegistry(services), "list_directory", {})
    assert not outcome.ok and "no project directory" in outcome.output


async def test_missing_directory_binary_and_special_files(project_services, project_dir):
    registry = ToolRegistry(project_services)
    assert "no such file" in (await run(registry, "read_file", {"path": "nope.txt"})).output
    assert "is a directory" in (await run(registry, "read_file", {"path": "src"})).output
    (project_dir / "blob.bin").write_bytes(b"\x00\x01\x02" * 100)
    outcome = await run(registry, "read_file", {"path": "blob.bin"})
    assert outcome.output == "blob.bin is a binary file (300 bytes); not shown"
    os.mkfifo(project_dir / "pipe")
    outcome = await run(registry, "read_file", {"path": "pipe"})  # must not block
    assert not outcome.ok and "not a regular file" in outcome.output


async def test_long_files_are_paged(project_services, project_dir):
    (project_dir / "long.txt").write_text("".join(f"line {k}\n" for k in range(1, 1001)))
    registry = ToolRegistry(project_services)
    first = await run(registry, "read_file", {"path": "long.txt", "max_lines": 10})
    assert first.output.startswith("long.txt (lines 1-10)\nline 1\n")
    assert "continue with offset=11" in first.output
    second = await run(registry, "read_file", {"path": "long.txt", "offset": 11, "max_lines": 5})
    assert "line 11\n" in second.output and "line 16" not in second.output


async def test_output_is_bounded_by_max_tool_output(project_services, project_dir):
    project_services.settings.agent.max_tool_output = 1_000
    (project_dir / "wide.txt").write_text(("x" * 99 + "\n") * 500)
    outcome = await run(ToolRegistry(project_services), "read_file", {"path": "wide.txt"})
    assert len(outcome.output) < 1_200
    assert "continue with offset=" in outcome.output
    (project_dir / "oneline.txt").write_text("y" * 50_000)
    outcome = await run(ToolRegistry(project_services), "read_file", {"path": "oneline.txt"})
    assert len(outcome.output) < 1_200


async def test_secrets_in_files_are_redacted(project_services, project_dir):
    secret = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAB7CD0EF"
    (project_dir / ".env").write_text(f"OPENAI_API_KEY={secret}\nDEBUG=1\n")
    outcome = await run(ToolRegistry(project_services), "read_file", {"path": ".env"})
    assert outcome.ok and secret not in outcome.output and "DEBUG=1" in outcome.output


async def test_list_directory(project_services, project_dir):
    os.symlink(project_dir / "README.md", project_dir / "alias")
    outcome = await run(ToolRegistry(project_services), "list_directory", {})
    assert outcome.ok
    assert outcome.output.splitlines() == ["./", "README.md  (13 bytes)", "alias@", "src/"]
    outcome = await run(ToolRegistry(project_services), "list_directory", {"path": "src"})
    assert outcome.output.splitlines() == ["src/", "app.py  (12 bytes)"]
    outcome = await run(ToolRegistry(project_services), "list_directory", {"path": ".."})
    assert not outcome.ok
