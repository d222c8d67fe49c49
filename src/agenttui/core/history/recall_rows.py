"""Recall's candidate rows, kept between look-ups while they cannot have changed.

A turn's recall reads the same messages several times (its first look-up's
best hits come back in the second look-up of their own names, in the span's
and the related words' look-ups), and the next turns read many of them again.
Reading a row (content, conversation title, date) cost about as much as
ranking it (bench/bench_recall_speed.py), so each row read is kept, by
message id, with the rule that keeps it exact:

* a stored message's role, content and date never change; its conversation's
  title and archived flag change only through a rename, an archive or a
  restore, which the store's ``epoch`` counts, as it counts deletes, clears and
  any commit of another connection or process (SQLite's ``data_version``);
* except one: the first user message appended to a conversation without a title
  gives it one, so a row whose conversation has no title is not kept;
* a message that is not recalled (tool traffic) is kept as ``None``: its role
  and tool calls do not change either.

So a kept row is always the one reading it again would give. A conversation's title and
archived flag are kept by the same rule, so rows not kept yet are read without the join.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agenttui.core.history.recall_queries import RecallRow

#: Rows kept at most, and characters of their text; past either the cache starts afresh (a
#: bound, not an LRU: a turn reads a few hundred rows, a session some thousands; a history of
#: long pastes reaches the characters first).
MAX_ROWS = 20_000
MAX_CHARS = 8_000_000


class RecallRowCache:
    """Rows by message id (``None``: not a recalled kind), valid for one store ``epoch``."""

    def __init__(self) -> None:
        self._epoch: object = None
        self._rows: dict[int, RecallRow | None] = {}
        self._chars = 0
        #: conversation id -> (title, archived), under the rule that keeps a row's (module doc):
        #: a row read with these is the row the join with ``conversations`` gives
        self.conversations: dict[str, tuple[str, bool]] = {}

    def sync(self, epoch: object) -> None:
        """Forget everything when the store changed other than by appending (module doc)."""
        if epoch != self._epoch or len(self._rows) > MAX_ROWS or self._chars > MAX_CHARS:
            self._rows = {}
            self._chars = 0
            self.conversations = {}
        self._epoch = epoch

    def put_conversation(self, conversation_id: str, title: str, archived: bool) -> None:
        if title:  # an untitled conversation may get its title (module doc)
            self.conversations[conversation_id] = (title, archived)

    @property
    def rows(self) -> Mapping[int, RecallRow | None]:
        """The rows kept, by message id (read only: :meth:`put` keeps them)."""
        return self._rows

    def __contains__(self, message_id: int) -> bool:
        return message_id in self._rows

    def get(self, message_id: int) -> RecallRow | None:
        return self._rows.get(message_id)

    def put(self, message_id: int, row: RecallRow | None) -> None:
        if row is None or row.conversation_title:  # an untitled conversation may get its title
            self._rows[message_id] = row
            self._chars += len(row.content) if row is not None else 0
