"""The settings model (S2): plain dataclasses with the defaults the spec fixes.

Loading and saving TOML lives in :mod:`agenttui.core.config`; this module is
pure data so everything can depend on it cheaply. Every field here is a key
in ``config.toml`` (section = the nested dataclass) and in the README's
configuration reference.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_THEME = "agenttui-dark"
DEFAULT_SOUL = (
    "You are a helpful personal assistant running in the user's terminal. "
    "Be concise and concrete. You can remember stable preferences and facts "
    "about the user with your memory tools; never store secrets."
)

# Fact keys the model/extraction may propose (policy boundary, seed 002).
DEFAULT_FACT_KEYS = (
    "language", "preferred_language", "user_name", "timezone", "location", "editor",
    "shell", "os", "default_branch", "response_style", "update_channel", "role",
    "project", "framework", "package_manager", "test_runner", "pronouns",
)
# Keys the runtime blocks even when the policy allows them (execution boundary).
DEFAULT_BLOCKED_KEYS = ("password", "api_key", "token", "secret", "private_key", "seed_phrase")
# Keys that always wait for the user's yes when the model proposes them (M7).
DEFAULT_SENSITIVE_KEYS = ("location", "user_name", "pronouns", "timezone")
DEFAULT_TOOLS = (
    "remember", "forget", "recall", "search_history", "read_learnings",
    "append_decision", "append_learning", "update_context", "read_file", "list_directory",
    "run_shell",
)


@dataclass
class MemorySettings:
    # Per scope; over it the oldest unpinned note is archived (M4). 0 = no cap: the
    # prompt picks notes by relevance, so growth costs nothing and the audit tends it.
    max_notes: int = 0
    inject_notes: int = 40  # most notes in the system prompt (M5), within memory_token_budget
    max_note_chars: int = 500
    stale_days: int = 90
    backup_keep: int = 7  # daily backups kept (M10)
    near_duplicate_threshold: float = 0.85
    corrections: Literal["off", "offer", "save"] = "offer"  # M6
    model_consent: Literal["save", "ask"] = "save"  # M7: save with undo, or wait
    extraction: bool = False  # M7 extraction pass
    fact_keys: list[str] = field(default_factory=lambda: list(DEFAULT_FACT_KEYS))
    allow_any_fact_key_from_user: bool = True  # the allowlist binds the model, not the user
    blocked_keys: list[str] = field(default_factory=lambda: list(DEFAULT_BLOCKED_KEYS))
    sensitive_keys: list[str] = field(default_factory=lambda: list(DEFAULT_SENSITIVE_KEYS))
    model_scopes: list[str] = field(default_factory=lambda: ["user", "profile"])
    preference_bias: float = 0.5  # relevance bonus for preference-like keys


@dataclass
class HistorySettings:
    window_messages: int = 30  # H4: by count ...
    window_tokens: int = 0  # ... or by token budget when > 0
    search_k: int = 0  # deprecated: recall is governed by [recall] (kept so old configs load)
    collapse_tool_steps: bool = True  # H5
    save_reasoning: bool = False  # store the model's thinking with its reply (redacted like the rest)


@dataclass
class RecallSettings:
    """What older material reaches the prompt (core/retrieval.py, README "Recall")."""

    enabled: bool = True  # retrieve past messages and project memory for every turn
    history_tokens: int = 2_000  # budget for retrieved past messages and project memory
    neighbours: bool = True  # quote the question before a matched answer and vice versa
    semantic: bool = False  # fuse embeddings from the endpoint's /v1/embeddings with BM25
    embedding_model: str = "text-embedding-3-small"


@dataclass
class AgentSettings:
    max_steps: int = 8
    max_seconds: float = 120.0
    max_tool_output: int = 16_000
    request_timeout: float = 60.0
    max_retries: int = 3
    # The whole request (system + memory + project + recalled + window + current).
    # 0 = automatic: half the model's known context length, at most 16,000 tokens.
    prompt_token_budget: int = 0
    memory_token_budget: int = 1_500
    project_token_budget: int = 1_500
    tools: list[str] = field(default_factory=lambda: list(DEFAULT_TOOLS))
    # Request options some endpoints reject (agent/request_options.py): "auto" sends them and
    # falls back once, remembered per endpoint and model; "on" always sends; "off" never.
    stream_options: Literal["auto", "on", "off"] = "auto"
    tool_calling: Literal["auto", "on", "off"] = "auto"
    warm_up: bool = True  # the TUI opens the endpoint's connection (GET /models) once idle


@dataclass
class RedactionSettings:
    extra_patterns: list[str] = field(default_factory=list)


@dataclass
class Settings:
    model: str = DEFAULT_MODEL
    base_url: str | None = None
    temperature: float | None = None
    theme: str = DEFAULT_THEME
    user_name: str = ""
    soul: str = DEFAULT_SOUL
    memory: MemorySettings = field(default_factory=MemorySettings)
    history: HistorySettings = field(default_factory=HistorySettings)
    recall: RecallSettings = field(default_factory=RecallSettings)
    agent: AgentSettings = field(default_factory=AgentSettings)
    redaction: RedactionSettings = field(default_factory=RedactionSettings)
    keys: dict[str, str] = field(default_factory=dict)  # binding id -> key (U9)
