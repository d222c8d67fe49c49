"""``agenttui memory list|add|set|forget|audit`` (docs/memory.md).

Writes go through the same write gate as the UI (``MemoryStore``); a rejection
is exit 1 with the gate's reason on stderr. ``forget`` shows what matches,
backs up first, and needs ``--yes`` when more than one item matches or stdin
is not a terminal; on a terminal several matches are confirmed y/N.
"""

from __future__ import annotations

import argparse
import sys

from agenttui.cli.common import (
    add_yes,
    backup_first,
    confirm_destructive,
    fail,
    inert,
    json_text,
    open_services,
    stdin_is_tty,
)

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing before the command runs
if TYPE_CHECKING:
    from agenttui.bootstrap import Services

SCOPES = ("user", "profile")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("memory", help="list, add, forget and audit what the agent remembers")
    sub = parser.add_subparsers(dest="memory_command", metavar="ACTION", required=True)

    listing = sub.add_parser("list", help="list memory items")
    listing.add_argument("--scope", choices=(*SCOPES, "all"), default="all")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    listing.set_defaults(handler=run_list)

    add = sub.add_parser("add", help="remember a note (checked by the memory gate)")
    add.add_argument("text", help='e.g. "summarise output over 20 lines"')
    add.add_argument("--scope", choices=SCOPES, default="user")
    add.set_defaults(handler=run_add)

    fact = sub.add_parser("set", help="remember a fact KEY = VALUE (checked by the memory gate)")
    fact.add_argument("key", help="e.g. language")
    fact.add_argument("value", help="e.g. id")
    fact.add_argument("--scope", choices=SCOPES, default="user")
    fact.set_defaults(handler=run_set)

    forget = sub.add_parser("forget", help="remove the items whose text contains SUBSTRING")
    forget.add_argument("substring")
    forget.add_argument("--scope", choices=(*SCOPES, "all"), default="all")
    add_yes(forget)
    forget.set_defaults(handler=run_forget)

    audit = sub.add_parser("audit", help="flag suspicious, secret, duplicate, stale … items")
    audit.add_argument("--json", action="store_true", help="machine-readable output")
    audit.add_argument("--all", action="store_true", help="list clean items too")
    audit.add_argument("--deep", action="store_true",
                       help="also ask the model to review memory and propose merges, corrections and "
                            "deletions; each is applied only if you accept it (on a terminal)")
    audit.set_defaults(handler=run_audit)

    from agenttui.cli.memory_import_cmd import register_import

    register_import(sub, SCOPES)


def _line(item) -> str:
    flags = " [pinned]" if item.pinned else ""
    if item.is_expired():
        flags += " [expired]"
    return f"{item.id[:8]}  {item.scope:<7}  {inert(item.display)}{flags}"


def run_list(args: argparse.Namespace) -> int:
    services = open_services(args)
    if services is None:
        return 1
    items = services.memory.items(args.scope)
    if args.json:
        print(json_text([item.to_dict() for item in items], indent=2))
        return 0
    if not items:
        print("no memory items yet (add one: agenttui memory add \"I prefer short answers\")")
    for item in items:
        print(_line(item))
    return 0


def _report(result) -> int:
    from agenttui.core.errors import clip  # a refused 5 MB note is not echoed in full

    if not result.ok:
        return fail(f"not saved: {clip(result.reason or 'rejected by the memory gate', 500)}")
    note = f" ({clip(result.reason, 500)})" if result.reason else ""
    print(f"{result.status} {result.item.id[:8]}  {inert(result.item.display)}{note}")
    for item in result.archived:
        print(f"archived (over the cap) {item.id[:8]}  {inert(item.display)}")
    return 0


def run_add(args: argparse.Namespace) -> int:
    if not args.text.strip():
        return fail('usage: agenttui memory add TEXT  (e.g. agenttui memory add '
                    '"summarise output over 20 lines")', 2)
    services = open_services(args)
    if services is None:
        return 1
    return _report(services.memory.add_note(args.text, scope=args.scope, source="explicit"))


def run_set(args: argparse.Namespace) -> int:
    if not args.key.strip() or not args.value.strip():
        return fail("usage: agenttui memory set KEY VALUE  (e.g. agenttui memory set language id)", 2)
    services = open_services(args)
    if services is None:
        return 1
    return _report(services.memory.set_fact(args.key, args.value, scope=args.scope,
                                            source="explicit"))


