"""Per-message memory hooks (docs/memory.md): corrections, and write results as events.

``after_user_message(services, message)`` runs the correction detector on
the user's text and acts per ``settings.memory.corrections``:

* ``"off"``   -- nothing;
* ``"offer"`` -- a ``MemoryChanged("offered")`` carrying a *proposal*
  (``WriteResult(status="pending", pending=True, item=<unsaved note>)``); the
  UI asks and calls :func:`accept_offer`. The proposal is checked against the
  gate first: what the gate would reject comes back as ``"blocked"`` (visible,
  never silently dropped), what is already remembered is not offered again;
* ``"save"``  -- written at once with ``source="correction"`` →
  ``"written"`` (the UI offers :func:`undo`), or ``"blocked"``.

Nothing here raises into the turn: a detector or store failure means no
event, logged.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from agenttui.agent.events import MemoryChanged
from agenttui.core.models import MemoryItem, Message, Origin, WriteResult

if TYPE_CHECKING:
    from agenttui.bootstrap import Services

log = logging.getLogger(__name__)


def correction_note(correction: Any) -> str:
    """The note text of a detector result (tolerates the shapes it may take)."""
    for name in ("note", "text"):
        value = getattr(correction, name, None)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return str(correction).strip()


def event_for(result: WriteResult, proposed: str) -> MemoryChanged:
    """The ``MemoryChanged`` for one write-gate result (tools, extraction, hooks)."""
    shown = result.item.display if result.item is not None else proposed
    if result.status == "rejected":
        return MemoryChanged(action="blocked", result=result, text=proposed)
    if result.pending or result.status == "pending":
        return MemoryChanged(action="pending", result=result, text=shown)
    return MemoryChanged(action="written", result=result, text=shown)


def _origin(services: Services, message: Message) -> Origin:
    return Origin(profile=services.profile_name,
                  conversation_id=message.conversation_id, message_id=message.id)


def _preview(services: Services, note: str) -> tuple[str, str]:
    """(verdict, text): what the gate would do -- "reject: <reason>", "refresh" or
    "add" -- and the note as it would be stored (secrets redacted)."""
    from agenttui.core.memory.gate import check_write

    settings = services.settings
    decision = check_write(
        "note", "user", "correction", settings=settings.memory,
        existing=services.memory.items("user"), text=note,
        redact_patterns=tuple(settings.redaction.extra_patterns),
    )
    if decision.action == "reject":
        return f"reject: {decision.reason}", note
    return ("refresh" if decision.action == "refresh" else "add"), decision.text or note


def after_user_message(services: Services, message: Message) -> list[MemoryChanged]:
    mode = services.settings.memory.corrections
    if mode == "off" or message.role != "user" or not (message.content or "").strip():
        return []
    try:
        from agenttui.core.memory.corrections import detect_correction

        correction = detect_correction(message.content or "")
    except Exception:  # the detector is a nicety; never cost the user the turn
        log.exception("correction detection failed")
        return []
    if correction is None:
        return []
    note = correction_note(correction)
    if not note:
        return []
    origin = _origin(services, message)
    try:
        if mode == "save":
            result = services.memory.add_note(note, scope="user", source="correction",
                                              origin=origin)
            return [event_for(result, note)]
        verdict, stored_text = _preview(services, note)
    except Exception:
        log.exception("correction could not be checked or saved")
        return []
    if verdict.startswith("reject: "):
        from agenttui.security import redact_secrets

        blocked = WriteResult("rejected", reason=verdict.removeprefix("reject: "))
        return [MemoryChanged(action="blocked", result=blocked, text=redact_secrets(note))]
    if verdict == "refresh":
        return []  # already remembered: nothing to offer
    proposal = MemoryItem(kind="note", scope="user", text=stored_text, source="correction",
                          origin=origin)
    offer = WriteResult("pending", item=proposal, reason="offered to the user", pending=True)
    return [MemoryChanged(action="offered", result=offer, text=stored_text)]


def accept_offer(services: Services, event: MemoryChanged) -> WriteResult:
    """The user said yes to an offered (or pending model) item: write it.

    The rule is :meth:`MemoryStore.accept_proposal` (the Memory pane's
    "Remember" uses it too): the yes is the consent, the gate runs again.
    """
    item = event.result.item
    if item is None:
        return WriteResult("rejected", reason="nothing to save")
    return services.memory.accept_proposal(item)


def undo(services: Services, event: MemoryChanged) -> bool:
    """Undo a ``written`` event that *added* an item (refreshes are left alone)."""
    result = event.result
    if event.action != "written" or result.status != "added" or result.item is None:
        return False
    return bool(services.memory.remove([result.item.id]))
