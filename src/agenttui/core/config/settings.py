"""The settings model (docs/storage.md): plain dataclasses with the defaults the spec fixes.

Loading and saving TOML lives in :mod:`agenttui.core.config.file`; this module is
pure data so everything can depend on it cheaply. Every field here is a key
in ``config.toml`` (section = the nested dataclass), declared with
:func:`~agenttui.core.config.schema.setting` (default, meaning, allowed range:
the one schema entry that drives validation, the settings dialog and the README's
configuration reference.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from agenttui.core.config.schema import setting

DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_THEME = "agenttui-dark"
DEFAULT_SOUL = (
    "You are a helpful personal assistant running in the user's terminal. "
    "Be concise and concrete. You can remember stable preferences and facts "
    "about the user with your memory tools; never store secrets."
)

# Fact keys the model/extraction may propose (policy boundary).
DEFAULT_FACT_KEYS = (
    "language", "preferred_language", "user_name", "timezone", "location", "editor",
    "shell", "os", "default_branch", "response_style", "update_channel", "role",
    "project", "framework", "package_manager", "test_runner", "pronouns",
)
# Keys the runtime blocks even when the policy allows them (execution boundary).
DEFAULT_BLOCKED_KEYS = ("password", "api_key", "token", "secret", "private_key", "seed_phrase")
# Keys that always wait for the user's yes when the model proposes them.
DEFAULT_SENSITIVE_KEYS = ("location", "user_name", "pronouns", "timezone")
DEFAULT_TOOLS = (
    "remember", "forget", "recall", "search_history", "read_learnings",
    "append_decision", "append_learning", "update_context", "read_file", "list_directory",
    "run_shell",
)


@dataclass
class MemorySettings:
    # 0 = no cap: the prompt picks notes by relevance, so growth costs nothing and the audit tends it.
    max_notes: int = setting(0, "notes per scope; 0 = no cap. Over a cap, the least recently used "
                             "unpinned note is archived (still recalled)", low=0, high=1_000_000)
    inject_notes: int = setting(40, "most notes put in the system prompt (besides pinned ones), most "
                                "relevant first, within `memory_token_budget`", low=0, high=10_000)
    max_note_chars: int = setting(500, "longest note text or fact value; longer is refused",
                                  low=1, high=100_000)
    stale_days: int = setting(90, "unused this long = `stale` in the audit", low=1, high=36_500)
    backup_keep: int = setting(7, "daily memory backups kept", low=1, high=3_650)
    near_duplicate_threshold: float = setting(
        0.85, "token Jaccard similarity at which two notes count as duplicates", low=0.3, high=1.0)
    corrections: Literal["off", "offer", "save"] = setting(
        "offer", "detected corrections (\"don't …\", \"I prefer X, not Y\", \"jangan …\"): `\"off\"`, "
        "`\"offer\"` to remember, or `\"save\"` with undo",
        labels=(("off", "off"), ("offer to remember", "offer"), ("save with undo", "save")))
    # "ask" by default: a note the model was talked into by a web page or a file
    # must not reach every later prompt unseen.
    model_consent: Literal["save", "ask"] = setting(
        "ask", "model-proposed memory: `\"ask\"` first or `\"save\"` at once (with undo); either "
        "way a proposal made in a turn that read files, command output, history or MCP/web "
        "tools waits for your yes",
        labels=(("save with undo", "save"), ("ask first", "ask")))
    extraction: bool = setting(False, "after each turn, ask the model for memory candidates "
                               "(strict JSON, through the gate)")
    fact_keys: list[str] = setting(list(DEFAULT_FACT_KEYS), "fact keys the model may write")
    allow_any_fact_key_from_user: bool = setting(
        True, "you may use any well-formed key (the allowlist binds the model)")
    blocked_keys: list[str] = setting(list(DEFAULT_BLOCKED_KEYS), "keys refused for everyone "
                                      "(also as a word inside a key: `github_token`)")
    sensitive_keys: list[str] = setting(list(DEFAULT_SENSITIVE_KEYS),
                                        "keys the model can only propose: they wait for your yes")
    model_scopes: list[str] = setting(["user", "profile"], "scopes the model may write to")
    preference_bias: float = setting(0.5, "relevance bonus for preference-like facts (`language`, "
                                     "`response_style`, …)", low=0.0, high=10.0)


@dataclass
class HistorySettings:
    window_messages: int = setting(30, "recent messages sent with each request", low=0, high=10_000)
    window_tokens: int = setting(0, "when > 0, the window is chosen by this token budget instead of "
                                 "by count", low=0, high=10_000_000)
    search_k: int = setting(0, "no longer used (recall is set in `[recall]`); kept so older files "
                            "load without a warning", low=0, high=1_000, in_form=False)
    collapse_tool_steps: bool = setting(True, "leave older turns' tool steps out of the window")
    save_reasoning: bool = setting(False, "store the model's thinking with its reply (redacted like "
                                   "the rest)")


@dataclass
class RecallSettings:
    """What older material reaches the prompt (core/recall/retrieval.py, README "Recall")."""

    enabled: bool = setting(True, "search past conversations, archived notes and project memory "
                            "on every turn")
    history_tokens: int = setting(2_000, "tokens of recalled material per request",
                                  low=0, high=1_000_000)
    neighbours: bool = setting(True, "quote the question before a matched answer and the answer "
                               "after a matched question")
    # "auto" by default: on where the endpoint serves embeddings, told
    # once per profile and endpoint (core/recall/semantic_auto.py). A choice, not a bool, so a
    # value such as "local" can join it without changing what true and false mean.
    semantic: Literal["auto", True, False, "local"] = setting(
        "auto", "rank recall also by embeddings, computed in the background: `\"auto\"` uses the "
        "endpoint's `/v1/embeddings` when it serves them (your history is sent there for indexing, "
        "and each question to rank by -- a short English one without the names in it; "
        "said once per profile and endpoint), `true` always asks it, `false` sends nothing, "
        "`\"local\"` embeds on this machine (no endpoint)",
        labels=(("auto (if the endpoint serves embeddings)", "auto"), ("on", True), ("off", False),
                ("on this machine (no endpoint)", "local")))
    embedding_model: str = setting("text-embedding-3-small", "the embedding model to ask for "
                                   "(e.g. `nomic-embed-text` on Ollama)")


@dataclass
class AgentSettings:
    max_steps: int = setting(8, "model calls per turn (each tool round is one)", low=1, high=200)
    max_seconds: float = setting(120.0, "wall-clock limit per turn", low=1.0, high=86_400.0)
    max_tool_output: int = setting(16_000, "characters of one tool result (longer is cut, with a note)",
                                   low=100, high=10_000_000)
    request_timeout: float = setting(60.0, "seconds to wait for the endpoint", low=1.0, high=3_600.0)
    max_retries: int = setting(3, "retries on 429, 5xx and connection errors (before any output)",
                               low=0, high=20)
    # The whole request (system + memory + project + recalled + window + current).
    prompt_token_budget: int = setting(0, "tokens for the whole request; 0 = half the model's context "
                                       "length, at most 16,000", low=0, high=10_000_000)
    memory_token_budget: int = setting(1_500, "tokens for memory in the system prompt (0 = no limit)",
                                       low=0, high=1_000_000)
    project_token_budget: int = setting(1_500, "tokens for project notes in the system prompt "
                                        "(0 = no limit)", low=0, high=1_000_000)
    tools: list[str] = setting(list(DEFAULT_TOOLS), "enabled tools")
    # Request options some endpoints reject (agent/request_options.py): "auto" sends them and
    # falls back once, remembered per endpoint and model; "on" always sends; "off" never.
    stream_options: Literal["auto", "on", "off"] = setting(
        "auto", "send `stream_options` (token counts): `\"auto\"` sends it and falls back once if the "
        "endpoint refuses it, `\"on\"` always, `\"off\"` never")
    tool_calling: Literal["auto", "on", "off"] = setting(
        "auto", "send the tools: `\"auto\"` sends them and falls back once if the endpoint or model "
        "refuses them, `\"on\"` always, `\"off\"` never")
    warm_up: bool = setting(True, "the app opens the endpoint's connection once idle with one small "
                            "`GET /models/{model}` (again when typing starts after 4 s idle); `false` "
                            "sends nothing before your first message")


@dataclass
class RedactionSettings:
    extra_patterns: list[str] = setting([], "your own regular expressions; matches become "
                                        "`[REDACTED:custom]`")


@dataclass
class SyncSettings:
    auto: bool = setting(False, "the app syncs in the background at start-up and every "
                         "`interval_minutes` (after `agenttui sync init`; see [Sync](#sync))")
    interval_minutes: int = setting(15, "minutes between the app's background syncs", low=1, high=1440)


@dataclass
class Settings:
    model: str = setting(DEFAULT_MODEL, "model name (`AGENTTUI_MODEL` wins)", in_form=False)
    base_url: str | None = setting(None, "OpenAI-compatible endpoint; unset = the OpenAI API "
                                   "(`OPENAI_BASE_URL` wins)", in_form=False)
    temperature: float | None = setting(None, "sampling temperature; unset = the server's default",
                                        low=0.0, high=2.0)
    theme: str = setting(DEFAULT_THEME, "theme name (built-in or from `themes/`)", in_form=False)
    user_name: str = setting("", "your name, told to the model")
    soul: str = setting(DEFAULT_SOUL, "the system prompt's opening", in_form=False)
    memory: MemorySettings = field(default_factory=MemorySettings)
    history: HistorySettings = field(default_factory=HistorySettings)
    recall: RecallSettings = field(default_factory=RecallSettings)
    agent: AgentSettings = field(default_factory=AgentSettings)
    redaction: RedactionSettings = field(default_factory=RedactionSettings)
    sync: SyncSettings = field(default_factory=SyncSettings)
    keys: dict[str, str] = setting({}, "Binding id → key(s); default: empty (the defaults in "
                                   "[Key bindings](#key-bindings)). Example there.", in_form=False)
