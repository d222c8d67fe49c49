"""A recalled snippet's token estimate from its lines' counts, without rendering it again.

Recall prices every snippet it considers (the fill, then each widening by one turn:
~100 a turn), and :func:`agenttui.core.tokens.estimate_tokens` of the rendered text
re-read every line each time. Its estimate is a formula of four counts of the text
(ASCII characters, other characters, words, ASCII symbols), and each count of lines
joined by whitespace is the sum of the lines' counts: a word never spans a space or
a newline. So a snippet's counts are summed from its lines' (kept per text: a turn's
quote is priced again as its snippet grows) and the same formula is applied to the
same integers: the same float operations, so exactly ``estimate_tokens`` of the
rendered text (tests/unit/recall/test_snippet_cost.py holds them equal).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from agenttui.core import tokens

Counts = tuple[int, int, int, int]  # ASCII characters, other characters, words, ASCII symbols


# kept per text: a turn's quote is priced again as its snippet grows
text_counts = lru_cache(maxsize=16_384)(tokens.text_counts)


def joined_tokens(parts: Iterable[str], newlines: int) -> int:
    """``estimate_tokens`` of ``parts`` concatenated with ``newlines`` newlines among them, where
    every part but the last ends on whitespace or a newline follows it (so words add up)."""
    ascii_chars, non_ascii, words, symbols = newlines, 0, 0, 0
    for part in parts:
        a, n, w, s = text_counts(part)
        ascii_chars += a
        non_ascii += n
        words += w
        symbols += s
    return tokens.tokens_from_counts(ascii_chars, non_ascii, words, symbols)
