"""``agenttui history list|search|show|fork|export|import|embed`` (docs/storage.md; import:
history_import_cmd, embed: history_embed_cmd).

Conversations are trees: ``show`` prints the active branch -- what the
chat shows and the model is sent -- and ``--all`` every branch; ``--json`` gives
each message's ``id`` and ``parent_id``. ``fork ID --at MESSAGE_ID`` copies the
path up to that message into a new conversation and prints its id.

IDs may be given as a unique prefix (lists show the first 8 characters).
Message text is printed inert: escape sequences from the model never reach
the terminal.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from agenttui.cli.common import fail, inert, json_text, open_services

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing before the command runs
if TYPE_CHECKING:
    from agenttui.bootstrap import Services


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("history", help="list, search, show, export and import conversations")
    sub = parser.add_subparsers(dest="history_command", metavar="ACTION", required=True)

    listing = sub.add_parser("list", help="conversations, newest first")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    listing.add_argument("--archived", action="store_true", help="list archived conversations")
    listing.add_argument("--limit", type=int, default=50)
    listing.set_defaults(handler=run_list)

    search = sub.add_parser("search", help="search what this profile remembers (messages, notes, project)")
    search.add_argument("query")
    search.add_argument("--json", action="store_true", help="machine-readable output")
    search.add_argument("--limit", type=int, default=20)
    search.set_defaults(handler=run_search)

    show = sub.add_parser("show", help="print a conversation (its active branch)")
    show.add_argument("id")
    show.add_argument("--all", action="store_true", help="every branch, not only the active one")
    show.add_argument("--json", action="store_true", help="machine-readable output (with parent ids)")
    show.set_defaults(handler=run_show)

    fork = sub.add_parser("fork", help="copy a conversation up to a message into a new one")
    fork.add_argument("id")
    fork.add_argument("--at", metavar="MESSAGE_ID", type=int, required=True,
                      help="the last message to copy (ids: history show ID --json)")
    fork.set_defaults(handler=run_fork)

    from agenttui.cli.history_embed_cmd import register_embed

    register_embed(sub)

    export = sub.add_parser("export", help="export a conversation as Markdown or JSON")
    export.add_argument("id")
    export.add_argument("--format", choices=("md", "json"), required=True)
    export.add_argument("--output", "-o", metavar="FILE", type=Path, default=None)
    export.set_defaults(handler=run_export)

    from agenttui.cli.history_import_cmd import register_import

    register_import(sub)


def _conversation_json(c) -> dict:
    return {"id": c.id, "title": c.title, "created": c.created.isoformat(),
            "updated": c.updated.isoformat(), "model": c.model, "archived": c.archived,
            "message_count": c.message_count, "active_leaf_id": c.active_leaf_id}


def run_list(args: argparse.Namespace) -> int:
    services = open_services(args)
    if services is None:
        return 1
    conversations = services.history.list_conversations(limit=args.limit, archived=args.archived)
    if args.json:
        print(json_text([_conversation_json(c) for c in conversations], indent=2))
        return 0
    if not conversations:
        print("no archived conversations" if args.archived else "no conversations yet")
    for c in conversations:
        print(f"{c.id[:8]}  {c.updated:%Y-%m-%d %H:%M}  {c.message_count:>5} msgs  {inert(c.title)}")
    return 0


def run_search(args: argparse.Namespace) -> int:
    """Recall's ranking (core/recall/retrieval.py): any word may match, best first, every source."""
    if not args.query.strip():
        return fail("usage: agenttui history search QUERY  (e.g. agenttui history search deploy)", 2)
    services = open_services(args)
    if services is None:
        return 1
    from agenttui.core.recall.retrieval import RecallRequest, recall

    found = recall(RecallRequest(query=args.query, limit=args.limit, neighbours=False),
                   history=services.history, memory=services.memory, project=services.project)
    for notice in found.notices:
        print(f"warning: {inert(notice)}", file=sys.stderr)
    if args.json:
        print(json_text([_snippet_json(s) for s in found.snippets], indent=2))
        return 0
    if not found.snippets:
        print(f"nothing matches {args.query!r}")
    for s in found.snippets:
        text = " ".join(inert(s.highlight or s.text).split())
        day = f"{s.date.astimezone():%Y-%m-%d}" if s.date.year > 1 else "undated   "
        if s.source == "message":
            where = f"{(s.conversation_id or '')[:8]} #{s.message_id} {s.role}"
            print(f"{day}  message  {where}  {inert(s.conversation_title)}: {text}")
        elif s.source == "project":
            print(f"{day}  project  {inert(s.where)}: {text}")
        else:
            state = " archived" if s.archived else ""
            print(f"{day}  {s.source:<7}  {s.scope}{state} {(s.item_id or '')[:8]}: {text}")
    return 0


