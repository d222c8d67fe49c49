"""Context lengths of common models, and the prompt budget taken from them.

The budget is for the whole request (system prompt, memory, project context,
recalled material, recent window, current turn). ``agent.prompt_token_budget``
sets it; 0 (the default) takes half the model's context length -- the other
half is the reply's, and a smaller prompt is faster and cheaper -- capped at
``AUTO_CAP`` tokens, past which more history rarely helps and always costs.

The context length the endpoint reported comes first (OpenRouter's ``context_length``,
vLLM's ``max_model_len``, Ollama's ``num_ctx`` or the model's own length from
``/api/show``: :mod:`agenttui.core.context.endpoint_context`). Without one, the
providers' published figures for the families below are used (matched as substrings
of the lower-cased model name, most specific first); an unknown model is assumed to
have 32,768 tokens.
"""

from __future__ import annotations

from pathlib import Path
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


def context_length(model: str | None, base_url: str | None = None, data_dir: Path | None = None) -> int:
    """The model's context length in tokens: the endpoint's figure (``base_url`` given), else
    the table's, else ``UNKNOWN_CONTEXT``."""
    if base_url is not None or data_dir is not None:
        from agenttui.core.context.endpoint_context import learned

        reported = learned(base_url, model or "", data_dir)
        if reported:
            return reported
    name = (model or "").casefold()
    for family, length in _CONTEXT_LENGTHS:
        if family in name:
            return length
    return UNKNOWN_CONTEXT


def prompt_budget(settings: Settings, model: str | None = None, *, base_url: str | None = None,
                  data_dir: Path | None = None) -> int:
    """Tokens the whole request may take (see the module doc)."""
    configured = int(settings.agent.prompt_token_budget)
    if configured > 0:
        return max(MIN_BUDGET, configured)
    length = context_length(model or settings.model, base_url, data_dir)
    return max(MIN_BUDGET, min(AUTO_CAP, length // 2))
