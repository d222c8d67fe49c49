"""The one result type of secret detection."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SecretMatch:
    """A secret at `text[start:end]`; `kind` names the rule (e.g. `openai_key`).

    For assignments the span covers the value only, so the key survives
    redaction (`password=[REDACTED:password]`).
    """

    kind: str
    start: int
    end: int
