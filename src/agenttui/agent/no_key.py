"""The one message for "no API key" when a message is sent.

It used to be the loop's sentence plus the keyring module's whole advice in
parentheses: 13 lines in the chat at 80 columns, with raw backticks (chat
notices are plain text). Now two short sentences, no markup: the way that
works here (without a keyring, only OPENAI_API_KEY), and where the long
explanation lives (``agenttui doctor``, and the first-run dialog in the app).
"""

from __future__ import annotations

_LOCAL = "local servers such as Ollama accept any value"


def no_key_message(problem: str | None) -> str:
    """Plain text, at most two sentences; ``problem`` is ``KeyLookup.problem``."""
    from agenttui.core.config.api_key import ADVICE

    if problem and problem.startswith(ADVICE.split("{", 1)[0]):
        return (f"No API key is set, and there is no keyring to store one: export OPENAI_API_KEY "
                f"before starting agenttui ({_LOCAL}). agenttui doctor shows how to add a keyring.")
    text = f"No API key is set: export OPENAI_API_KEY, or run agenttui key set ({_LOCAL})."
    if problem:
        first = problem.strip().splitlines()[0] if problem.strip() else ""
        text += f" Note: {first[:200]}" if first else ""
    return text
