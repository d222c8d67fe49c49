"""MCP figures: first paint with five servers configured, and the
overhead of a tool call through agenttui over a direct SDK call.

    .venv/bin/python bench/bench_mcp.py [--runs 7] [--calls 200]

* ``first_paint_mcp_ratio`` -- time to first paint (the three pane titles on a
  pty screen, bench_first_paint.py's measure) with five stdio servers in
  config.toml (mcp-server-time twice, mcp-server-git, the hostile test server
  twice) vs none. Runs alternate. Goal <= 1.0 (within noise): servers start
  after the panes are up.
* ``tool_call_overhead`` -- median of ``ToolRegistry.needs_approval`` +
  ``execute`` of ``mcp__time__get_current_time`` (approval check, the bridge,
  output bounding and redaction) minus the median of the same call made with
  the SDK's ``Client.call_tool`` on its own connection to another process of
  the same server; calls interleaved. Goal <= 10 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_first_paint import (  # noqa: E402 -- after the sys.path lines above
    AGENTTUI,
    compare,
    env_for,
    populate,
    time_to_paint,
    titles_visible,
)

BIN = Path(sys.executable).parent
HOSTILE = str(ROOT / "tests" / "mcp" / "hostile_server.py")


def five_servers(home: Path, repo: Path) -> None:
    from agenttui.core.config.paths import Paths
    from agenttui.mcp.config import servers_table, update

    servers = {
        "time": {"command": str(BIN / "mcp-server-time")},
        "time2": {"command": str(BIN / "mcp-server-time"), "args": ["--local-timezone", "UTC"]},
        "git": {"command": str(BIN / "mcp-server-git"), "args": ["--repository", str(repo)]},
        "bad": {"command": sys.executable, "args": [HOSTILE]},
        "bad2": {"command": sys.executable, "args": [HOSTILE, "--stderr"]},
    }
    update(Paths.from_env({"AGENTTUI_HOME": str(home)}),
           lambda mcp: servers_table(mcp, "user", "default").update(servers))


def make_repo(repo: Path) -> None:
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)


async def tool_call_overhead(calls: int) -> tuple[float, float]:
    from agenttui.agent.tools.registry import ToolRegistry
    from agenttui.bootstrap import build_services
    from agenttui.core.config.paths import Paths
    from agenttui.core.models import ToolCall
    from agenttui.mcp.config import servers_table, update
    from agenttui.mcp.manager import attach, detach
    from mcp import Client, StdioServerParameters

    with tempfile.TemporaryDirectory(prefix="agenttui-bench-mcp-") as tmp:
        paths = Paths.from_env({"AGENTTUI_HOME": tmp})
        update(paths, lambda mcp: servers_table(mcp, "user", "default").__setitem__(
            "time", {"command": str(BIN / "mcp-server-time")}))
        services = build_services(paths=paths, cwd=Path(tmp), environ={})
        manager = attach(services)
        manager.start_all()
        await manager.wait_started(30)
        registry = ToolRegistry(services)
        call = ToolCall(id="c", name="mcp__time__get_current_time", arguments=json.dumps({"timezone": "UTC"}))
        ours, direct = [], []
        async with Client(StdioServerParameters(command=str(BIN / "mcp-server-time"))) as client:
            for _ in range(10):  # warm both paths (imports, caches)
                await client.call_tool("get_current_time", {"timezone": "UTC"})
                await registry.execute(call)
            async def one_direct() -> None:
                start = time.perf_counter()
                await client.call_tool("get_current_time", {"timezone": "UTC"})
                direct.append(time.perf_counter() - start)

            async def one_ours() -> None:
                start = time.perf_counter()
                registry.needs_approval(call)
                outcome = await registry.execute(call)
                ours.append(time.perf_counter() - start)
                assert outcome.ok, outcome.output

            for n in range(calls):  # the order alternates: neither path always goes first
                for step in ((one_direct, one_ours) if n % 2 else (one_ours, one_direct)):
                    await step()
        await detach(services)
        services.close()
    return statistics.median(ours), statistics.median(direct)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--skip-paint", action="store_true")
    args = parser.parse_args()
    ours, direct = asyncio.run(tool_call_overhead(args.calls))
    print(f"tool call ({args.calls} calls): through agenttui median {ours * 1000:.2f} ms   "
          f"direct SDK median {direct * 1000:.2f} ms   ratio {ours / direct:.2f}")
    print(f"tool_call_overhead = {(ours - direct) * 1000:.2f} ms   (goal <= 10 ms)")
    if args.skip_paint:
        return 0
    with tempfile.TemporaryDirectory(prefix="agenttui-bench-") as tmp:
        tmp_path = Path(tmp)
        none, five = tmp_path / "none", tmp_path / "five"
        populate(none, conversations=20, per_conversation=10, notes=10)
        populate(five, conversations=20, per_conversation=10, notes=10)
        make_repo(tmp_path / "repo")
        five_servers(five, tmp_path / "repo")
        cwd = str(tmp_path)
        print(f"first paint, five MCP servers vs none ({args.runs} runs):")
        a, b = compare(
            "five servers", lambda: time_to_paint([str(AGENTTUI)], env_for(five), titles_visible, cwd),
            "no server", lambda: time_to_paint([str(AGENTTUI)], env_for(none), titles_visible, cwd),
            args.runs)
        print(f"first_paint_mcp_ratio = {a / b:.2f}   (goal <= 1.0, within noise)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
