"""The shell tool (docs/agent.md#tools): always asks; runs bounded; output captured and capped.

* **Approval** -- every call needs it; the summary is the exact command text
  (never a paraphrase) and the risk comes from :func:`shell_risk`.
* **Where** -- in the profile's first project directory, else the current
  directory. stdin is ``/dev/null`` (an interactive prompt would hang).
* **Bounded** -- ``timeout_seconds`` (default 30, never above
  ``agent.max_seconds``); on timeout or cancellation the whole process group
  is killed (``start_new_session``), so ``sleep 100 &`` children die too.
* **Output** -- stdout and stderr interleaved as the terminal would show them;
  read incrementally so a command printing gigabytes costs bounded memory:
  the head and a tail are kept, the middle is replaced by a marker with the
  byte count. Secrets in the output are redacted before the model sees them
  (also hex-dumped, base64'd or reversed ones; a credential file read through
  a transforming command such as ``xxd .env`` is withheld whole), and our own
  ``OPENAI_API_KEY`` is not passed to the command.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agenttui.agent.tools.shell_risk import shell_risk
from agenttui.agent.tools.spec import Approval, ToolContext, ToolOutcome, ToolSpec

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

DEFAULT_TIMEOUT = 30
MAX_TIMEOUT = 600
CHUNK = 65_536
_HIDDEN_ENV = ("OPENAI_API_KEY",)


def specs(settings: Any) -> list[ToolSpec]:
    return [
        ToolSpec(
            name="run_shell",
            description=(
                "Run a shell command (POSIX sh) in the project directory. The user sees the "
                "exact command and must approve it. No interactive input. Returns the "
                "combined stdout/stderr (long output is shortened) and the exit code."
            ),
            parameters={
                "type": "object",
                "properties": {
                    "command": {"type": "string", "minLength": 1},
                    "timeout_seconds": {"type": "integer", "minimum": 1,
                                        "maximum": MAX_TIMEOUT, "default": DEFAULT_TIMEOUT},
                },
                "required": ["command"],
                "additionalProperties": False,
            },
            run=run_shell,
            approval=shell_approval,
        )
    ]


def shell_approval(context: ToolContext, args: dict[str, Any]) -> Approval:
    command = args["command"]
    return True, command, shell_risk(command)


class _Capture:
    """Keeps the first ``head`` and last ``tail`` bytes of a stream, counts the rest."""

    def __init__(self, limit: int) -> None:
        self.head_limit = max(1, limit * 3 // 4)
        self.tail_limit = max(1, limit - self.head_limit)
        self.head = bytearray()
        self.tail: deque[bytes] = deque()
        self.tail_size = 0
        self.total = 0

    def add(self, data: bytes) -> None:
        self.total += len(data)
        room = self.head_limit - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data:
            self.tail.append(data)
            self.tail_size += len(data)
            while self.tail_size - len(self.tail[0]) >= self.tail_limit:
                self.tail_size -= len(self.tail.popleft())

    def text(self) -> str:
        tail = b"".join(self.tail)[-self.tail_limit :] if self.tail else b""
        omitted = self.total - len(self.head) - len(tail)
        head = self.head.decode("utf-8", errors="replace")
        if omitted <= 0:
            return head + tail.decode("utf-8", errors="replace")
        marker = f"\n[… {omitted} bytes of output omitted …]\n"
        return head + marker + tail.decode("utf-8", errors="replace")


def _working_dir(services: Services) -> Path:
    from agenttui.agent.tools.files import project_roots

    roots = [r for r in project_roots(services) if r.is_dir()]
    return roots[0] if roots else Path.cwd()


def _kill_group(process: asyncio.subprocess.Process) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


async def _pump(stream: asyncio.StreamReader, capture: _Capture) -> None:
    while True:
        data = await stream.read(CHUNK)
        if not data:
            return
        capture.add(data)


async def run_shell(context: ToolContext, args: dict[str, Any]) -> ToolOutcome:
    command: str = args["command"]
    limit = min(int(args["timeout_seconds"]), int(context.settings.agent.max_seconds) or MAX_TIMEOUT)
    limit = max(1, limit)
    env = {k: v for k, v in os.environ.items() if k not in _HIDDEN_ENV}
    shell = shutil.which("sh") or "/bin/sh"
    capture = _Capture(context.max_output)
    process = await asyncio.create_subprocess_exec(
        shell, "-c", command,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        cwd=_working_dir(context.services),
        env=env,
        start_new_session=True,
    )
    assert process.stdout is not None
    timed_out = False
    deadline = asyncio.get_running_loop().time() + limit
    try:
        await asyncio.wait_for(_pump(process.stdout, capture), timeout=limit)
        remaining = deadline - asyncio.get_running_loop().time()
        await asyncio.wait_for(process.wait(), timeout=max(0.05, remaining))
    except TimeoutError:
        timed_out = True
    except BaseException:  # cancelled: leave nothing running behind the user's back
        _kill_group(process)
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(process.wait(), timeout=2)
        raise
    finally:
        if timed_out:
            _kill_group(process)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), timeout=2)
    output = _redact(context, command, capture.text()).rstrip("\n") or "(no output)"
    if timed_out:
        return ToolOutcome(f"{output}\n[timed out after {limit} s; the command was killed]",
                           ok=False)
    code = process.returncode
    return ToolOutcome(f"{output}\n[exit code {code}]", ok=code == 0)


def _redact(context: ToolContext, command: str, text: str) -> str:
    """Secrets redacted, also when the command hex-dumped, reversed or base64'd
    them; the output of a credential file read through a transforming command
    is withheld (security.transformed)."""
    from agenttui.security.transformed import redact_tool_output

    return redact_tool_output(command, text, tuple(context.settings.redaction.extra_patterns))
