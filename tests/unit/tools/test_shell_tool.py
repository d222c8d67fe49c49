"""run_shell: always approved first, bounded in time and output, nothing left running."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from agenttui.agent.tools.registry import ToolRegistry
from tests.unit.tools.conftest import call, run


def alive(pid: int) -> bool:
    """Running (a zombie whose parent was killed counts as dead: nothing runs)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def gone(pid: int, timeout: float = 10.0) -> bool:
    """True once ``pid`` is dead (the kill signal takes a moment to land); False if it lingers."""
    deadline = time.monotonic() + timeout
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


def test_every_shell_call_needs_approval_with_the_exact_command(services):
    registry = ToolRegistry(services)
    command = "ls -la   src  # look"
    assert registry.needs_approval(call("run_shell", {"command": command})) == (True, command, "low")
    assert registry.needs_approval(call("run_shell", {"command": "rm -rf build"})) == (
        True, "rm -rf build", "high")


async def test_output_and_exit_code(services):
    outcome = await run(ToolRegistry(services), "run_shell", {"command": "echo hello; echo oops >&2"})
    assert outcome.ok
    assert outcome.output == "hello\noops\n[exit code 0]"


async def test_failure_exit_code_is_not_ok(services):
    outcome = await run(ToolRegistry(services), "run_shell", {"command": "echo nope; exit 3"})
    assert not outcome.ok and outcome.output.endswith("[exit code 3]")


async def test_runs_in_the_project_directory_without_stdin(project_services, project_dir):
    outcome = await run(ToolRegistry(project_services), "run_shell", {"command": "pwd; cat"})
    assert outcome.ok
    assert outcome.output.splitlines()[0] == os.path.realpath(project_dir)


async def test_our_api_key_is_not_passed_to_commands(services, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-should-not-leak")
    outcome = await run(ToolRegistry(services), "run_shell",
                        {"command": 'echo "key=[${OPENAI_API_KEY:-unset}]"'})
    assert "key=[unset]" in outcome.output


@pytest.mark.slow
async def test_timeout_kills_the_whole_process_group(services, tmp_path):
    pidfile = tmp_path / "child.pid"
    started = time.monotonic()
    outcome = await run(ToolRegistry(services), "run_shell", {
        "command": f"sleep 30 & echo $! > {pidfile}; echo started; wait",
        "timeout_seconds": 1,
    })
    assert time.monotonic() - started < 10
    assert not outcome.ok
    assert "started" in outcome.output
    assert "[timed out after 1 s; the command was killed]" in outcome.output
    child = int(pidfile.read_text())
    assert await gone(child)


@pytest.mark.slow
async def test_timeout_never_exceeds_max_seconds(services):
    services.settings.agent.max_seconds = 1
    outcome = await run(ToolRegistry(services), "run_shell",
                        {"command": "sleep 20", "timeout_seconds": 600})
    assert "[timed out after 1 s" in outcome.output


async def test_huge_output_is_truncated_keeping_head_and_tail(services):
    services.settings.agent.max_tool_output = 2_000
    outcome = await run(ToolRegistry(services), "run_shell", {
        "command": "echo FIRST; head -c 3000000 /dev/zero | tr '\\0' 'x'; echo; echo LAST",
    })
    assert outcome.ok
    assert len(outcome.output) < 2_200
    assert outcome.output.startswith("FIRST")
    assert "LAST\n[exit code 0]" in outcome.output
    assert "bytes of output omitted" in outcome.output


async def test_secrets_in_output_are_redacted(services):
    secret = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAB7CD0EF"
    outcome = await run(ToolRegistry(services), "run_shell", {"command": f"echo {secret}"})
    assert secret not in outcome.output and "REDACTED" in outcome.output


async def test_cancellation_kills_the_command(services, tmp_path):
    pidfile = tmp_path / "pid"
    registry = ToolRegistry(services)
    task = asyncio.ensure_future(registry.execute(
        call("run_shell", {"command": f"echo $$ > {pidfile}; sleep 30"})))
    for _ in range(100):
        if pidfile.exists() and pidfile.read_text().strip():
            break
        await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    shell = int(pidfile.read_text())
    assert await gone(shell)
