"""Counts of messages per search term, kept between recall's look-ups.

Recall asks how common each word of a question is (to drop very common
words, and to pick rare words of its best hits for a second look-up), and it
asks again for the same words turn after turn. Counting a common word means
walking up to a few thousand FTS5 matches (about 0.1 ms each time), so the
answers are kept, with the rule that keeps them exact:

* a count that reached its cap ("in at least N messages") stays true while
  messages are only added, since appends can only raise a count;
* an exact count below its cap stays true until the next message is added;
* anything else (a delete, a clear, another process's commit, a reopened
  connection) forgets everything: the store's ``epoch`` says when.

So a cached answer is always the one a fresh count would give: ``min(count, cap)``.
"""

from __future__ import annotations

#: Distinct terms kept at most; past it the cache starts afresh (a bound, not an LRU:
#: a session asks for a few thousand words at most).
MAX_TERMS = 20_000


class TermCountCache:
    """``min(count, cap)`` per term, valid for one ``(epoch, newest message id)`` state."""

    def __init__(self) -> None:
        self._epoch: object = None
        self._newest = -1
        # term -> (min(count, cap), cap), a term in one of the two: counts that reached their
        # cap apart, so an append forgets the exact ones at once (a sweep of every kept term
        # each turn grew with the session, up to ``MAX_TERMS``)
        self._saturated: dict[str, tuple[int, int]] = {}
        self._exact: dict[str, tuple[int, int]] = {}

    def sync(self, epoch: object, newest: int) -> None:
        """Forget what the store's new state may have changed (see the module doc)."""
        if (epoch != self._epoch or newest < self._newest
                or len(self._saturated) + len(self._exact) > MAX_TERMS):
            self._saturated, self._exact = {}, {}
        elif newest != self._newest:  # appends only: counts that reached their cap still hold
            self._exact = {}
        self._epoch, self._newest = epoch, newest

    def get(self, term: str, cap: int) -> int | None:
        """The count up to ``cap`` if known, else None."""
        hit = self._exact.get(term)
        if hit is not None:  # exact: true for any cap
            return min(hit[0], cap)
        hit = self._saturated.get(term)
        if hit is not None and cap <= hit[1]:  # saturated at a cap at least as high
            return min(hit[0], cap)
        return None

    def put(self, term: str, count: int, cap: int) -> None:
        if count < cap:
            self._exact[term] = (count, cap)
            self._saturated.pop(term, None)
        else:
            self._saturated[term] = (count, cap)
            self._exact.pop(term, None)
