"""Context assembly (M5, H4, H5, P2): the one call the agent loop makes.

``assemble(services, conversation_id, user_message)`` returns the request's
messages in OpenAI wire form:

1. the system prompt (:mod:`context_prompt`: soul, user name, memory,
   project context, each under its budget);
2. optionally one more system message quoting the ``search_k`` most relevant
   *older* messages found by full-text search (H4, seed 004). They are quoted
   as data in a block rather than replayed as turns, so the model never sees
   a user/assistant sequence that did not happen;
3. the window of recent messages (:mod:`context_window`), older turns' tool
   steps collapsed (H5);
4. the current turn: the user message and any tool steps already taken in
   this turn (they follow it in history), always whole.

It reads one bounded page of history (never the whole conversation), so its
cost does not grow with the conversation. Images are sent only with the
current message; older ones become a text placeholder (they would otherwise
be re-sent, at ~765 tokens each, on every turn). A partial reply kept after a
failure (A4) is marked as interrupted so the model does not continue it as if
it were whole.

Failures reading memory or project files, or recording ``mark_used``, become
``warnings``: they never cost the user the turn.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from agenttui.core.context_prompt import PromptParts, build_system_prompt, content_words
from agenttui.core.context_window import group_messages, select_window
from agenttui.core.models import Message
from agenttui.core.tokens import message_tokens, wire_tokens

__all__ = [
    "AssembledPrompt", "PromptParts", "assemble", "build_system_prompt", "relevant_older",
    "select_window", "to_wire",
]

log = logging.getLogger(__name__)

IMAGE_PLACEHOLDER = "[an image was attached to this message]"
INTERRUPTED_MARK = "[this reply was interrupted and is incomplete]"
EARLIER_INTRO = (
    "Messages from earlier in this conversation that may be relevant (found by search, "
    "quoted as data, oldest first):"
)
MAX_QUOTE_CHARS = 1_000
_SEARCH_KEYWORDS = 5  # single-word fallback searches when the whole message finds too little
_NOT_A_TURN = "\x00no-current-turn"  # a turn id no stored message has


@dataclass
class AssembledPrompt:
    messages: list[dict]  # OpenAI wire form, ready for chat.completions.create
    injected_ids: list[str]  # memory items in the system prompt (for the trace)
    system_prompt: str
    window: list[Message] = field(default_factory=list)  # stored messages sent as turns
    older: list[Message] = field(default_factory=list)  # quoted search results
    tokens: int = 0  # estimate for the whole request
    warnings: list[str] = field(default_factory=list)


def to_wire(message: Message, *, keep_image: bool = False) -> dict:
    """``Message.to_openai`` with the old-image and interrupted-reply rules applied."""
    data = message.to_openai()
    if message.image_b64 and not keep_image and isinstance(data.get("content"), list):
        text = message.content or ""
        data["content"] = f"{text}\n{IMAGE_PLACEHOLDER}" if text else IMAGE_PLACEHOLDER
    if message.incomplete and message.role == "assistant":
        data["content"] = f"{message.content or ''}\n{INTERRUPTED_MARK}".lstrip("\n")
    return data


def _keywords(query: str, limit: int) -> list[str]:
    words = sorted(content_words(query), key=len, reverse=True)
    return words[:limit]


def relevant_older(
    history,
    conversation_id: str,
    query: str | None,
    k: int,
    exclude_ids: Sequence[int | None] = (),
    before_id: int | None = None,
) -> list[Message]:
    """Up to ``k`` earlier user/assistant messages matching ``query``, oldest first.

    ``HistoryStore.search`` ANDs its terms, so a whole message rarely matches
    anything; after trying it whole, the longest content words are tried one
    at a time. Tool traffic is skipped (a lone tool result or ``tool_calls``
    message is meaningless out of its group). ``exclude_ids`` (the window, the
    current message) and anything at or after ``before_id`` never come back.
    """
    if k <= 0 or not query or not query.strip():
        return []
    excluded = {i for i in exclude_ids if i is not None}
    found: dict[int, Message] = {}
    queries = [query, *_keywords(query, _SEARCH_KEYWORDS)]
    for text in queries:
        for hit in history.search(text, limit=k * 4 + len(excluded), conversation_id=conversation_id):
            if len(found) >= k:
                break
            mid = hit.message_id
            if mid in excluded or mid in found or hit.role not in ("user", "assistant"):
                continue
            if before_id is not None and mid >= before_id:
                continue
            message = history.get_message(mid)
            if message is None or message.tool_calls or not (message.content or "").strip():
                continue
            found[mid] = message
        if len(found) >= k:
            break
    return sorted(found.values(), key=lambda m: m.id or 0)


def render_older(older: Sequence[Message]) -> str:
    lines = []
    for message in older:
        text = " ".join((message.content or "").split())
        if len(text) > MAX_QUOTE_CHARS:
            text = text[: MAX_QUOTE_CHARS - 1] + "…"
        text = re.sub(r"</?earlier", lambda m: m.group(0).replace("<", "‹"), text, flags=re.I)
        lines.append(f"[{message.created:%Y-%m-%d} {message.role}] {text}")
    return f"{EARLIER_INTRO}\n<earlier>\n" + "\n".join(lines) + "\n</earlier>"


def _page_size(settings) -> int:
    """Rows to read: room for collapsed tool steps and the current turn."""
    history = settings.history
    if history.window_tokens > 0:
        return 500
    return max(1, history.window_messages) * 4 + 50


def assemble(
    services,
    conversation_id: str,
    user_message: Message | str,
    *,
    mark_used: bool = True,
    now: datetime | None = None,
) -> AssembledPrompt:
    """Build the request for this step of the turn (see module doc).

    ``user_message`` is normally the stored user message (with its id); the
    loop may call ``assemble`` again after each tool step and the steps stored
    since that message are included. If it was never stored (persisting
    failed), it is appended as given. Pass ``mark_used=False`` on the second
    and later steps of a turn so ``use_count`` counts turns, not requests.
    """
    if isinstance(user_message, str):
        user_message = Message(role="user", content=user_message)
    settings = services.settings
    warnings: list[str] = []

    page = services.history.messages(conversation_id, limit=_page_size(settings))
    position = next(
        (k for k, m in enumerate(page) if user_message.id is not None and m.id == user_message.id),
        None,
    )
    if position is None:
        older_msgs = [m for m in page if m.id is None or m.id != user_message.id]
        current = [user_message]
    else:
        older_msgs = page[:position]
        # the stored copy is redacted; send the caller's (it may hold the image)
        current = [user_message, *page[position + 1 :]]
    current = [m for group in group_messages(current) for m in group]
    if not current or current[0] is not user_message:
        current.insert(0, user_message)

    budget = settings.history.window_tokens
    window: list[Message] = []
    if budget > 0:
        budget -= sum(message_tokens(m) for m in current)
    if settings.history.window_tokens <= 0 or budget > 0:
        window = select_window(
            older_msgs,
            count=settings.history.window_messages if settings.history.window_tokens <= 0 else 0,
            token_budget=max(0, budget) if settings.history.window_tokens > 0 else 0,
            collapse_tool_steps=settings.history.collapse_tool_steps,
            current_turn_id=_NOT_A_TURN,  # every stored step here is from an older turn
        )

    older: list[Message] = []
    if settings.history.search_k > 0:
        try:
            older = relevant_older(
                services.history, conversation_id, user_message.content,
                settings.history.search_k,
                exclude_ids=[m.id for m in window] + [m.id for m in current],
                before_id=user_message.id,
            )
        except Exception as error:  # search is a nicety; never lose the turn over it
            warnings.append(f"history search failed: {error}")

    try:
        items = services.memory.items("all", include_expired=False)
    except Exception as error:
        items = []
        warnings.append(f"memory could not be read: {error}")
    try:
        project_section = services.project.prompt_section()
    except Exception as error:
        project_section = ""
        warnings.append(f"project context could not be read: {error}")

    parts = build_system_prompt(settings, items, project_section, user_message.content, now=now)
    if mark_used and parts.injected_ids:
        try:
            services.memory.mark_used(parts.injected_ids)
        except Exception as error:  # bookkeeping only
            warnings.append(f"could not record memory use: {error}")

    messages: list[dict] = [{"role": "system", "content": parts.text}]
    if older:
        messages.append({"role": "system", "content": render_older(older)})
    messages.extend(to_wire(m) for m in window)
    messages.extend(to_wire(m, keep_image=m is user_message) for m in current)
    for warning in warnings:
        log.warning("context: %s", warning)
    return AssembledPrompt(
        messages=messages,
        injected_ids=parts.injected_ids,
        system_prompt=parts.text,
        window=window,
        older=older,
        tokens=wire_tokens(messages),
        warnings=warnings,
    )
