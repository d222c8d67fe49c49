"""The agent loop's own overhead per turn, with a large history and memory.

A turn's wall time is the model's time plus ours (prompt assembly: memory
ranking, project context, the history window; persistence: the user message,
the reply; the prompt capture). Against the local fake server the model's
time is what the raw ``openai`` client needs for the same streamed request,
measured in the same run. The loop's own time is measured directly: the
turn's wall time minus the time it waited on the network
(``Trace.seconds - Trace.llm_seconds``); the difference of the two medians is
printed as a cross-check.

Scenarios (medians over --turns turns each):

The loop's time includes what is left of recording memory use (``mark_used``
rewrites and fsyncs the memory files in a thread started once the first token
is out; the turn waits for it before ``TurnFinished``). The fake server
streams its short reply at once, so here little of it overlaps the stream.

* empty -- no history, no memory;
* large -- one conversation of --messages messages (default 20,000) plus
  50 user notes, 50 profile notes, 20 facts, a context.md and 10 decisions.

Run: ``.venv/bin/python bench/bench_agent.py [--turns 30] [--messages 20000]``
Prints each median and the overhead ratio large/empty.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from tests.fakes.openai_server import FakeOpenAI  # noqa: E402

WORDS = ("amber basil cedar delta ember fjord garnet harbor indigo juniper kelp lumen maple "
         "nectar onyx pepper quartz raven saffron tundra umber violet willow xenon yarrow zephyr "
         "anchor bramble cobalt dune eclipse falcon glacier hazel iris jasper kestrel lagoon").split()


def populate(services, messages: int, memory: bool) -> str:
    from agenttui.core.models import Message

    conversation = services.history.create_conversation(title="bench")
    batch = []
    for i in range(messages):
        role = "user" if i % 2 == 0 else "assistant"
        text = " ".join(random.choice(WORDS) for _ in range(25))
        batch.append(Message(role=role, content=f"{i}: {text}"))
        if len(batch) == 1000:
            services.history.append_many(conversation.id, batch)
            batch = []
    if batch:
        services.history.append_many(conversation.id, batch)
    if memory:
        rng = random.Random(7)
        for scope in ("user", "profile"):
            added = 0
            while added < 50:
                words = " ".join(rng.sample(WORDS, 6))
                result = services.memory.add_note(f"Prefers {words} in answers", scope=scope)
                added += result.status == "added"
        for i in range(20):
            services.memory.set_fact(f"bench_key_{i}", f"value {rng.choice(WORDS)}", scope="user")
        services.project.write_context("Active focus: benchmarking the loop.\n" * 20)
        for i in range(10):
            services.project.append_decision(f"Decision {i}", "Because " + " ".join(WORDS[:12]))
    return conversation.id


async def loop_turns(services, cid: str, turns: int) -> tuple[list[float], list[float], list[float]]:
    """(whole-turn times, first-delta times, the loop's own time per turn)."""
    from agenttui.agent.events import TextDelta, TurnFinished
    from agenttui.agent.loop import aclose_client, run_turn

    times, firsts, own = [], [], []
    for i in range(turns):
        started = time.perf_counter()
        first = None
        async for event in run_turn(services, cid, f"question {i} about amber and cedar"):
            if first is None and isinstance(event, TextDelta):
                first = time.perf_counter() - started
            if isinstance(event, TurnFinished):
                own.append(event.trace.seconds - event.trace.llm_seconds)
        times.append(time.perf_counter() - started)
        firsts.append(first)
    await aclose_client(services)
    return times[2:], firsts[2:], own[2:]  # first turns warm up the client and caches


async def raw_turns(base_url: str, messages: list[dict], tools: list[dict],
                    turns: int) -> tuple[list[float], list[float]]:
    import openai

    client = openai.AsyncOpenAI(base_url=base_url, api_key="sk-bench", max_retries=0)
    times, firsts = [], []
    for _ in range(turns):
        started = time.perf_counter()
        first = None
        stream = await client.chat.completions.create(
            model="fake", messages=messages, tools=tools or openai.NOT_GIVEN, stream=True,
            stream_options={"include_usage": True})
        async for chunk in stream:
            if first is None and chunk.choices and chunk.choices[0].delta.content:
                first = time.perf_counter() - started
        times.append(time.perf_counter() - started)
        firsts.append(first)
    await client.close()
    return times[2:], firsts[2:]


def components(services, cid: str, turns: int) -> dict[str, float]:
    """The two parts of the overhead, timed on their own."""
    from agenttui.core.context.assemble import assemble
    from agenttui.core.models import Message

    assemble_t, persist_t = [], []
    for i in range(turns):
        message = Message(role="user", content=f"direct {i} amber cedar")
        t0 = time.perf_counter()
        services.history.append(cid, message)
        t1 = time.perf_counter()
        assemble(services, cid, message, mark_used=False)
        t2 = time.perf_counter()
        persist_t.append(t1 - t0)
        assemble_t.append(t2 - t1)
    ids = [item.id for item in services.memory.items()][:20]
    mark_t = []
    for _ in range(turns if ids else 0):
        t0 = time.perf_counter()
        services.memory.mark_used(ids)
        mark_t.append(time.perf_counter() - t0)
    return {"assemble": statistics.median(assemble_t) * 1000,
            "persist": statistics.median(persist_t) * 1000,
            "mark_used": statistics.median(mark_t) * 1000 if mark_t else 0.0}


def scenario(name: str, server: FakeOpenAI, messages: int, memory: bool, turns: int) -> dict:
    from agenttui.agent.prompt_capture import last_prompt
    from agenttui.bootstrap import build_services

    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "AGENTTUI_HOME": home, "OPENAI_BASE_URL": server.base_url,
               "OPENAI_API_KEY": "sk-bench", "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
        services = build_services(environ=env, cwd=Path(home))
        t0 = time.perf_counter()
        cid = populate(services, messages, memory)
        setup = time.perf_counter() - t0
        loop_times, loop_firsts, own = asyncio.run(loop_turns(services, cid, turns))
        parts = components(services, cid, turns)
        prompt = last_prompt(services)
        raw_times, raw_firsts = asyncio.run(
            raw_turns(server.base_url, prompt.messages, prompt.tools, turns))
        services.close()
    loop_ms = statistics.median(loop_times) * 1000
    raw_ms = statistics.median(raw_times) * 1000
    first_ms = (statistics.median(loop_firsts) - statistics.median(raw_firsts)) * 1000
    own_ms = statistics.median(own) * 1000
    print(f"{name:>5}: assemble {parts['assemble']:.2f} ms, append {parts['persist']:.2f} ms "
          f"per message, memory.mark_used {parts['mark_used']:.2f} ms (medians, measured directly)")
    print(f"{name:>5}: setup {setup:5.1f} s | loop's own time per turn {own_ms:6.2f} ms "
          f"(trace.seconds - trace.llm_seconds)")
    print(f"{name:>5}: cross-check -- turn {loop_ms:6.2f} ms vs raw client, same request "
          f"{raw_ms:6.2f} ms: difference {loop_ms - raw_ms:6.2f} ms (to first token {first_ms:5.2f} ms; "
          f"noisy: two separate medians) | prompt {len(prompt.messages)} msgs")
    return {"loop": loop_ms, "raw": raw_ms, "overhead": own_ms, "first": first_ms, **parts}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--messages", type=int, default=20_000)
    args = parser.parse_args()
    random.seed(1)
    with FakeOpenAI(default_reply="A short reply of about ten words for the benchmark.") as server:
        empty = scenario("empty", server, 0, False, args.turns)
        large = scenario("large", server, args.messages, True, args.turns)
    ratio = large["overhead"] / max(empty["overhead"], 1e-6)
    print(f"prompt assembly: empty {empty['assemble']:.2f} ms, large {large['assemble']:.2f} ms; "
          f"append: empty {empty['persist']:.2f} ms, large {large['persist']:.2f} ms")
    print(f"loop overhead per turn: empty {empty['overhead']:.2f} ms, large {large['overhead']:.2f} ms "
          f"({args.messages} messages, 100 notes, 20 facts); ratio large/empty {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
