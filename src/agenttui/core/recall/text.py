"""Words worth searching for: the query side of recall (core/recall/retrieval.py).

A whole question ("when did I sign the lease for the flat?") is turned into
its content words, in order of first appearance, without stop words; they are
OR-combined for FTS5, never required all at once, and SQLite's ``porter``
tokenizer stems both sides ("signed" finds "sign"). Order is by position in
the text, never by a ``set``'s iteration order, so the prompt is identical
under any ``PYTHONHASHSEED``.

The stop words are function words, pronouns, auxiliaries and question words
of English and Indonesian (formal and the everyday Jakarta forms: ``gue``,
``udah``, ``nggak``). Question words go too: "when" and "kapan" are in every
temporal question and in few answers. Dates ("last week", "kemarin") are read
by :mod:`agenttui.core.recall.dates` before this runs.
"""

from __future__ import annotations

import re
from functools import lru_cache

from agenttui.core.recall import english_words

#: Search terms beyond this are ignored: bounds the cost of a pasted novel.
MAX_TERMS = 24

_ENGLISH = """
a about above after again against all also am an and any are aren't as at be because been
before being below between both but by can can't cannot could couldn't did didn't do does
doesn't doing don't done down during each either else ever every few for from further get
gets getting got had hadn't has hasn't have haven't having he he'd he'll he's her here
here's hers herself him himself his how how's however i i'd i'll i'm i've if in into is
isn't it it's its itself just let's like me might more most much must mustn't my myself
need no nor not now of off on once one only or other ought our ours ourselves out over own
please quite rather really said same say says shall shan't she she'd she'll she's should
shouldn't since so some still such than that that's the their theirs them themselves then
there there's these they they'd they'll they're they've this those though through thus to
too under until up upon us very was wasn't we we'd we'll we're we've were weren't what
what's whatever when when's where where's whether which while who who's whom whose why
why's will with within without won't would wouldn't yes yet you you'd you'll you're
you've your yours yourself yourselves tell told remember recall know again ok okay hi hello
thanks thank anything something everything nothing someone anyone thing things
"""
_INDONESIAN = """
ada adalah agak agar akan aku aja anda apa apakah atau bagaimana bagi bahwa banget baru
beberapa begitu belum berapa biar bila bisa boleh bukan bukankah dah dalam dan dapat dari
daripada deh dengan di dia dong emang gimana gua gue hal hanya harus ia ini itu iya jadi
jangan jika juga kah kalau kalo kamu kami kan kapan karena ke kenapa kepada ketika kita kok
lagi lah lo loh lu mana masih mau mereka mungkin nah namun nggak ngga nya oleh pada para
pernah pun saat saja sama sampai sangat saya se sebelum sedang sehingga sekarang semua
seperti serta sesudah setelah sih siapa sini situ sudah supaya tak tapi telah tentang
tetapi tidak toh udah untuk walau ya yaitu yang yg gak ga enggak tau tahu ingat inget
"""
STOP_WORDS = frozenset((_ENGLISH + _INDONESIAN).replace("'", " ").split()) | frozenset(
    (_ENGLISH + _INDONESIAN).split()
)

_WORD = re.compile(r"[^\W_]+")
# a capitalised word, possessive or contraction included ("Kevin's"): what may be a name
CAPITALISED_WORD = re.compile(r"\b[A-Z][\w'’-]*[a-z][\w'’-]*\b")
# A compound starts only where a word starts: without the look-behind a search
# retried from every letter of a long run (a pasted base64 blob), each retry
# scanning to the run's end -- quadratic (40 kB: 21 s). A retry from inside a
# word could never match where the word's start did not (same run, same end),
# so the matches are the same.
_COMPOUND = re.compile(r"(?<![^\W_])[^\W_]+(?:-[^\W_]+)+")
# "What's my favourite show these days?": asks for the current state of something
# that may have changed, so the latest statement should win.
_CURRENT = re.compile(
    r"\b(?:these days|nowadays|right now|currently|at the moment|lately|any ?more|still|"
    r"now|sekarang|saat ini|akhir-akhir ini|belakangan ini|masih|lagi)\b", re.IGNORECASE)


def asks_current(text: str | None) -> bool:
    """Does the question ask how things are now ("these days", "sekarang")?"""
    return bool(text) and _CURRENT.search(text or "") is not None


def without_current(text: str) -> str:
    """The question without its "these days"-style words (they are no topic)."""
    return " ".join(_CURRENT.sub(" ", text).split())


