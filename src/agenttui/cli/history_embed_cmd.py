"""``agenttui history embed [--limit N]``: the semantic-recall backfill, headless.

Embeds the profile's messages that have no vector for ``[recall]
embedding_model`` yet, newest first, through the configured endpoint's
``/v1/embeddings`` (:func:`agenttui.core.recall.semantic.backfill`). Progress goes to
stderr, the summary to stdout. Interrupting (Ctrl-C) keeps every finished
batch; running it again resumes. The app does the same in the background when
``[recall] semantic = true``; this is for a large history, or a first run
before turning it on.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from agenttui.cli.common import fail, open_services, warn

if TYPE_CHECKING:
    from agenttui.core.recall.semantic import BackfillResult, SemanticState
    from agenttui.core.services_view import CoreServices

PROGRESS_EVERY = 50  # batches between progress lines when stderr is not a terminal


def progress_on_stderr(live: bool) -> Callable[[BackfillResult], None]:
    """A backfill's progress line on stderr: rewritten in place on a terminal, else every
    ``PROGRESS_EVERY`` batches."""

    def progress(result: BackfillResult) -> None:
        if live or len(result.batches) % PROGRESS_EVERY == 0:
            rate = result.embedded / result.seconds if result.seconds else 0.0
            line = f"embedded {result.embedded} messages ({rate:.0f}/s)"
            print(f"\r{line}" if live else line, end="" if live else "\n", file=sys.stderr, flush=True)

    return progress


def backfill_with_progress(services: CoreServices, state: SemanticState, *, limit: int | None = None,
                           resume: str) -> BackfillResult | None:
    """``semantic.backfill`` with its progress on stderr; None when interrupted (Ctrl-C: the
    finished batches are kept, and ``resume`` says how to go on). Database errors propagate."""
    from agenttui.core.recall.semantic import backfill

    live = sys.stderr.isatty()
    try:
        return backfill(services, limit=limit, progress=progress_on_stderr(live), state=state)
    except KeyboardInterrupt:
        print(f"\ninterrupted: finished batches are kept; {resume}", file=sys.stderr)
        return None
    finally:
        if live:
            print(file=sys.stderr)


def register_embed(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("embed", help="compute embeddings for semantic recall (resumable)")
    parser.add_argument("--limit", type=int, default=None, metavar="N",
                        help="embed at most N messages this run")
    parser.set_defaults(handler=run_embed)


def run_embed(args: argparse.Namespace) -> int:
    if args.limit is not None and args.limit < 1:
        return fail("--limit must be at least 1", 2)
    services = open_services(args)
    if services is None:
        return 1
    from agenttui.core.history.store import HistoryError
    from agenttui.core.recall.semantic import semantic_state

    try:
        state = semantic_state(services)
    except HistoryError as error:
        return fail(str(error))
    if not state.enabled:
        return fail(state.take_notice() or str(state.off_reason))
    try:
        result = backfill_with_progress(services, state, limit=args.limit, resume="run it again to resume")
    except (HistoryError, sqlite3.Error) as error:
        return fail(f"history database: {error}")
    if result is None:
        return 130
    if result.error is not None:
        done = f"embedded {result.embedded} messages before it stopped; " if result.embedded else ""
        return fail(f"{done}{result.notice or result.error}")
    rest = "every message has an embedding" if result.complete else "more remain: run it again to continue"
    print(f"embedded {result.embedded} messages with {state.model} in {result.seconds:.1f} s; {rest}")
    if not services.settings.recall.semantic:
        warn("[recall] semantic is off: set it to true in config.toml for recall to use these")
    return 0
