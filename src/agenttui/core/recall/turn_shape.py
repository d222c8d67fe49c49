"""The shape of a turn, as recall ranks it: does it ask, does it carry anything, what is a tag.

* :func:`asks` -- a message that asks. "…? Be honest." asks; "Guess what? We
  adopted a cat, her name is Luna." tells: its sentences that do not ask hold
  ``STATEMENT_WORDS`` words or more, and more than its questions, so it is
  ranked as a statement. "What should I ask the doctor at my check-up? I tried
  once and it went badly." still asks: the remark is the smaller part.
* :func:`ends_asking` -- the turn ends on a question: the next turn answers it
  (whichever side asked).
* :func:`without_tag_questions` -- "…, right?", "isn't it?", "n'est-ce pas ?",
  "对吧？" ask for agreement, not about a topic; their words are no search
  terms ("right" alone matched half of some histories).
* :func:`asking_first` -- a long message's questions before its remarks: a
  question after a long preamble ("…we walked all day, the lake was lovely.
  Sorry, what I meant to ask: how was the park I visited?") keeps its words
  within the search's term limit.
* :func:`contentless` -- "Thanks, John!", "Bye Nate!", "Hi Mel!": nothing but a
  greeting and a name. A question naming that person matches every such turn;
  they never fill the budget.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import islice

from agenttui.core.recall.cjk import has_cjk
from agenttui.core.recall.text import STOP_WORDS

#: Words outside its questions from which a message counts as a statement.
STATEMENT_WORDS = 6
#: A turn of more words than this is never "contentless" (a long turn says something).
SHORT_TURN_WORDS = 12

_QUESTION_END = re.compile(r"[?？]\W*$")
_SENTENCE = re.compile(r"[^.!?。！？]+[.!?。！？]*")
_WORDS = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_TAG = re.compile(
    # after a comma only: words that are topics elsewhere ("is the total correct?")
    # A tag starts at a comma or where whitespace starts, never inside a run of it, and
    # each run is taken whole (possessive): a run of spaces is walked once, not from
    # each of its positions (no match begins mid-run that could not begin at its start).
    r"(?:[,，]\s*+\b(?:correct|yes|yeah|no|ok|okay|huh|eh|true|innit|non|oder|verdad|né|bukan|kan|ya|gak|nggak|kok)"
    r"|(?:[,，]|(?<![\s,，]))\s*+\b(?:right|(?:is|are|was|were|do|does|did|have|has|had|can|could|will|would|should)n[’']t\s+"
    r"(?:it|i|you|he|she|we|they|that|there)|n[’']est[- ]ce\s+pas|nicht\s+wahr|não\s+é)"
    r"|(?:[,，]|(?<![\s,，]))\s*+(?:对吧|是吧|对不对|是不是|好吗|ですよね|だよね|よね|でしょう|맞지|그렇지|맞죠|그렇죠))\s*+[?？]++\s*+$",
    re.IGNORECASE)
_GREETINGS = frozenset("""
thanks thank thx ty bye goodbye byebye hi hello hey heya hiya yo cheers congrats congratulations
great awesome cool nice wow good morning night evening afternoon day see later soon take care talk
lol haha hahaha yeah yep yes sure welcome dear glad happy sorry ciao catch gonna meet mate buddy
makasih terima kasih dadah halo hai selamat pagi siang sore malam sampai jumpa oke sip mantap wah
谢谢 再见 你好 拜拜 晚安 早上好 ありがとう さようなら こんにちは おやすみ 감사합니다 고마워 안녕
""".split())


@lru_cache(maxsize=8192)  # a turn asks it of a few hundred candidates; the next turn meets many again
def asks(text: str) -> bool:
    """Does a user's message ask (see the module doc)?"""
    if "?" not in text and "？" not in text:
        return False
    told = asked = 0
    for sentence in _SENTENCE.findall(text):
        if sentence.rstrip().endswith(("?", "？")):
            asked += _word_count(sentence)
        else:
            told += _word_count(sentence)
    return told < STATEMENT_WORDS or told <= asked


