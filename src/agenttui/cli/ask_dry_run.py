"""``agenttui ask --dry-run [--json] [--new] TEXT``: the request, not the turn.

Prints what ``agenttui ask TEXT`` would send as its first request -- built by
the loop's own code (:func:`agenttui.agent.dry_run.preview_request`) -- and
never contacts the chat endpoint; without semantic recall (below) it contacts
nothing at all: no endpoint, no API key, no keyring. It writes nothing
either: history is opened through
:class:`~agenttui.core.history.readonly.ReadOnlyHistoryStore` (no
conversation row, no migration, no ``PRAGMA optimize``), memory use counts
are not touched (``mark_used=False``) and no backup is made, so every file
under the data dir stays byte for byte as it was.

With ``[recall] semantic`` on ("auto", the default, or ``true``) and messages
already embedded, the dry run is still the real prompt: it embeds the
message through the endpoint's ``/embeddings`` (the key is looked up for
that) and ranks the stored vectors, exactly as the turn does
(:func:`agenttui.core.recall.semantic.rank_before_turn`, which ``ask`` calls
too), so its messages are byte for byte those the turn sends. It never
contacts the chat endpoint. Decision: "the same prompt" wins over "contacts
nothing"; ``[recall] semantic = false`` contacts nothing. If the embedding
is late or fails, stderr says the real turn's recall may differ.

Which conversation: the same rule as ``ask`` -- ``--conversation ID``, else the
profile's most recently updated conversation, or (``--new``, or none yet) a fresh one. A fresh one
still gets recall from every past conversation.

Output: ``--json`` prints ``{"model", "messages", "tools"}`` (messages and
tools exactly in wire form). Without ``--json`` the same request is printed
for reading: model, tool names, then each message under its role. Decision:
two forms because the JSON of a real prompt is a wall of escaped newlines;
scripts should use ``--json``, whose shape is the contract.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from agenttui.cli.common import fail, inert, json_text, open_services, warn

if TYPE_CHECKING:
    from agenttui.bootstrap import Services


def run_dry_run(args: argparse.Namespace, text: str) -> int:
    from agenttui.agent.dry_run import preview_request
    from agenttui.agent.images import ImageError
    from agenttui.cli.ask_conversation import ConversationNotFound, continued_conversation, turn_model
    from agenttui.core.history.readonly import ReadOnlyHistoryStore
    from agenttui.core.history.store import HistoryError
    from agenttui.core.models import new_id

    services = open_services(args)
    if services is None:
        return 1
    try:
        services.history = ReadOnlyHistoryStore(
            services.paths.history_db(services.profile_name),
            redact_patterns=services.settings.redaction.extra_patterns)
        if not _rank_as_the_turn_will(services, text):
            services.semantic_ranker = lambda: None  # nothing (more) is sent for this dry run
        try:
            latest = continued_conversation(services, args)  # the real turn's rule
        except ConversationNotFound:
            return 1
        conversation_id = latest.id if latest is not None else new_id()  # never stored
        request = preview_request(services, conversation_id, text, model=turn_model(services, args, latest),
                                  image_path=args.image, now=args.now)
    except (HistoryError, ImageError) as exc:
        return fail(str(exc))
    finally:
        services.close()
    # The prompt carries model-written history and notes. JSON: the same value with
    # C1/bidi/format characters as \\u escapes (json_text); the readable form: inert.
    out = json_text(request, indent=2) if args.json else inert(_readable(request))
    sys.stdout.write(out + "\n")
    return 0


def _rank_as_the_turn_will(services: Services, text: str) -> bool:
    """Semantic recall's ranking of ``text``, as ``ask`` waits for it (module doc); True if ready."""
    from agenttui.core.recall.semantic import has_vectors, rank_before_turn, semantic_state, unembedded_count

    if rank_before_turn(services, text):
        waiting = unembedded_count(services)
        if waiting:  # the turn ranks the same way; the user may expect those to count already
            warn(f"semantic recall: {waiting:,} messages are not embedded yet and are found by their "
                 "words only, in this dry run as in the turn; `agenttui history embed` embeds them "
                 "(the app does it in the background)")
        return True
    recall = services.settings.recall
    if not (recall.semantic and recall.enabled):
        return False
    if has_vectors(services):  # the turn would have asked too: say why this one may differ
        state = semantic_state(services)
        why = state.take_notice() or state.off_reason or "the embedding came too late"
        warn(f"semantic recall: recall is ranked without embeddings ({why}); the real turn's "
             "recalled snippets may differ")
    return False


def _readable(request: dict[str, Any]) -> str:
    names = [tool.get("function", {}).get("name", "?") for tool in request["tools"]]
    lines = [f"model: {request['model']}", f"tools: {', '.join(names) or '(none)'}",
             f"messages: {len(request['messages'])}"]
    for message in request["messages"]:
        heading = message["role"] + (f" {message['name']}" if message.get("name") else "")
        lines += ["", f"--- {heading} ---", _content(message.get("content"))]
        for call in message.get("tool_calls") or ():
            function = call.get("function", {})
            lines.append(f"-> tool {function.get('name')}({function.get('arguments')})")
    return "\n".join(lines)


def _content(content: Any) -> str:
    if isinstance(content, list):  # text + image parts
        parts = [p.get("text", "") if p.get("type") == "text" else "[image attached]"
                 for p in content if isinstance(p, dict)]
        return "\n".join(p for p in parts if p)
    return content or ""
