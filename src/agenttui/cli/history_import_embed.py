"""After ``agenttui history import``: the imported messages indexed for semantic recall.

Decision: an import is when a large history arrives at once, and the user is
waiting for it anyway. Left to the app's background indexer, it would be
ranked by its words alone by every one-shot command (``agenttui ask``, its
``--dry-run``, which use only the vectors stored) until the app had run long
enough; so the import embeds what has no vector yet, newest first, as
``agenttui history embed`` does, whenever semantic recall is on and can run
(``[recall] semantic`` not false, a key, an endpoint that has not refused
embeddings before; or ``"local"``, on this machine). ``--no-embed`` skips it.

It is a bonus to the import, never a condition of it: the messages are
stored before it starts, and an endpoint that fails or serves no embeddings
costs one line on stderr, not the exit code. Ctrl-C keeps every finished
batch (exit 130; ``agenttui history embed`` resumes). With ``"auto"``, the
first time this profile's history goes to the endpoint is said here, as
the app says it.
"""

from __future__ import annotations

import sqlite3
import sys
from typing import TYPE_CHECKING

from agenttui.cli.common import warn
from agenttui.cli.history_embed_cmd import backfill_with_progress

if TYPE_CHECKING:
    from agenttui.core.services_view import CoreServices

LATER = "the imported messages are found by their words until `agenttui history embed` (or the app) indexes them"


def embed_imported(services: CoreServices) -> int:
    """Embed the history's messages that have no vector yet; the exit code the import keeps
    (0, or 130 when interrupted)."""
    if not services.settings.recall.semantic:
        return 0
    from agenttui.core.history.store import HistoryError
    from agenttui.core.recall.semantic import semantic_state

    try:
        state = semantic_state(services)
    except HistoryError as error:
        warn(f"semantic recall: {error}; {LATER}")
        return 0
    if not state.enabled:  # no key, or an endpoint that refused before: said when it refused
        return 0
    try:
        result = backfill_with_progress(services, state, resume="`agenttui history embed` resumes")
    except (HistoryError, sqlite3.Error) as error:
        warn(f"semantic recall: history database: {error}; {LATER}")
        return 0
    if result is None:
        return 130
    notice = state.take_notice() or (state.told_notice() if result.batches else None)
    if notice:
        print(notice, file=sys.stderr)
    if result.error is not None:
        if not result.notice:  # an endpoint without embeddings was just said, in the notice
            warn(f"semantic recall: {result.error}; {LATER}")
        return 0
    if result.embedded:
        print(f"indexed {result.embedded} messages for semantic recall with {state.model} "
              f"in {result.seconds:.1f} s", file=sys.stderr)
    return 0
