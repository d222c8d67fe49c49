"""The language group of a query, for :mod:`agenttui.core.recall.language_probe`.

Script first: kana makes Japanese (kanji included), Hangul Korean, Han alone
Chinese, Cyrillic Russian or Ukrainian (by the letters only Ukrainian has, or
more of its function words than of Russian's). A
query of several scripts goes by the one most of it is written in, a CJK
character counting as much as a short Latin word. Latin script: Vietnamese by
its own letters (ơ ư đ ă and the tone marks under and above vowels), else
the language whose function words the query holds most of, among English,
Indonesian, Spanish, French, German and Portuguese; words several of them
share ("de", "la", "que") count for none. None when nothing decides (a
query of names, a tie, another script): recall then does as it did without
the probe.
"""

from __future__ import annotations

import re
from collections import Counter

_CJK_WEIGHT = 3  # a CJK character against a Latin letter: a two-character word ~ a six-letter one

_FUNCTION_WORDS: dict[str, frozenset[str]] = {
    lang: frozenset(words.split())
    for lang, words in {
        "en": "the and is are was were what did does do my you your i me of to with have has how when "
        "where which who this that it not about from for on at will would",
        "id": "yang dan di ke dari saya aku apa itu ini tidak dengan untuk kapan sudah ada gue kamu nggak "
        "bisa kita mereka dia sama udah belum juga pernah",
        "es": "el los las y es un una por con qué cómo mi del se lo cuándo dónde yo tengo fue está eso",
        "fr": "le les et est je vous qui une des du pas mon ce quoi où ai suis avec pour dans quand "
        "comment elle il nous",
        "de": "der die das und ist ich nicht ein eine mit zu den was wie wann mein meine habe bin "
        "hat war auf für sie wir es",
        "pt": "os e do da em um uma não eu meu minha é você quando onde como foi estou tenho isso ele ela nós",
    }.items()
}
# words of more than one list above decide nothing
_SHARED = frozenset(
    w
    for lang, words in _FUNCTION_WORDS.items()
    for other, more in _FUNCTION_WORDS.items()
    if other != lang
    for w in words & more
)
_WORD = re.compile(r"[^\W\d_]+")
_VIETNAMESE = re.compile(r"[ăđơưĂĐƠƯ\u1ea0-\u1ef9]")
_UKRAINIAN = re.compile(r"[іїєґІЇЄҐ]")
_UKRAINIAN_WORDS = frozenset("що як це та але мене тебе коли чи був була було який яка щось він вона".split())
_RUSSIAN_WORDS = frozenset("что как это но меня тебя когда ли был была было какой какая что-то он она".split())


def _script(char: str) -> str | None:
    code = ord(char)
    if 0x3040 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF:
        return "kana"
    if 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
        return "hangul"
    if 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0xF900 <= code <= 0xFAFF:
        return "han"
    if 0x0400 <= code <= 0x04FF:
        return "cyrillic"
    if char.isascii() and char.isalpha() or 0x00C0 <= code <= 0x024F or 0x1E00 <= code <= 0x1EFF:
        return "latin"
    if char.isalpha():
        return "other"
    return None


def language_of(text: str) -> str | None:
    """The query's language group ("en", "zh", "ja", ...; module doc), or None."""
    counts: Counter[str] = Counter()
    for char in text:
        script = _script(char)
        if script is not None:
            counts[script] += _CJK_WEIGHT if script in ("kana", "hangul", "han") else 1
    if not counts:
        return None
    cjk = counts["kana"] + counts["han"]
    groups = {
        "ja" if counts["kana"] else "zh": cjk,
        "ko": counts["hangul"],
        "cyrillic": counts["cyrillic"],
        "latin": counts["latin"],
        "other": counts["other"],
    }
    best = max(groups, key=lambda g: groups[g])
    if best == "cyrillic":
        words = _WORD.findall(text.casefold())
        ukrainian = sum(w in _UKRAINIAN_WORDS for w in words) > sum(w in _RUSSIAN_WORDS for w in words)
        return "uk" if _UKRAINIAN.search(text) or ukrainian else "ru"
    if best == "latin":
        return _latin_language(text)
    return None if best == "other" else best


def _latin_language(text: str) -> str | None:
    if _VIETNAMESE.search(text):
        return "vi"
    words = [w for w in _WORD.findall(text.casefold()) if w not in _SHARED]
    votes = Counter(lang for w in words for lang, table in _FUNCTION_WORDS.items() if w in table)
    ranked = votes.most_common(2)
    if not ranked or len(ranked) == 2 and ranked[0][1] == ranked[1][1]:
        return None
    return ranked[0][0]
