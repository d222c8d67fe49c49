"""The one memory write gate (docs/memory.md#the-write-gate). Pure: no I/O, no clock.

Every writer -- ``/remember`` (source ``explicit``), a UI edit (``manual``),
an auto-detected correction (``correction``), an import, the model's
``remember`` tool (``model``) and the extraction pass (``extraction``) --
calls :func:`check_write` with the items already in the target scope and acts
on the :class:`GateDecision`. Rules, in order:

1. **Shape** -- known kind/scope/source; a note has text; a fact has a
   well-formed key (``[a-z][a-z0-9_]*`` with optional ``.`` sections, up to
   64 characters, normalised: lowercased, spaces and ``-`` become ``_``) and a
   value.
2. **Policy boundary** -- model/extraction may write only to
   ``settings.model_scopes`` and only fact keys in ``settings.fact_keys``.
   The user may set any well-formed key while
   ``allow_any_fact_key_from_user`` is on (the allowlist binds the model).
3. **Runtime boundary** -- ``settings.blocked_keys`` is checked for *every*
   source, even when the policy allows the key. A blocked entry matches as a
   run of ``_``-separated words, so ``token`` blocks ``github_token`` too
   (false positives such as ``token_budget`` are the price of not storing
   credentials under a near-miss name).
4. **Injection** -- text that looks like a prompt injection / system
   instruction (``security.is_suspicious_note``) is rejected for every source,
   with ``security.injection_reasons`` in the reason.
5. **Secrets** -- *refused* for ``model``/``extraction`` (the model has no
   business storing a credential, and a redacted stub would only be noise);
   *redacted* for user sources (``explicit``, ``manual``, ``correction``,
   ``import``): the user asked for the note deliberately and the rest of it is
   usually still useful ("staging db is postgres://app:[REDACTED]@db1"); the
   reason then says so. If nothing but the redaction would remain, rejected;
   sentences that only *name* the secret ("my openai key is …") are dropped
   and the reason quotes them, and a note with nothing else left is rejected
   (:mod:`agenttui.core.memory.secret_notes`).
6. **Length** -- the (redacted) note text or fact value may not exceed
   ``max_note_chars``; rejected rather than truncated so nothing is silently
   changed.
7. **Dedupe** -- a note equal or near-equal (token Jaccard >=
   ``near_duplicate_threshold``) to a note in the scope refreshes that note
   (action ``refresh``); a fact with a key that exists in the scope updates
   that fact (``update``) or refreshes it when the value is unchanged.
8. **Consent** -- a model/extraction write that would add or change
   something waits for the user (action ``pending``) when
   ``model_consent == "ask"`` (the default), the fact key is in
   ``sensitive_keys``, or the caller says it is ``untrusted``: proposed in a
   turn that read content the user did not write (a file, command output,
   history search, an MCP or web tool), whatever ``model_consent`` says -- an
   injection the screen missed must still pass the user's eyes. The caller
   stores nothing and re-submits with ``confirmed=True`` after the user's yes.
   A pure refresh needs no consent.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from agenttui.core.config.settings import MemorySettings
from agenttui.core.memory.secret_notes import redacted_stub, trim_secret_sentences
from agenttui.core.memory.text import is_near_duplicate
from agenttui.core.models import SCOPES, SOURCES, MemoryItem
from agenttui.core.visible_text import inert_line
from agenttui.core.well_formed import well_formed
from agenttui.security import contains_secret, injection_reasons, is_suspicious_note, redact_secrets

MODEL_SOURCES = frozenset({"model", "extraction", "mcp"})  # mcp: another agent, bound as the model
USER_SOURCES = frozenset({"explicit", "manual", "correction", "import"})
MAX_KEY_CHARS = 64

_KEY = re.compile(r"^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*$")
_REDACTION_MARK = re.compile(r"\[REDACTED(?::[^\]]*)?\]")
_WORDISH = re.compile(r"\w")

Action = Literal["add", "refresh", "update", "reject", "pending"]


@dataclass
class GateDecision:
    action: Action
    reason: str = ""  # a human sentence: why rejected / what was changed
    reasons: list[str] = field(default_factory=list)  # detail lines (e.g. injection reasons)
    text: str = ""  # the note text to store (redacted)
    key: str | None = None  # the normalised fact key
    value: str | None = None  # the fact value to store (redacted)
    target_id: str | None = None  # the existing item to refresh / update
    redacted: bool = False

    @property
    def accepted(self) -> bool:
        return self.action in ("add", "refresh", "update")


def normalise_key(key: str) -> str:
    return re.sub(r"[\s\-]+", "_", key.strip().lower())


def key_is_blocked(key: str, blocked: Sequence[str]) -> str | None:
    """The blocked entry that ``key`` matches (as a run of words), if any."""
    words = re.split(r"[._]", key)
    for entry in blocked:
        parts = [p for p in re.split(r"[._]", normalise_key(entry)) if p]
        if not parts:
            continue
        for start in range(len(words) - len(parts) + 1):
            if words[start : start + len(parts)] == parts:
                return entry
    return None


def _reject(reason: str, reasons: Sequence[str] = ()) -> GateDecision:
    return GateDecision("reject", reason=reason, reasons=list(reasons))


def _only_redactions_left(text: str) -> bool:
    return not _WORDISH.search(_REDACTION_MARK.sub("", text))


def check_write(
    kind: str,
    scope: str,
    source: str,
    *,
    settings: MemorySettings,
    existing: Sequence[MemoryItem] = (),
    text: str = "",
    key: str | None = None,
    value: str | None = None,
    confirmed: bool = False,
    redact_patterns: Sequence[str] = (),
    editing_id: str | None = None,
    untrusted: bool = False,
) -> GateDecision:
    """Decide what to do with one proposed write: the rules of the module doc, in order.

    ``existing`` are the live items of the target scope (others are ignored);
    ``editing_id`` is the item being edited, which must not count as its own
    duplicate.
    """
    rejected = _shape(kind, scope, source, settings)  # 1, and 2 for scopes
    if rejected is not None:
        return rejected
    write = _Write(kind, scope, from_model=source in MODEL_SOURCES)
    rejected = (_fact(write, key, value, source, settings) if kind == "fact"  # 1-3 for keys
                else _note(write, text))
    if rejected is None:
        rejected = _injection(write)  # 4
    if rejected is None:
        rejected = _secrets(write, redact_patterns)  # 5
    if rejected is None:
        rejected = _length(write, settings)  # 6
    if rejected is not None:
        return rejected
    decision = GateDecision("add", text=write.body if kind == "note" else "", key=write.key,
                            value=write.body if kind == "fact" else None, redacted=write.redacted)
    _dedupe(decision, write, existing, editing_id, settings)  # 7
    _consent(decision, write, settings, confirmed=confirmed, untrusted=untrusted)  # 8
    if write.notes:
        reason = "; ".join(write.notes)
        decision.reason = reason[0].upper() + reason[1:] + "."
    return decision


@dataclass
class _Write:
    """A proposed write as the rules see it, step by step."""

    kind: str
    scope: str
    from_model: bool
    key: str | None = None  # normalised (facts)
    body: str = ""  # the note text or fact value, stripped; redacted by the secrets step
    redacted: bool = False
    notes: list[str] = field(default_factory=list)  # what the gate changed, for the reason

    @property
    def checked(self) -> str:
        """The text the injection screen reads: a fact's key belongs to it."""
        return f"{self.key}: {self.body}" if self.kind == "fact" else self.body


