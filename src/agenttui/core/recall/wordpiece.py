"""BERT's uncased WordPiece tokenizer, in plain Python, for the local embedder's token table.

The static vectors (:mod:`agenttui.core.recall.local_embedder`) are indexed by the
teacher's WordPiece vocabulary, so a text must be cut the way BERT cuts it:
control characters dropped, CJK ideographs one token each, lower case, accents
stripped, punctuation split off, then each word greedily into the longest pieces
the vocabulary has (``play ##ing``). A word with no such split is unknown and
left out. Words are cached: chat text repeats them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

MAX_WORD_CHARS = 100  # BERT's limit; longer "words" (hashes, base64) are unknown
CACHE_WORDS = 50_000


def _is_cjk(code: int) -> bool:
    return (0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0x20000 <= code <= 0x2A6DF
            or 0x2A700 <= code <= 0x2B73F or 0x2B740 <= code <= 0x2B81F or 0x2B820 <= code <= 0x2CEAF
            or 0xF900 <= code <= 0xFAFF or 0x2F800 <= code <= 0x2FA1F)


def _is_punctuation(char: str) -> bool:
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def basic_words(text: str) -> list[str]:
    """BERT's basic tokenization (uncased): the words WordPiece then splits."""
    spaced: list[str] = []
    for char in text:
        code = ord(char)
        if code == 0 or code == 0xFFFD:
            continue
        category = unicodedata.category(char)
        if char in "\t\n\r" or category == "Zs":
            spaced.append(" ")
        elif category in ("Cc", "Cf"):
            continue
        elif _is_cjk(code):
            spaced.append(f" {char} ")
        else:
            spaced.append(char)
    words: list[str] = []
    for word in "".join(spaced).lower().split():
        word = "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")
        current = ""
        for char in word:
            if _is_punctuation(char):
                if current:
                    words.append(current)
                words.append(char)
                current = ""
            else:
                current += char
        if current:
            words.append(current)
    return words


class WordPiece:
    """Token ids of texts under a WordPiece ``vocab`` (token -> id)."""

    def __init__(self, vocab: dict[str, int]) -> None:
        self.vocab = vocab
        self._cache: dict[str, tuple[int, ...]] = {}

    def ids(self, text: str) -> list[int]:
        out: list[int] = []
        for word in basic_words(text):
            pieces = self._cache.get(word)
            if pieces is None:
                pieces = self._split(word)
                if len(self._cache) < CACHE_WORDS:
                    self._cache[word] = pieces
            out.extend(pieces)
        return out

    def _split(self, word: str) -> tuple[int, ...]:
        if len(word) > MAX_WORD_CHARS:
            return ()
        pieces: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = self.vocab.get(piece)
                if found is not None:
                    break
                end -= 1
            if found is None:
                return ()  # BERT's [UNK] for the whole word: no vector to add
            pieces.append(found)
            start = end
        return tuple(pieces)


def vocab_ids(tokens: Iterable[str]) -> dict[str, int]:
    return {token: index for index, token in enumerate(tokens)}
