"""The text semantic ranking embeds for a question: the question without the names in it.

Small embedding models place a short question by its names more than by its meaning:
a name is a rare word, cut into sub-word pieces that weigh on the whole vector, and the
turns nearest it are the ones that share the name -- in a chat between two people,
greetings and thanks ("Thanks, Kevin!"), not the turn that answers "What food did
Kevin cook?". Lexical recall already matches names exactly, as one term among the
question's others (``retrieval.names_in``), so the embedding is spared them: "What food
did cook?" finds the cooking. Dense retrievers' weakness on entity names is a known one
(Sciavolino et al. 2021, "Simple Entity-Centric Questions Challenge Dense Retrievers").

A name here is a capitalised word (a lower-case letter after the capital: "MCU" and
"NASA" stay) that is neither an English word (``english_words``, lemminflect's lexicon)
nor a stop word nor a month or weekday (lemminflect knows neither "January" nor
"Monday"), wherever it stands: "Kevin went where?" loses "Kevin", "When did ..." keeps
"When", "in January" stays. Only a short question that reads as English is changed:

* English: most of its other words (lower-case, not stop words) are English words.
  German capitalises every noun ("Wann habe ich den Vertrag unterschrieben?") and
  another language's words are unknown to the lexicon, so those are embedded whole. A
  question whose lower-case words are all stop words ("Did Fahim like the 2666 by
  Roberto Bolano?") counts: recall's stop words are English and Indonesian, and
  Indonesian capitalises names and nothing else.
* Short: at most ``MAX_WORDS`` words. In a short question a name is a large share of
  what is embedded; in a long message that tells ("No way I can study NumPy tonight, my
  brain is fried ...") it is a small one, and often the subject.
* Something is left: "Kevin?" is embedded as it is.

Every ranking of a query goes through :class:`~agenttui.core.recall.semantic.EmbeddingRanker`,
so the chat's draft, the turn, ``ask --dry-run`` and the History search box's search by
meaning embed the same text, and only that text is sent to the endpoint.

Measured on the public development sets with all-MiniLM-L6-v2 (int8 ONNX), every
question, ``bench/bench_recall_public.py --semantic-url``: REALTALK semantic 0.714 ->
0.741 (inference 0.488 -> 0.519, multi-fact 0.563 -> 0.602, temporal 0.917 -> 0.933;
default 0.692, dense alone 0.690); with ``retrieval.SEMANTIC_WEIGHT`` and months and
weekdays kept, 0.758. RealMem 0.476 either way: its questions are the user's next
message (median 35 words); without the length limit they lost 0.005 with their tool
and product names taken out. No MemDaily question (Chinese) is changed.
"""

from __future__ import annotations

import re

from agenttui.core.recall import english_words
from agenttui.core.recall.dates import NAMED_TIMES
from agenttui.core.recall.text import CAPITALISED_WORD, STOP_WORDS

_LOWER_WORD = re.compile(r"\b[a-z][a-z'’-]*\b")
_APOSTROPHE = re.compile(r"['’]")
_WORD = re.compile(r"\w+")
ENGLISH_SHARE = 0.5  # of a question's other words, for it to read as English
MAX_WORDS = 20  # a question, not a message that tells (module doc)


def _is_name(token: str) -> bool:
    word = _APOSTROPHE.split(token)[0].casefold()
    return word not in STOP_WORDS and word not in NAMED_TIMES and not english_words.known(word)


def _reads_as_english(question: str) -> bool:
    lower = _LOWER_WORD.findall(question)
    words = [w for w in lower if w not in STOP_WORDS]
    if not words:  # stop words only ("Did Fahim like the 2666 by Roberto Bolano?"): recall's own
        return bool(lower)
    return sum(english_words.known(_APOSTROPHE.split(w)[0]) for w in words) >= ENGLISH_SHARE * len(words)


def without_names(question: str) -> str:
    """``question`` as semantic ranking embeds it (module doc); unchanged when it has no name,
    does not read as English, or would be left without words."""
    if (not CAPITALISED_WORD.search(question) or len(_WORD.findall(question)) > MAX_WORDS
            or not _reads_as_english(question)):
        return question
    kept = CAPITALISED_WORD.sub(lambda m: "" if _is_name(m.group(0)) else m.group(0), question)
    kept = " ".join(kept.split())
    return kept if any(ch.isalpha() for ch in kept) else question