def _shape(kind: str, scope: str, source: str, settings: MemorySettings) -> GateDecision | None:
    if kind not in ("note", "fact"):
        return _reject(f"Unknown memory kind {kind!r}.")
    if scope not in SCOPES:
        return _reject(f"Unknown memory scope {scope!r}; use 'user' or 'profile'.")
    if source not in SOURCES:
        return _reject(f"Unknown memory source {source!r}.")
    if source in MODEL_SOURCES and scope not in settings.model_scopes:  # policy boundary: scope
        return _reject(f"The model may not write to the {scope!r} memory scope (policy).")
    return None


def _note(write: _Write, text: str) -> GateDecision | None:
    # well-formed: half a surrogate pair (a model's or an import's \ud83d) would fail every save
    write.body = well_formed((text or "").strip())
    return None if write.body else _reject("Nothing to remember: the note is empty.")


def _fact(write: _Write, key: str | None, value: str | None, source: str,
          settings: MemorySettings) -> GateDecision | None:
    raw_key = (key or "").strip()
    if not raw_key:
        return _reject("A fact needs a key, e.g. `language = en`.")
    write.key = normalise_key(raw_key)
    if len(write.key) > MAX_KEY_CHARS or not _KEY.match(write.key):
        return _reject(
            f"Invalid fact key {raw_key!r}: use the Latin letters a-z, digits and '_' "
            f"(starting with a letter, up to {MAX_KEY_CHARS} characters)."
        )
    write.body = well_formed((value or "").strip())
    if not write.body:
        return _reject(f"The fact {write.key!r} needs a value.")
    blocked = key_is_blocked(write.key, settings.blocked_keys)  # runtime boundary, every source
    if blocked:
        return _reject(f"The key {write.key!r} is blocked (matches {blocked!r}); it is never stored.")
    user_free = source in USER_SOURCES and settings.allow_any_fact_key_from_user  # policy boundary: keys
    if not user_free and write.key not in settings.fact_keys:
        who = "The model" if write.from_model else "This source"
        return _reject(f"{who} may not set the fact key {write.key!r} (not in the allowed fact keys).")
    return None


