"""``agenttui usage [--since DATE] [--by day|model|profile|conversation] [--json]``.

Tokens and cost of the replies stored in history (schema v9's ``message_usage``;
replies from before it have none). Costs were priced when each reply arrived, from
the offline table of the installed ``genai-prices``; a model it does not know counts
its tokens and is listed as unpriced, never guessed. Replies stored by a command that
exited before pricing them are priced here first (the table loads once, ~1 s). Counts the provider did not
send are our estimate and are counted as such (``estimated``). ``--by profile`` adds
up every profile's history; the other groupings are the current profile's.
"""

from __future__ import annotations

import argparse
import re

from agenttui.cli.common import fail, inert, json_text

BY_CHOICES = ("day", "model", "profile", "conversation")
_RELATIVE = re.compile(r"^(\d{1,5})d$")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("usage", help="tokens and cost of the stored replies")
    parser.add_argument("--since", metavar="DATE",
                        help="only replies from this day on: YYYY-MM-DD (local), an ISO time, or Nd (last N days)")
    parser.add_argument("--by", choices=BY_CHOICES, default=None,
                        help="one line per day, model, profile or conversation")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler=run)


def since_timestamp(text: str) -> str:
    """The stored-time form (UTC ISO) of ``--since``; raises ValueError for an unreadable one."""
    from datetime import datetime, timedelta

    from agenttui.core.history.rows import to_ts

    text = text.strip()
    relative = _RELATIVE.match(text)
    if relative:
        start = datetime.now().astimezone() - timedelta(days=int(relative.group(1)))
        return to_ts(start.replace(hour=0, minute=0, second=0, microsecond=0))
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.astimezone()  # a plain date or time is the user's local time
    return to_ts(moment)


def run(args: argparse.Namespace) -> int:
    since = None
    if args.since:
        try:
            since = since_timestamp(args.since)
        except ValueError:
            return fail(f"--since {args.since!r}: give a date (2026-03-01), an ISO time or Nd (7d)")
    if args.by == "profile":
        groups = _by_profile(since)
    else:
        from agenttui.cli.common import open_services

        services = open_services(args)
        if services is None:
            return 1
        price_pending_now(services.history)
        groups = services.history.usage_totals(since=since, by=args.by)
    from agenttui.core.usage.totals import grand_total

    total = grand_total(groups)
    if args.json:
        print(json_text({"since": since, "by": args.by, "total": total.as_json(),
                         "groups": [g.as_json() for g in groups] if args.by else []}, indent=2))
        return 0
    _print(groups if args.by else [], total, args.by)
    return 0


def _by_profile(since: str | None) -> list:
    from agenttui.cli.common import paths
    from agenttui.core.config.profiles import ProfileStore
    from agenttui.core.history.store import HistoryStore
    from agenttui.core.usage.totals import grand_total

    where = paths()
    groups = []
    for name in ProfileStore(where).names():
        db = where.history_db(name)
        if not db.exists():  # never create a history for a profile that has none
            continue
        store = HistoryStore(db)
        try:
            price_pending_now(store)
            total = grand_total(store.usage_totals(since=since))
        finally:
            store.close()
        total.key = name
        groups.append(total)
    return groups


def price_pending_now(history) -> None:
    """Price replies stored by a command that exited before it could (loads the table once)."""
    if history.unpriced_usage(1):
        from agenttui.core.usage.pricing import price_pending

        price_pending(history)


def _print(groups: list, total, by: str | None) -> None:
    from agenttui.core.usage.message_usage import format_cost

    header = (by or "").upper() or "TOTAL"
    rows = [(_label(g, by), g) for g in groups] + [("total", total)]
    width = max(len(header), *(len(label) for label, _ in rows))
    print(f"{header:<{width}}  {'REPLIES':>7}  {'PROMPT':>11}  {'CACHED':>9}  {'COMPLETION':>10}  "
          f"{'REASONING':>9}  {'COST':>10}")
    for label, g in rows:
        cost = format_cost(g.cost) if g.replies > g.unpriced else "-"
        notes = []
        if g.unpriced:
            notes.append(f"{g.unpriced} unpriced")
        if g.estimated:
            notes.append(f"{g.estimated} estimated")
        note = f"  ({', '.join(notes)})" if notes else ""
        print(f"{label:<{width}}  {g.replies:>7,}  {g.prompt_tokens:>11,}  {g.cached_tokens:>9,}  "
              f"{g.completion_tokens:>10,}  {g.reasoning_tokens:>9,}  {cost:>10}{note}")
    if not total.replies:
        print("no replies with usage yet (replies stored before this version have none)")


def _label(group, by: str | None) -> str:
    if by == "conversation":
        return f"{group.key[:8]} {inert(group.title or 'Untitled')[:40]}"
    return inert(group.key) or "(unknown model)"
