"""Chinese, Japanese and Korean text as units that can match: characters indexed, bigrams searched.

Chinese and Japanese write no spaces between words, so to the ``unicode61``
tokenizer a whole clause ("我的猫叫小白") is one token, and a question
("我的猫叫什么名字？") shares none with its answer. Korean has spaces, but
particles stick to the word ("고양이는", "고양이가"). So CJK text gets an
index of its own (``messages_cjk``, :mod:`history.schema` v8) in which every
CJK character is a token of its own, and a question searches it by character
bigrams as FTS5 phrases ("名 字" matches the two characters side by side):
the usual way to search CJK without a dictionary, and what a BM25 over
bigrams does. Runs of CJK text are kept apart by a filler token, so a bigram
never spans punctuation or a space.

The words and numbers of such a message that are not CJK are tokens of that
index too ("手机号是18440423876": to ``unicode61`` the number is glued to the
clause, one token, so no question could find it), and a CJK question searches
its own ("电话是18440423876的人" asks for ``18440423876``). A message indexed before
they were carries its CJK characters only: its numbers stay unfound, as before.

Stop units: a bigram of two function characters ("什么", "我的", "은는"), every
pure-hiragana bigram (particles and endings: "ました", "ですか"), and a few
words every question holds ("时候", "记得", "기억"), much as English drops
"when" and "remember". A lone character is searched on its own only when it
is a whole run ("猫" between punctuation).
"""

from __future__ import annotations

import re
from functools import lru_cache

from agenttui.core.recall.text import STOP_WORDS

#: Han (with extension A and compatibility ideographs), hiragana, katakana, Hangul.
_CJK_CLASS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"
_CJK_RUN = re.compile(f"[{_CJK_CLASS}]+")
_HIRAGANA = re.compile("[\u3040-\u309f]+")
#: A CJK run, or a word or number of other letters (Latin, digits) beside or between them.
_PIECE = re.compile(f"([{_CJK_CLASS}]+)|((?:(?![{_CJK_CLASS}])[^\\W_])+)")
#: SQLite GLOB for "holds CJK" (the migration's backfill: only those rows are read into Python).
CJK_GLOB = f"*[{_CJK_CLASS}]*"
#: Between pieces in the index: keeps "名。字" from matching the phrase "名 字". A private-use
#: character (a token to ``unicode61``) no question holds; rows indexed before numbers were
#: have "0" there, which only a question searching the number 0 would meet.
_FILLER = "\ue000"
#: Units searched per question at most (bounds the OR query like ``text.MAX_TERMS``). A long
#: message asks in its last sentence (:func:`recall.turn_shape.asking_first` puts that first);
#: 32 cut the words around it, which still point at the answer (MemDaily's noisy questions:
#: 0.85 at 32, 0.87 at 96, bench/bench_recall_public.py).
MAX_UNITS = 96

_STOP_CHARS = frozenset(
    # Chinese function characters (simplified and traditional)
    "的了是我你他她它们們吗嗎呢吧啊呀嘛在有和与與就都也还還这這那哪什么麼怎谁誰个個一不没沒很会會要能可以"
    "把被给給对對说說过過着著得地之其或而及等让讓从從向到为為于於并並又再才只些自己里裡儿兒吗"
    # Japanese function kanji and katakana common in questions
    "私僕俺何誰事時"
    # Korean particles, endings and pronouns (one syllable)
    "은는이가을를에의도와과로으서게고나내제저뭐요야지죠니까다어었았했해하한할것거수좀"
)
_STOP_WORDS = frozenset("""
时候 時候 记得 記得 知道 告诉 告訴 一下 因为 因為 所以 但是 如果 然后 然後 已经 已經 请问 請問 问你 問你
教え 覚え 覚えて 思い
무엇 언제 어디 누구 어떻 어떤 기억 우리 알려 말해 얘기 이야기
""".split())


def has_cjk(text: str | None) -> bool:
    return bool(text) and _CJK_RUN.search(text or "") is not None


def index_text(content: str | None) -> str | None:
    """The text the CJK index holds for ``content``: its CJK characters one by one and its other
    words whole, pieces apart; None when it holds no CJK (the message is not in that index)."""
    if not has_cjk(content):
        return None
    pieces = [" ".join(run) if run else word.casefold() for run, word in _PIECE.findall(content or "")]
    return f" {_FILLER} ".join(pieces)


def _stop(unit: str) -> bool:
    """A stop word, or every character a function character or hiragana ("什么", "私の", "ました")."""
    return unit in _STOP_WORDS or all(c in _STOP_CHARS or _HIRAGANA.fullmatch(c) for c in unit)


@lru_cache(maxsize=1024)
def query_units(text: str | None) -> tuple[str, ...]:
    """The CJK search units of ``text``, in order, once, as FTS5 phrase texts ("名 字"), with its
    other words and numbers ("18440423876"; stop words left out); none without CJK."""
    if not has_cjk(text):
        return ()
    units: dict[str, None] = {}
    for run, word in _PIECE.findall(text or ""):
        if run:
            grams = [run] if len(run) == 1 else [run[k:k + 2] for k in range(len(run) - 1)]
            found = [" ".join(gram) for gram in grams if not _stop(gram)]
        else:
            found = [word.casefold()] if word.casefold() not in STOP_WORDS else []
        for unit in found:
            units.setdefault(unit, None)
            if len(units) >= MAX_UNITS:
                return tuple(units)
    return tuple(units)