def _injection(write: _Write) -> GateDecision | None:
    if not is_suspicious_note(write.checked):
        return None
    why = injection_reasons(write.checked)
    detail = f" ({'; '.join(why)})" if why else ""
    return _reject(f"This looks like an instruction to the assistant, not a memory{detail}.", why)


def _secrets(write: _Write, redact_patterns: Sequence[str]) -> GateDecision | None:
    """Refused from the model; from the user, redacted, or dropped with the sentences naming it."""
    redacted = redact_secrets(write.body, tuple(redact_patterns))
    if redacted == write.body and not contains_secret(write.body):
        return None
    write.redacted = True
    if write.from_model:
        return _reject("It contains a secret (credential); the model may not store secrets.")
    if _only_redactions_left(redacted):
        return _reject("It contains only a secret; secrets are never stored in memory.")
    trim = trim_secret_sentences(redacted)
    if not trim.kept:
        return _reject(
            f"It is mostly a secret ({trim.kinds_text}): without it, only {redacted_stub(redacted)!r} "
            "would be left, which says nothing. Secrets are never stored in memory; "
            "keep them in a password manager."
        )
    write.body = trim.kept
    if trim.removed:
        dropped = " ".join(trim.removed)
        write.notes.append(f"removed {_quoted(dropped)}: it only named a secret ({trim.kinds_text}), "
                           "and secrets are never stored in memory")
    else:
        write.notes.append(f"a secret ({trim.kinds_text}) was redacted before saving")
    return None


def _length(write: _Write, settings: MemorySettings) -> GateDecision | None:
    if len(write.body) <= settings.max_note_chars:
        return None
    what = "value" if write.kind == "fact" else "note"
    return _reject(
        f"The {what} is too long ({len(write.body)} characters; the limit is "
        f"{settings.max_note_chars}). Shorten it."
    )


def _quoted(text: str) -> str:
    """Quoted for a reason shown to the user: inert, not repr (an emoji's joiners and Persian's
    ZWNJ as typed, not ``\\u200d``; a control character still shown as an escape)."""
    return f"“{inert_line(text, 200)}”"


def _dedupe(decision: GateDecision, write: _Write, existing: Sequence[MemoryItem], editing_id: str | None,
            settings: MemorySettings) -> None:
    """A near-equal note refreshes its twin; a fact with a known key updates (or refreshes) it."""
    peers = [i for i in existing if i.scope == write.scope and i.kind == write.kind and i.id != editing_id]
    body = write.body
    if write.kind == "note":
        threshold = settings.near_duplicate_threshold
        twin = next((i for i in peers if is_near_duplicate(body, i.text, threshold)), None)
        if twin is not None:
            decision.action, decision.target_id = "refresh", twin.id
            write.notes.append(f"already remembered as {_quoted(twin.text)}; refreshed it instead of adding")
        return
    same = next((i for i in peers if i.key == write.key), None)
    if same is None:
        return
    decision.target_id = same.id
    if (same.value or "") == body:
        decision.action = "refresh"
        write.notes.append(f"{write.key} was already {_quoted(body)}; refreshed it")
    else:
        decision.action = "update"
        write.notes.append(f"{write.key} changed from {_quoted(same.value or '')} to {_quoted(body)}")


def _consent(decision: GateDecision, write: _Write, settings: MemorySettings, *, confirmed: bool,
             untrusted: bool) -> None:
    """A model write that adds or changes something waits for the user's yes when the rules say so."""
    if not write.from_model or confirmed or decision.action == "refresh":
        return
    sensitive = write.kind == "fact" and write.key in settings.sensitive_keys
    if sensitive or untrusted or settings.model_consent == "ask":
        decision.action = "pending"
        wait = (f"{write.key!r} is a sensitive key" if sensitive else
                "proposed after reading untrusted content" if untrusted else "model memory needs your yes")
        write.notes.insert(0, f"waiting for confirmation ({wait})")
