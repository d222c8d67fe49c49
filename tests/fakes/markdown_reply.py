"""A long Markdown reply shaped like a real model's: headings, lists, a table, code.

Short scripted replies never exercised what a real conversation does to the chat
(a reply of hundreds of words with every block type Markdown has); the soak test,
the soak benchmark and manual trials (``python -m tests.fakes.openai_server
--markdown 600``) use this one. Deterministic for a given ``words`` and ``seed``.
"""

from __future__ import annotations

import random

_WORDS = ("the", "agent", "remembers", "your", "notes", "and", "facts", "memory", "history",
          "profile", "stream", "token", "project", "recall", "budget", "session", "prompt",
          "reply", "model", "endpoint", "terminal", "widget", "layout", "scroll")


def _sentence(rng: random.Random, length: int) -> str:
    words = [rng.choice(_WORDS) for _ in range(length)]
    words[0] = words[0].capitalize()
    if length > 6:
        words[3] = f"**{words[3]}**"
        words[5] = f"`{words[5]}`"
    return " ".join(words) + "."


def markdown_reply(words: int, seed: int = 0) -> str:
    """About ``words`` words of Markdown: sections of a heading, a paragraph, a list, and
    in turn a table or a fenced code block, until the word count is reached."""
    rng = random.Random(seed)
    blocks: list[str] = []
    count = 0
    section = 0
    while count < words:
        section += 1
        blocks.append(f"## Part {section}: {rng.choice(_WORDS)} {rng.choice(_WORDS)}")
        paragraph = " ".join(_sentence(rng, rng.randint(8, 16)) for _ in range(3))
        blocks.append(paragraph)
        items = [f"- {_sentence(rng, rng.randint(4, 9))}" for _ in range(4)]
        blocks.append("\n".join(items))
        if section % 2:
            rows = ["| name | value | note |", "| --- | ---: | --- |"]
            rows += [f"| {rng.choice(_WORDS)} | {rng.randint(1, 999)} | {_sentence(rng, 4)} |" for _ in range(3)]
            blocks.append("\n".join(rows))
        else:
            lines = []
            for n in range(3):
                lines += [f"def {rng.choice(_WORDS)}_{n}(value):", f"    return value * {n}  # {rng.choice(_WORDS)}"]
            blocks.append("```python\n" + "\n".join(lines) + "\n```")
            count += 3 * 8
        count = sum(len(block.split()) for block in blocks)
    return "\n\n".join(blocks)
