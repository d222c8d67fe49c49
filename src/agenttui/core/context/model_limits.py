"""Context lengths of common models, and the prompt budget taken from them.

The budget is for the whole request (system prompt, memory, project context,
recalled material, recent window, current turn). ``agent.prompt_token_budget``
sets it; 0 (the default) takes half the model's context length -- the other
half is the reply's, and a smaller prompt is faster and cheaper -- capped at
``AUTO_CAP`` tokens, past which more history rarely helps and always costs.

Context lengths are the providers' published figures for the families below
(matched as substrings of the lower-cased model name, most specific first).
An unknown model is assumed to have 32,768 tokens. Ollama serves a smaller
window than the model supports unless ``num_ctx`` is raised; set
``prompt_token_budget`` for such a server.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agenttui.core.config.settings import Settings

AUTO_CAP = 16_000
UNKNOWN_CONTEXT = 32_768
MIN_BUDGET = 2_000

_CONTEXT_LENGTHS: tuple[tuple[str, int], ...] = (
    ("gpt-4.1", 1_047_576), ("gpt-5", 400_000), ("gpt-4o", 128_000), ("gpt-4-turbo", 128_000),
    ("gpt-4-32k", 32_768), ("gpt-4", 8_192), ("gpt-3.5-turbo", 16_385), ("o1", 200_000),
    ("o3", 200_000), ("o4", 200_000), ("claude", 200_000), ("gemini", 1_048_576),
    ("deepseek", 65_536), ("llama3.1", 131_072), ("llama-3.1", 131_072), ("llama3.2", 131_072),
    ("llama-3.2", 131_072), ("llama3.3", 131_072), ("llama-3.3", 131_072), ("llama3", 8_192),
    ("llama-3", 8_192), ("qwen3", 32_768), ("qwen2.5", 32_768), ("mistral-large", 131_072),
    ("mistral", 32_768), ("mixtral", 32_768), ("gemma3", 131_072), ("gemma2", 8_192),
    ("phi3", 4_096), ("phi-3", 4_096), ("phi4", 16_384),
)


def context_length(model: str | None) -> int:
    """The model's context length in tokens (``UNKNOWN_CONTEXT`` when not in the table)."""
    name = (model or "").casefold()
    for family, length in _CONTEXT_LENGTHS:
        if family in name:
            return length
    return UNKNOWN_CONTEXT


def prompt_budget(settings: Settings, model: str | None = None) -> int:
    """Tokens the whole request may take (see the module doc)."""
    configured = int(settings.agent.prompt_token_budget)
    if configured > 0:
        return max(MIN_BUDGET, configured)
    return max(MIN_BUDGET, min(AUTO_CAP, context_length(model or settings.model) // 2))
