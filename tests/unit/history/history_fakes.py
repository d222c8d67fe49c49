"""Helpers for the history tests (a uniquely named module: tests dirs are not packages)."""

from __future__ import annotations

import random
import string


def fake_openai_key(seed: int = 0) -> str:
    """An obviously fake key in the OpenAI project-key shape (sk-proj- + 48 alnum)."""
    rng = random.Random(seed)
    return "sk-proj-" + "".join(rng.choices(string.ascii_letters + string.digits, k=48))
