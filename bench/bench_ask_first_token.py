"""Time for ``agenttui ask`` to print the first token, vs the raw openai client.

Both run as fresh subprocesses of the same interpreter against the same local
fake server and stream the same reply; the clock runs from spawn to the first
byte of the reply on stdout. The difference is what agenttui adds before the
request goes out (CLI parsing, services, history/memory/project reads, prompt
assembly, persisting the user message) plus its imports.

Run: ``.venv/bin/python bench/bench_ask_first_token.py [--runs 15]``
Prints medians and the ratio ask/raw.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fakes.openai_server import FakeOpenAI, long_text  # noqa: E402

RAW_CLIENT = """
import asyncio, os, sys, openai
async def main():
    client = openai.AsyncOpenAI(base_url=os.environ["OPENAI_BASE_URL"],
                                api_key=os.environ["OPENAI_API_KEY"], max_retries=0)
    stream = await client.chat.completions.create(
        model="gpt-4o-mini", stream=True, stream_options={"include_usage": True},
        messages=[{"role": "system", "content": "You are helpful."},
                  {"role": "user", "content": sys.argv[1]}])
    async for chunk in stream:
        if chunk.choices and chunk.choices[0].delta.content:
            sys.stdout.write(chunk.choices[0].delta.content)
            sys.stdout.flush()
    await client.close()
asyncio.run(main())
"""


def first_byte(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, bufsize=0)
    assert proc.stdout is not None
    byte = proc.stdout.read(1)
    elapsed = time.perf_counter() - started
    proc.stdout.read()
    proc.wait()
    if not byte:
        raise SystemExit(f"no output from {argv[:4]}: {proc.stderr.read().decode()}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with FakeOpenAI(default_reply=long_text(300)) as server, tempfile.TemporaryDirectory() as home:
        # PYTHONDONTWRITEBYTECODE is dropped so the warm-up run leaves .pyc files for
        # agenttui as an install has them (openai's came with the wheel): otherwise
        # every ask would compile agenttui's modules from source and the raw client not.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(AGENTTUI_HOME=home, OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY="sk-bench",
                   PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
        ask = [sys.executable, "-m", "agenttui", "ask", "hello there"]
        raw = [sys.executable, "-c", RAW_CLIENT, "hello there"]
        first_byte(ask, env), first_byte(raw, env)  # warm the OS file cache and .pyc files, create the db
        ask_times, raw_times = [], []
        for _ in range(args.runs):  # interleaved so drift hits both alike
            ask_times.append(first_byte(ask, env))
            raw_times.append(first_byte(raw, env))
    ask_ms = statistics.median(ask_times) * 1000
    raw_ms = statistics.median(raw_times) * 1000
    print(f"first token: agenttui ask {ask_ms:.0f} ms | raw openai client {raw_ms:.0f} ms | "
          f"ratio {ask_ms / raw_ms:.2f} (medians of {args.runs})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