def _snippet_json(s) -> dict:
    data = {"source": s.source, "date": s.date.isoformat() if s.date.year > 1 else None,
            "score": round(s.score, 6), "text": s.text}
    if s.source == "message":
        data.update(conversation_id=s.conversation_id, conversation_title=s.conversation_title,
                    message_id=s.message_id, role=s.role, snippet=s.highlight or s.text,
                    created=s.date.isoformat(), archived=s.archived)
    elif s.source == "project":
        data.update(where=s.where)
    else:
        data.update(item_id=s.item_id, scope=s.scope, archived=s.archived)
    return data


def _find(services: Services, ident: str):
    """Exact id, else a unique prefix over live and archived conversations."""
    history = services.history
    found = history.get_conversation(ident)
    if found is not None:
        return found
    matches = []
    for archived in (False, True):
        offset = 0
        while True:
            batch = history.list_conversations(limit=500, offset=offset, archived=archived)
            matches += [c for c in batch if c.id.startswith(ident)]
            if len(batch) < 500:
                break
            offset += 500
    if len(matches) == 1:
        return matches[0]
    if matches:
        fail(f"{ident!r} matches {len(matches)} conversations; give more of the id")
    else:
        fail(f"no conversation {ident!r} in profile {services.profile_name!r}")
    return None


def _open_conversation(args: argparse.Namespace):
    """(services, conversation) for ``args.id``, or None after saying why."""
    services = open_services(args)
    if services is None:
        return None
    conversation = _find(services, args.id)
    return None if conversation is None else (services, conversation)


def run_show(args: argparse.Namespace) -> int:
    opened = _open_conversation(args)
    if opened is None:
        return 1
    services, conversation = opened
    history = services.history
    from agenttui.cli.usage_cmd import price_pending_now

    price_pending_now(history)  # replies an earlier command stored before it could price them
    # paged, never all at once
    messages = _with_usage(history, (history.iter_messages if args.all else history.iter_branch)(conversation.id))
    if args.json:
        from agenttui.core.history.export import message_json

        patterns = history.redact_patterns
        print(json_text({"conversation": _conversation_json(conversation),
                         "branch": "all" if args.all else "active",
                         "messages": [{**message_json(m, patterns),
                                       "usage": m.usage.as_json() if m.usage else None}
                                      for m in messages]}, indent=2))
        return 0
    print(f"# {inert(conversation.title)}  ({conversation.id})")
    branched = history.has_branches(conversation.id)
    for message in messages:
        parent = f" after #{message.parent_id}" if args.all and message.parent_id else ""
        place = history.branch_positions(conversation.id, [message.id]).get(message.id) if branched else None
        version = f" (version {place[0]} of {place[1]})" if place else ""
        print(f"\n[{message.role}] {message.created:%Y-%m-%d %H:%M} #{message.id}{parent}{version}"
              + (" (incomplete)" if message.incomplete else "") + _tool_outcome(message))
        if message.usage is not None:
            print(f"  {inert(message.usage.describe())}")
        if message.content:
            print(inert(message.content))
        for call in message.tool_calls:
            print(f"-> tool {inert(call.name)}({inert(call.arguments)})")
        if message.image_b64:
            print("[image attached]")
    return 0


def _tool_outcome(message) -> str:
    """`` shell: denied`` for a tool result: which tool and how its call ended (ok, failed,
    denied, not run, stopped); without a kept outcome (stored before they were kept) the name only."""
    if message.role != "tool":
        return ""
    name = f" {inert(message.name)}" if message.name else ""
    if not message.tool_status:
        return name
    return f"{name}: {message.tool_status}" if name else f" {message.tool_status}"


def _with_usage(history, messages):
    """``messages`` with each reply's model, tokens and cost filled in, a page at a time."""
    from itertools import islice

    while page := list(islice(messages, 500)):
        usage = history.usage_for([m.id for m in page if m.role == "assistant"])
        for message in page:
            message.usage = usage.get(message.id)
            yield message


def run_fork(args: argparse.Namespace) -> int:
    opened = _open_conversation(args)
    if opened is None:
        return 1
    services, conversation = opened
    from agenttui.core.history.store import HistoryError

    try:
        fork = services.history.fork(conversation.id, args.at)
    except HistoryError as exc:
        return fail(f"{exc} (message ids: agenttui history show {conversation.id[:8]} --json)")
    print(fork.id)
    return 0


def run_export(args: argparse.Namespace) -> int:
    opened = _open_conversation(args)
    if opened is None:
        return 1
    services, conversation = opened
    history = services.history
    text = (history.export_markdown if args.format == "md" else history.export_json)(conversation.id)
    if args.output is None:
        if sys.stdout.isatty():  # exact bytes for pipes; inert on a terminal
            text = inert(text)
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return 0
    from agenttui.core.files import atomic_write_text

    try:
        atomic_write_text(args.output, text)
    except OSError as exc:
        return fail(f"cannot write {args.output}: {exc.strerror or exc}")
    print(f"exported to {args.output}")
    return 0
