"""The request a turn would send, built without sending it (``agenttui ask --dry-run``).

:func:`preview_request` runs the loop's own first-step prompt builder
(``_Turn.build_messages``: the same :func:`~agenttui.core.context.assemble.assemble`
call with ``mark_used=False``) and the same tool list
(``ToolRegistry(services, conversation_id).schemas()``) as
:func:`agenttui.agent.loop.run_turn`, so what it shows cannot drift from what
a turn sends. It deliberately reaches into the loop's ``_Turn`` rather than
copying its logic.

What differs from a real turn, because a dry run writes nothing:

* the user message is not stored first. ``assemble`` then treats the whole
  page of history as older turns and the message as the current one, which
  is what it does with the stored copy (recall ``before_id`` is unset, which
  excludes nothing a real turn's own id would not);
* the correction hook, which in a real turn may save a note before the
  model is called, does not run; a note it would have saved is not in the
  preview;
* the request parameters besides model, messages and tools (``stream``,
  ``temperature``) are not part of the preview.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agenttui.core.models import Message

if TYPE_CHECKING:
    from agenttui.bootstrap import Services


def preview_request(services: Services, conversation_id: str, text: str, *, model: str | None = None,
                    image_path: Path | str | None = None, now: datetime | None = None) -> dict[str, Any]:
    """``{"model", "messages", "tools"}`` for the first step of a turn on ``conversation_id``.

    ``conversation_id`` need not exist: a new conversation's id gives the
    request a fresh conversation would send. Raises ``ImageError`` for a bad
    ``image_path``. ``now`` builds it as if it were that moment (recall's
    "yesterday", the system prompt's date); None is the clock's.
    """
    from agenttui.agent.loop import _Turn
    from agenttui.agent.tools.registry import ToolRegistry
    from agenttui.mcp.manager import attach

    attach(services)  # MCP tools as last cached (nothing is started: a dry run connects nowhere)
    registry = ToolRegistry(services, conversation_id)
    turn = _Turn(services, conversation_id, model=model, cancel=None, approver_timeout=None,
                 registry=registry, client=None, retry_policy=None)
    user = Message(role="user", content=text)
    if image_path is not None:
        from agenttui.agent.images import load_image

        user.image_b64, user.image_mime = load_image(image_path)
    turn.user = user
    turn.now = now
    return {"model": turn.model, "messages": turn.build_messages(first_step=True),
            "tools": registry.schemas()}