def _word_count(sentence: str) -> int:
    """Words of a sentence; a run of CJK counts a word per two characters (no spaces to count)."""
    return sum(max(1, len(word) // 2) if has_cjk(word) else 1 for word in _WORDS.findall(sentence))


def asking_first(text: str) -> str:
    """``text`` with its asking sentences first, the rest after, each part in its order.

    Search terms are taken in order up to a limit (``text.MAX_TERMS``,
    ``cjk.MAX_UNITS``); a preamble of chat must not use them up before the
    question (MemDaily's noisy questions: 0.50 -> 0.79; RealMem 0.365 -> 0.378).
    """
    sentences = _SENTENCE.findall(text)
    asked = [s for s in sentences if s.rstrip().endswith(("?", "？"))]
    if not asked or len(asked) == len(sentences):
        return text
    told = [s for s in sentences if not s.rstrip().endswith(("?", "？"))]
    return " ".join(s.strip() for s in (*asked, *told))


def asking_part(text: str) -> str | None:
    """The sentences of ``text`` that ask, when it also holds remarks; else None."""
    sentences = _SENTENCE.findall(text)
    asked = [s.strip() for s in sentences if s.rstrip().endswith(("?", "？"))]
    if not asked or len(asked) == len(sentences):
        return None
    return " ".join(asked)


def ends_asking(text: str) -> bool:
    """Does the turn end on a question (a "?" followed by nothing but punctuation or emoji)?"""
    return _QUESTION_END.search(text) is not None


def without_tag_questions(text: str) -> str:
    """``text`` without a closing tag question ("…, right?" -> "…?")."""
    stripped = _TAG.sub("?", text.rstrip())
    return stripped if stripped.strip(" ?？") else text


@lru_cache(maxsize=4096)
def contentless(text: str) -> bool:
    """A short turn of nothing but greetings, courtesy and names ("Thanks, John!", "Bye Nate!")."""
    # a long turn is told apart by its first words: the rest of a long reply is not scanned
    words = [m.group() for m in islice(_WORDS.finditer(text), SHORT_TURN_WORDS + 1)]
    if not words or len(words) > SHORT_TURN_WORDS or not any(w.casefold() in _GREETINGS for w in words):
        return False  # "Bali!" answers a question: only a greeting with a name is empty
    for word in words:
        folded = word.casefold()
        if folded in STOP_WORDS or folded in _GREETINGS or word[:1].isupper() and len(word) > 1:
            continue  # a function word, a greeting, or a name
        return False
    return True


# A question after the moment of an event ("when did Kate dye her hair?", "how long ago ...").
_ASKS_WHEN = re.compile(r"(?i)^\W*(?:when\b|what (?:day|date|time|month|year)\b|how long ago\b|since when\b)"
                        r"|\b(?:kapan|sejak kapan)\b")
# A turn that places its event in the time it was told ("this morning I started ...", "I just got
# back", "yesterday we went ..."): what a "when" question's answer is read from, with the turn's date.
_TELLS_WHEN = re.compile(
    r"(?i)\b(?:today|tonight|yesterday|this (?:morning|afternoon|evening|week|weekend)|last (?:night|week"
    r"|weekend)|just (?:got|came|finished|started|did|went|had|made|bought|booked|found|back)"
    r"|(?:an|a few|two|couple of) (?:hours?|days?) ago|hari ini|kemarin|tadi)\b")


def asks_when(text: str) -> bool:
    """Does the question ask when something happened (its answer: the date of the turn telling it)?"""
    return _ASKS_WHEN.search(text) is not None


def tells_when(text: str) -> bool:
    """Does the turn place its event in the time it was told ("today", "last night", "just got")?"""
    return _TELLS_WHEN.search(text) is not None
