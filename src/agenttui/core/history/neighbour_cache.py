"""Recall's neighbouring turns, kept between look-ups while they cannot have changed.

Recall brings a hit's neighbouring turn along and widens its snippets turn by
turn (core/recall/retrieval.py); successive questions meet many of the same
hits again (bench/bench_recall_speed.py: ~40 % of the neighbours a question
asks for were asked by an earlier one), and each is a row read from a random
page of the file. So the answers of ``recall_queries.first_neighbours`` are kept,
by (message id, direction), with the rule that keeps them exact:

* the turn *before* a message is found through its ``parent_id`` and the rows
  it passes, none of which changes after it is stored; only a deletion does,
  which the store's ``epoch`` counts (as it counts any commit of another
  connection or process);
* the turn *after* a message is its newest child in its conversation: a new
  child changes it. This store's own inserts forget their parents' answers
  (:meth:`NeighbourCache.forget_children_of`); another process's insert changes
  the ``epoch``, which forgets everything.

The messages handed out are shared between look-ups: readers must not change them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agenttui.core.models import Message

#: Answers kept at most; past it the cache starts afresh (a bound, not an LRU: a question asks
#: for ~90, a session some thousands).
MAX_ANSWERS = 20_000


class NeighbourCache:
    """(message id, after) -> its conversation and neighbouring turn (None: there is none), for
    one store ``epoch``."""

    def __init__(self) -> None:
        self._epoch: object = None
        self._answers: dict[tuple[int, bool], tuple[str, Message | None]] = {}

    def sync(self, epoch: object) -> None:
        """Forget everything when the store changed other than by this store's inserts."""
        if epoch != self._epoch or len(self._answers) > MAX_ANSWERS:
            self._answers = {}
        self._epoch = epoch

    def known(self, wanted: Iterable[tuple[int, str, bool]]) -> dict[tuple[int, bool], Message | None]:
        """The kept answers among ``wanted`` (message id, conversation id, after): only where the
        message was found in that conversation, as the look-up itself would answer."""
        answers = self._answers
        found: dict[tuple[int, bool], Message | None] = {}
        for mid, cid, after in wanted:
            kept = answers.get((mid, after))
            if kept is not None and kept[0] == cid:
                found[(mid, after)] = kept[1]
        return found

    def put(self, wanted: Iterable[tuple[int, str, bool]], answers: dict[tuple[int, bool], Message | None]) -> None:
        """Keep the ``answers`` a look-up gave for ``wanted`` (those it decided)."""
        for mid, cid, after in wanted:
            key = (mid, after)
            if key in answers:
                self._answers[key] = (cid, answers[key])

    def forget_children_of(self, parents: Iterable[int | None]) -> None:
        """Messages were inserted under these parents: their turns *after* may be new ones."""
        for parent in parents:
            if parent is not None:
                self._answers.pop((parent, True), None)
