"""Memory screened where it is read: what reaches a prompt passes the write gate's screen again.

The write gate (:mod:`agenttui.core.memory.gate`) screens what the app writes.
A note can also arrive without it: a hand edit of ``user.json``, a restored
backup, an import written by an older version, another process. So every item
is screened again on its way into a prompt, with the same two checks:

* **quarantined** -- the text reads like an instruction to the model
  (``security.injection_reasons``, on the text the gate checks: a fact's key
  belongs to it). It is never sent; the Memory pane and the audit show it
  flagged, and it is sent again only once the user *keeps* it
  (:func:`content_hash` recorded by ``MemoryStore.keep``; an edit changes the
  hash, so an edited note is screened afresh).
* **redacted** -- the text holds a secret: what is sent is the redacted copy
  (``security.redact_secrets``), and the pane shows the same masked text.

Every road from memory to a model passes here: the system prompt's memory
block (context assembly), recall's archived and live notes (core/recall),
the ``recall`` and ``forget`` tools' output (also what ``mcp serve`` hands
other agents) and the deep review's batches.

Decision: results are cached by content hash (kind, key, text, value and the
user's extra redaction patterns), so a turn re-screens only what changed;
the cache is bounded and simply emptied when full.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from agenttui.core.models import MemoryItem
from agenttui.security import injection_reasons, redact_secrets


@dataclass(frozen=True)
class ReadVerdict:
    reasons: tuple[str, ...] = ()  # why it reads like an instruction (empty: it does not)
    text: str | None = None  # the note text to send/show when a secret was redacted
    value: str | None = None  # the fact value to send/show when a secret was redacted

    @property
    def quarantined(self) -> bool:
        return bool(self.reasons)

    @property
    def redacted(self) -> bool:
        return self.text is not None or self.value is not None


_CACHE_MAX = 20_000
_cache: dict[tuple[str, tuple[str, ...]], ReadVerdict] = {}


def content_hash(item: MemoryItem) -> str:
    """What a screening result (and a user's "keep") is bound to: the item's content, not its id."""
    raw = "\x00".join((item.kind, item.key or "", item.text or "", item.value or ""))
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def screen(item: MemoryItem, redact_patterns: Sequence[str] = ()) -> ReadVerdict:
    """The read screen's verdict on ``item`` (cached by content)."""
    key = (content_hash(item), tuple(redact_patterns))
    hit = _cache.get(key)
    if hit is not None:
        return hit
    checked = f"{item.key}: {item.value or ''}" if item.kind == "fact" else item.text
    reasons = tuple(injection_reasons(checked))
    text = value = None
    if item.kind == "fact":
        redacted = redact_secrets(item.value or "", tuple(redact_patterns))
        value = redacted if redacted != (item.value or "") else None
    else:
        redacted = redact_secrets(item.text or "", tuple(redact_patterns))
        text = redacted if redacted != (item.text or "") else None
    verdict = ReadVerdict(reasons, text, value)
    if len(_cache) >= _CACHE_MAX:
        _cache.clear()
    _cache[key] = verdict
    return verdict


def shown(item: MemoryItem, redact_patterns: Sequence[str] = ()) -> MemoryItem:
    """``item`` as it may be shown or sent: secrets masked (the item itself when nothing is)."""
    return _masked(item, screen(item, redact_patterns))


def _masked(item: MemoryItem, verdict: ReadVerdict) -> MemoryItem:
    if not verdict.redacted:
        return item
    if item.kind == "fact":
        return dataclasses.replace(item, value=verdict.value)
    return dataclasses.replace(item, text=verdict.text or "")


# The last few (patterns, contents, flagged) screened: a turn screens the profile's memory for
# assembly and again for recall (other lists), every turn, with the same contents.
_flagged_lists: list[tuple[tuple[str, ...], list[tuple[str, str | None, str, str | None]],
                          list[tuple[int, bool, bool]]]] = []
_FLAGGED_KEPT = 4


def _flagged(items: Sequence[MemoryItem], patterns: tuple[str, ...]) -> list[tuple[int, bool, bool]]:
    """(position, quarantined, redacted) of every item the screen does not simply pass, kept
    while every item's screened content (kind, key, text, value) is the same.

    Hashing 2,000 notes to look up their verdicts cost ~7 ms a turn; comparing their contents
    (the same string objects while the memory file is unchanged) costs a tenth. Compared by
    value, not by object: an edit changes a cached item in place."""
    contents: list[tuple[str, str | None, str, str | None]] = [(i.kind, i.key, i.text, i.value) for i in items]
    for entry in _flagged_lists:
        if entry[0] == patterns and entry[1] == contents:
            return entry[2]
    verdicts = [screen(i, patterns) for i in items]
    flagged = [(k, v.quarantined, v.redacted) for k, v in enumerate(verdicts) if v.quarantined or v.redacted]
    _flagged_lists.insert(0, (patterns, contents, flagged))
    del _flagged_lists[_FLAGGED_KEPT:]
    return flagged


def for_prompt(items: Sequence[MemoryItem], redact_patterns: Sequence[str] = (),
               kept: Collection[str] = ()) -> tuple[list[MemoryItem], list[MemoryItem]]:
    """(the items that may be sent, secrets masked; the quarantined items held back).

    An item the user kept (its :func:`content_hash` in ``kept``) is sent even
    though it reads like an instruction; its secrets are still masked. Only a held
    or masked item is looked at again (:func:`_flagged`).
    """
    patterns = tuple(redact_patterns)
    flagged = _flagged(items, patterns)
    if not flagged:
        return list(items), []
    held_at = {k for k, quarantined, _ in flagged if quarantined and content_hash(items[k]) not in kept}
    masked_at = {k for k, _, redacted in flagged if redacted}
    send = [shown(item, patterns) if k in masked_at else item
            for k, item in enumerate(items) if k not in held_at]
    return send, [items[k] for k in sorted(held_at)]


HELD_TEXT = "[held back: reads like an instruction; the user can keep it in the Memory pane]"


def for_model(item: MemoryItem, redact_patterns: Sequence[str] = (), kept: Collection[str] = ()) -> str:
    """``item.display`` as a tool may hand it to a model: masked, or a placeholder when held.

    For outputs that must name one particular item (``forget``'s answer): the
    id still lets the model act on it, the text that reads like an instruction
    never reaches it."""
    if screen(item, redact_patterns).quarantined and content_hash(item) not in kept:
        return HELD_TEXT
    return shown(item, redact_patterns).display
