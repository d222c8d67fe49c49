"""``/compact``'s model call: summarise the older part of a conversation.

:func:`summarise` reads the active branch, picks what to summarise
(:func:`agenttui.core.context.compaction.plan_compaction`) and asks the model once --
not streamed, no tools, the transcript quoted as data -- for a summary. It
stores nothing: the chat shows the summary for editing and stores it
(:func:`store_summary`) only when the user keeps it. Failures are
:class:`CompactError` with the endpoint's reason in words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agenttui.core.context.compaction import CompactPlan, plan_compaction, summary_message, summary_request
from agenttui.core.models import Message

if TYPE_CHECKING:
    from agenttui.bootstrap import Services


class CompactError(Exception):
    """Why no summary could be made (shown to the user as is)."""


def plan_for(services: Services, conversation_id: str) -> CompactPlan | None:
    """The plan for the conversation's active branch (read whole: /compact is rare and explicit)."""
    history = services.history
    walk = getattr(history, "iter_branch", None) or history.iter_messages
    return plan_compaction(list(walk(conversation_id)))


async def summarise(services: Services, plan: CompactPlan, *, client: Any = None,
                    model: str | None = None) -> str:
    """The model's summary of ``plan`` (stripped); raises :class:`CompactError`."""
    from agenttui.agent.loop import client_for
    from agenttui.agent.retry import classify
    from agenttui.core.context.model_limits import prompt_budget

    model = model or services.model
    if client is None:
        key = services.api_key()
        if not key.value:
            from agenttui.agent.no_key import no_key_message

            raise CompactError(no_key_message(key.problem))
        client = client_for(services, key.value)
    messages = summary_request(plan, prompt_budget(services.settings, model))
    timeout = float(services.settings.agent.request_timeout)
    try:
        response = await client.chat.completions.create(model=model, messages=messages, stream=False)
    except Exception as exc:
        raise CompactError(classify(exc, timeout).message) from exc
    choices = getattr(response, "choices", None) or []
    if not choices:
        raise CompactError("The endpoint answered without a summary (no choices in its reply).")
    text = (choices[0].message.content or "").strip()
    finish = getattr(choices[0], "finish_reason", None)
    if finish == "length":
        raise CompactError("The summary was cut at the model's token limit; nothing was stored.")
    if not text:
        raise CompactError("The model answered with an empty summary; nothing was stored.")
    return text


def store_summary(services: Services, conversation_id: str, text: str, plan: CompactPlan) -> Message:
    """Append the (edited) summary to the conversation; returns the stored message."""
    if not text.strip():
        raise CompactError("An empty summary is not stored.")
    return services.history.append(conversation_id, summary_message(text, plan))