def run_forget(args: argparse.Namespace) -> int:
    if not args.substring.strip():
        return fail('usage: agenttui memory forget SUBSTRING  (e.g. agenttui memory forget "saya")', 2)
    services = open_services(args)
    if services is None:
        return 1
    matches = services.memory.find(args.substring, args.scope)
    if not matches:
        return fail(f"nothing in memory matches {args.substring!r}")
    print(f"{len(matches)} item(s) match:")
    for item in matches:
        print("  " + _line(item))
    if (len(matches) > 1 or not stdin_is_tty()) and not confirm_destructive(
            args, f"forget these {len(matches)} item(s)"):
        return 1
    if backup_first("forgetting memory") is None:
        return 1
    removed = services.memory.remove([item.id for item in matches])
    print(f"forgot {len(removed)} item(s)")
    return 0


def _deep_review(services: Services, items, args: argparse.Namespace, findings) -> int:
    """``--deep``: the model's proposals, each applied only when the user accepts it."""
    import asyncio

    from agenttui.agent.deep_review import apply_proposal, review

    key = services.api_key()
    if not key.value:
        print("The deep review needs the model: set OPENAI_API_KEY (or the profile's key).", file=sys.stderr)
        return 1
    result = asyncio.run(review(services, items))
    for problem in result.problems:
        print(f"note: {inert(problem)}", file=sys.stderr)
    if args.json:
        print(json_text([{"action": p.action, "ids": list(p.ids), "keep": p.keep, "text": p.text,
                          "reason": p.reason, "items": [i.to_dict() for i in p.items]}
                         for p in result.proposals], indent=2))
        return 0
    flagged = sum(1 for f in findings if f.flags)
    print(f"{flagged} of {len(findings)} item(s) flagged; the model proposes "
          f"{len(result.proposals)} change(s) ({result.requests} request(s))")
    interactive = sys.stdin.isatty()
    changed = 0
    for number, proposal in enumerate(result.proposals, start=1):
        print(f"{number}. {inert(proposal.describe())}")
        if not interactive:
            continue
        try:
            answer = input("   accept? [y/N] ").strip().casefold()
        except EOFError:
            break
        if answer not in ("y", "yes"):
            continue
        outcome = apply_proposal(services.memory, proposal)
        if isinstance(outcome, str):
            print(f"   {outcome}")
            changed += 1
        elif outcome.ok:
            print("   done")
            changed += 1
        else:
            print(f"   not applied: {inert(outcome.reason)}")
    if not interactive and result.proposals:
        print("Nothing changed: run this on a terminal to accept proposals one by one.")
    elif changed:
        print(f"{changed} change(s) applied. Backup: {services.memory.last_backup}")
    return 0


def run_audit(args: argparse.Namespace) -> int:
    from agenttui.core.audit.findings import audit
    from agenttui.core.audit.vectors import embedder_for

    services = open_services(args)
    if services is None:
        return 1
    settings = services.settings.memory
    from agenttui.sync.conflicts import memory_conflicts

    options = dict(stale_days=settings.stale_days, max_chars=settings.max_note_chars,
                   redact_patterns=services.settings.redaction.extra_patterns,
                   sync_conflicts=memory_conflicts(services.paths))
    items = services.memory.items("all")
    embed = embedder_for(services)  # duplicates by meaning with [recall] semantic = true
    try:
        findings = audit(items, embed=embed, **options)
    except Exception as error:  # EmbeddingError or an endpoint gone: the lexical audit still runs
        if embed is None:
            raise
        print(f"note: duplicates by meaning are off ({error}); the audit is lexical", file=sys.stderr)
        findings = audit(items, **options)
    shown = findings if args.all else [f for f in findings if f.flags or f.notes]
    if getattr(args, "deep", False):
        return _deep_review(services, items, args, findings)
    if args.json:
        print(json_text([{"item": f.item.to_dict(), "flags": list(f.flags),
                          "reasons": dict(f.reasons), "twins": list(f.twins),
                          "matched": dict(f.matched), "notes": dict(f.notes)}
                         for f in shown], indent=2))
        return 0
    if not shown:
        print(f"{len(findings)} item(s) audited; nothing flagged")
        return 0
    for finding in shown:
        print(_line(finding.item))
        for flag in finding.flags:
            print(f"    {flag}: {inert(finding.reasons.get(flag, ''))}")
        for name, note in finding.notes.items():  # overrides: shown, not flagged
            print(f"    {name} (not a problem): {inert(note)}")
    flagged = sum(1 for f in findings if f.flags)
    print(f"{flagged} of {len(findings)} item(s) flagged")
    return 0
