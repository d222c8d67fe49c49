"""Security helpers: secret redaction and prompt-injection screening (docs/security.md).

Pure and linear-time; never imports textual or rich.
"""

from .injection import injection_reasons, is_suspicious_note
from .match import SecretMatch
from .redaction import contains_secret, find_secrets, redact_secrets, redact_tree

__all__ = [
    "SecretMatch",
    "contains_secret",
    "find_secrets",
    "injection_reasons",
    "is_suspicious_note",
    "redact_secrets",
    "redact_tree",
]