#: A message longer than this is searched for by its head and tail, half each.
#: A question around a pasted log or blob is at its start or end ("what does this
#: mean: <blob> thanks"); what lies between is searched by nobody, and every pass
#: over it (terms, dates, the embedding request) would cost the pasted size on
#: each pause in typing and on each turn.
RECALL_QUERY_MAX_CHARS = 8_000


def recall_query(text: str) -> str:
    """``text`` as recall searches for it: whole up to ``RECALL_QUERY_MAX_CHARS``, else its head and tail."""
    if len(text) <= RECALL_QUERY_MAX_CHARS:
        return text
    half = RECALL_QUERY_MAX_CHARS // 2
    return f"{text[:half]} … {text[-half:]}"


@lru_cache(maxsize=1024)
def query_terms(text: str | None) -> tuple[str, ...]:
    """Content words of ``text``: casefolded, in order, each once, at most ``MAX_TERMS``.

    Words of one character are dropped, and so are stop words; numbers stay
    (a year, a flat number and a PIN-less amount are what people ask about).
    A hyphenated compound ("check-up", "sehari-hari") comes first as a phrase
    of its words, so the compound outranks texts holding one half of it.
    """
    if not text:
        return ()
    folded = text.casefold()
    seen: dict[str, None] = {}
    # recall reads a few hundred candidates a turn with this: the compound scan only
    # where a hyphen is (most texts have none), the text folded once
    if "-" in folded:
        for compound in _COMPOUND.findall(folded):  # "check-up": the words side by side
            seen[" ".join(_WORD.findall(compound))] = None
    for found in _WORD.finditer(folded):  # stops at MAX_TERMS: a paste is not listed whole
        word = found.group()
        if (len(word) > 1 or word.isdigit()) and word not in STOP_WORDS and word not in seen:
            seen[word] = None
            if len(seen) >= MAX_TERMS:
                break
    return tuple(seen)


#: A last word being typed is prefix-matched from this length on ("migr" finds
#: "migration"); shorter prefixes would expand to a large part of the vocabulary.
MIN_PREFIX_CHARS = 3


def fts_or_query(terms: tuple[str, ...] | list[str], prefix_last: bool = False) -> str | None:
    """An FTS5 MATCH expression: every term a quoted phrase, OR-combined.

    ``prefix_last`` (search boxes, as the user types) also matches words that
    start with the last term.
    """
    phrases = [fts_phrase(term) for term in terms if term]
    if prefix_last and phrases and len(terms[-1]) >= MIN_PREFIX_CHARS and not phrases[-1].endswith("*"):
        phrases[-1] += "*"
    return " OR ".join(phrases) if phrases else None


def fts_phrase(term: str) -> str:
    """One term as an FTS5 phrase; a trailing ``*`` (from :func:`word_forms`) makes it a prefix."""
    if term.endswith("*"):
        return '"' + term[:-1].replace('"', '""') + '"*'
    return '"' + term.replace('"', '""') + '"'


def typing_last_word(text: str) -> bool:
    """Is the user still typing the last word (no trailing space or punctuation)?"""
    return bool(text) and _WORD.fullmatch(text[-1]) is not None


#: Forms of one word searched together; "bought" and "buy" are one term for the
#: question, though porter stems them apart (it knows no irregular verbs).
MAX_FORMS = english_words.MAX_FORMS
MIN_AFFIX_ROOT = 4  # shorter prefixes would match too many other words


@lru_cache(maxsize=4096)
def word_forms(term: str) -> tuple[str, ...]:
    """``term``, its English lemma and the lemma's irregular forms ("paid" -> pay; "go" -> went, gone).

    From lemminflect's tables (the Automatically Generated Inflection
    Database, AGID, over the SPECIALIST lexicon), through
    :mod:`agenttui.core.recall.english_words`. Only forms the ``porter`` index does
    not already fold together are added ("went"/"go", "children"/"child",
    "bought"/"buy"; not "named"/"name"): each added form is a term of its
    own to bm25, and a regular one would only count twice. A word the tables
    do not know (a name, an Indonesian word) of ``MIN_AFFIX_ROOT`` letters or
    more is searched as a prefix instead: Indonesian attaches ``-ku``,
    ``-mu``, ``-nya``, ``-kan`` and ``-an`` to the word ("tabungan" finds
    "tabunganku"), which porter does not strip.
    """
    found = english_words.forms(term)
    if found is not None:
        return found
    if len(term) >= MIN_AFFIX_ROOT and term.isalpha():
        return (term + "*",)
    return (term,)
