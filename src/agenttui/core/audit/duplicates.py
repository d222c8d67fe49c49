"""Notes that say the same thing in other words: the audit's duplicate search.

Two notes are **duplicates by wording** when, compared as signatures:

* their **anchors** are equal: numbers (digit runs: "14:30" → 14, 30),
  names (capitalised words inside a sentence: "Nadia", "Raka"), and a few
  closed classes where one word for another changes the fact -- people's
  roles (mom = mother = ibu ≠ dad), weekdays, parts of the day, colours,
  and negation ("not", "don't", "tidak", "jangan", "no"). So "Nadia picks
  up the kids at 14:30" and "Raka picks up the kids at 14:30" differ, and so
  do "buy milk" and "don't buy milk";
* their **content words** (stop words of English and Indonesian dropped, as
  recall does, stems from SQLite's ``porter`` tokenizer as in recall's
  index, word order ignored) agree: every word of one either appears in the
  other, or is bridged to one of its words by :func:`related_words`
  (mutually near in meaning, as the shipped table of related words has them:
  phoning ↔ calling, movie ↔ film, start ↔ begin), and
  ``matched / all`` is at least ``LEXICAL_MIN``. A word replaced by an
  unrelated one ("oat milk" / "almond milk") is a different note however
  long the rest; a word added or dropped is a light edit.

**Duplicates by meaning** come from embeddings when the endpoint serves
them (:func:`vector_pairs`): vectors are centred first (the direction every
vector of a model shares is taken out, so one threshold serves MiniLM,
multilingual-e5 and OpenAI's models alike), then a pair needs cosine at
least ``VECTOR_MIN``, a margin over the crowd around each note (ten notes
of one template are close to each other and none is a duplicate), and the
anchors must still agree (an embedding puts "Nadia 14:30" next to "Raka
14:30"). Two notes worded alike but for a refilled slot ("Order sushi /
rendang for the team dinner") are decided by the refilled words, not by
the sentence.

Neither search compares all pairs. Lexical candidates share one of each
note's ``PROBE`` rarest content words (or a word related to it): a
duplicate shares most of its words, so its rarest ones too; postings of
words found in more than ``MAX_POSTING`` notes are not walked. Vector
candidates have the same anchors (numbers, closed classes, negation): a small such
group is compared whole, a big one by bands of sign bits
(locality-sensitive hashing).
"""

from __future__ import annotations

import math
import re
import sqlite3
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import mul

from agenttui.core.memory.text import normalise_text
from agenttui.core.recall.related import table_related
from agenttui.core.recall.text import STOP_WORDS

LEXICAL_MIN = 0.75
VECTOR_MIN = 0.55  # on centred vectors (see centred)
# A note and its translation share no words, and multilingual models put them less
# close than two wordings in one language (multilingual-e5: 0.3-0.8 against 0.55-0.95).
CROSS_LANGUAGE_MIN = 0.4
PROBE = 3
MAX_POSTING = 200
RELATED_RANK = 6  # a bridge needs each word among the other's this many nearest

_NEGATIONS = frozenset([
    "no", "not", "never", "nor", "don't", "doesn't", "didn't", "won't", "can't", "cannot", "isn't",
    "aren't", "wasn't", "weren't", "shouldn't", "wouldn't", "without", "tidak", "tak", "nggak", "ngga",
    "gak", "ga", "enggak", "bukan", "jangan", "belum", "tanpa", "never"
])
# Closed classes: a different member is a different fact. Synonyms share one id
# (English and Indonesian), so "mom" and "ibu" agree and "mom" and "dad" do not.
# Words that make word order matter: "X over Y", "X rather than Y", "X daripada Y".
_DIGIT = re.compile(r"\d")
_COMPARATORS = frozenset([
    "over", "than", "instead", "versus", "vs", "daripada", "drpd", "ketimbang", "dibanding",
    "dibandingkan"
])
_CLASSES: dict[str, str] = {}
for _group in (
    "mom mother mum mommy mama ibu bunda mami mamah", "dad father papa daddy ayah bapak papi",
    "wife istri isteri", "husband suami", "son putra", "daughter putri",
    "brother", "sister", "kakak", "adik", "grandma grandmother nenek", "grandpa grandfather kakek",
    "boss manager atasan", "monday senin", "tuesday selasa", "wednesday rabu", "thursday kamis",
    "friday jumat jum'at", "saturday sabtu", "sunday minggu ahad", "weekend weekends", "weekday weekdays",
    "morning mornings pagi", "afternoon afternoons siang sore", "evening evenings night nights tonight malam",
    "black hitam", "white putih", "red merah", "blue biru", "green hijau", "yellow kuning",
    "today", "tomorrow besok", "yesterday kemarin",
    "january januari", "february februari", "march maret", "april", "may mei", "june juni",
    "july juli", "august agustus", "september", "october oktober", "november", "december desember",
    # languages and holidays: "answers in English" is not "answers in Japanese"
    "english inggris", "indonesian", "japanese jepang", "chinese mandarin", "korean korea", "arabic arab",
    "german jerman", "french perancis prancis", "spanish spanyol", "dutch belanda", "javanese jawa",
    "sundanese sunda", "eid lebaran idulfitri", "christmas natal", "ramadan ramadhan puasa",
    "easter paskah", "nyepi", "imlek",
):
    _words = _group.split()
    for _w in _words:
        _CLASSES[_w] = _words[0]
        if _words[0].endswith("day"):
            _CLASSES[_w + "s"] = _words[0]  # "on Fridays" = "every Friday"


# Several words for one member of a class: "anak laki-laki" is a son.
_PHRASES: dict[tuple[str, ...], str] = {
    ("anak", "laki", "laki"): "son", ("anak", "cowok"): "son", ("anak", "lelaki"): "son",
    ("anak", "perempuan"): "daughter", ("anak", "cewek"): "daughter",
    ("idul", "fitri"): "eid", ("hari", "raya"): "eid", ("malam", "minggu"): "saturday",
}


def _merge_phrases(words: list[str]) -> list[str]:
    if not any(w in ("anak", "idul", "hari", "malam") for w in words):
        return words
    out: list[str] = []
    k = 0
    while k < len(words):
        for phrase, member in _PHRASES.items():
            if tuple(words[k:k + len(phrase)]) == phrase:
                out.append(member)
                k += len(phrase)
                break
        else:
            out.append(words[k])
            k += 1
    return out


@dataclass(frozen=True)
class Signature:
    anchors: frozenset[str]
    content: frozenset[str]  # stems, anchors' words included
    order: frozenset[tuple[str, str]] = frozenset()  # (x, y) around "over"/"than": "tabs over spaces"
    names: frozenset[str] = frozenset()  # stems of capitalised words inside a sentence


@dataclass(frozen=True)
class DuplicatePair:
    a: int
    b: int
    why: str  # "same words", "light edit", "related words: …", "embeddings (cosine 0.91)"


# --------------------------------------------------------------------------
# Stems: SQLite's porter tokenizer, as recall's FTS index stems
# --------------------------------------------------------------------------
_STEMS: dict[str, str] = {}
_MAX_STEMS = 200_000


def stems(words: Iterable[str]) -> dict[str, str]:
    """word -> porter stem for ``words`` (one in-memory FTS5 pass for the unknown ones)."""
    todo = sorted({w for w in words if w not in _STEMS})
    if todo:
        if len(_STEMS) + len(todo) > _MAX_STEMS:
            _STEMS.clear()
        conn = sqlite3.connect(":memory:")
        try:
            conn.execute("CREATE VIRTUAL TABLE t USING fts5(w, tokenize='porter unicode61 remove_diacritics 2')")
            conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
            conn.executemany("INSERT INTO t(rowid, w) VALUES (?, ?)", enumerate(todo))
            found: dict[int, str] = {}
            for doc, term in conn.execute("SELECT doc, term FROM v ORDER BY doc, offset"):
                found.setdefault(doc, term)  # "don't" -> "don" + "t": the word is kept whole below
        finally:
            conn.close()
        for n, word in enumerate(todo):
            stem = found.get(n, word)
            _STEMS[word] = word if "'" in word else _strip_nya(stem)
    return _STEMS


def _strip_nya(stem: str) -> str:
    """Indonesian's "-nya" (its, the) is no part of the word: "kopinya" = "kopi"."""
    return stem[:-3] if len(stem) > 6 and stem.endswith("nya") else stem


# --------------------------------------------------------------------------
# Signatures
# --------------------------------------------------------------------------
_CAPITAL = re.compile(r"\b[A-Z][a-z]+\b")


def _capitalised(text: str) -> tuple[set[str], set[str]]:
    """(capitalised words inside a sentence, capitalised words that start one), casefolded."""
    inside: set[str] = set()
    first: set[str] = set()
    for m in _CAPITAL.finditer(text):
        word = m.group().casefold()
        if word in STOP_WORDS or word in _CLASSES or word in _FILLERS:
            continue
        before = text[max(0, m.start() - 3):m.start()].rstrip()
        (first if not before or before[-1] in ".!?:;\n" else inside).add(word)
    return inside, first


def _names(texts: Sequence[str]) -> list[set[str]]:
    """Names per text: people, places, products.

    A capitalised word inside a sentence is a name. One that starts a
    sentence ("Nadia picks up …") is a name only when the batch has it
    capitalised inside a sentence elsewhere: first words are capitalised
    anyway ("Likes", "Suka", "Never"), and a name taken for a word costs
    little (two notes that swap it are still told apart by their words).
    """
    caps = [_capitalised(t if t.isascii() else unicodedata.normalize("NFKC", t)) for t in texts]
    known = set().union(*(inside for inside, _ in caps)) if caps else set()
    return [inside | (first & known) for inside, first in caps]


def _word_info(word: str, stem: dict[str, str]) -> tuple[str, ...]:
    """What one word contributes: ("<",) comparator, ("#", token, digits…) number,
    ("!",) negation, ("=", class) closed class, ("c", stem) content, () nothing."""
    if word.endswith("'s") and len(word) > 3:
        word = word[:-2]  # "daughter's piano lesson" = "piano lesson for my daughter"
    if word in _COMPARATORS:
        return ("<",)
    if not word.isalpha() and _DIGIT.search(word):
        return ("#", word, *("#" + (d.lstrip("0") or "0") for d in re.findall(r"\d+", word)))
    if word in _NEGATIONS:
        return ("!",)
    if word in _CLASSES:
        return ("=", "=" + _CLASSES[word])
    if word in STOP_WORDS or word in _FILLERS or len(word) < 2:
        return ()
    return ("c", stem.get(word) or stems((word,))[word])


def signatures(texts: Sequence[str]) -> list[Signature]:
    words_of = [_merge_phrases(normalise_text(t).split()) for t in texts]
    names_of = _names(texts)
    stem = stems(w for words in words_of for w in words)
    info: dict[str, tuple[str, ...]] = {}
    out = []
    for n, words in enumerate(words_of):
        anchors: set[str] = set()
        content: set[str] = set()
        keys: list[str] = []  # content stems in order, "<" for a comparator
        for w in words:
            what = info.get(w)
            if what is None:
                what = info[w] = _word_info(w, stem)
            if not what:
                continue
            kind = what[0]
            if kind == "c":
                content.add(what[1])
                keys.append(what[1])
            elif kind == "=":
                anchors.add(what[1])
                content.add(what[1])
                keys.append(what[1])
            elif kind == "#":
                anchors.update(what[2:])
                content.add(what[1])
                keys.append(what[1])
            elif kind == "!":
                anchors.add("!not")
            else:
                keys.append("<")
        order = {(keys[k - 1], keys[k + 1]) for k in range(1, len(keys) - 1)
                 if keys[k] == "<" and "<" not in (keys[k - 1], keys[k + 1])}
        out.append(Signature(frozenset(anchors), frozenset(content), frozenset(order),
                             frozenset(stem.get(name, name) for name in names_of[n])))
    return out


@lru_cache(maxsize=65536)
def _near_word(word: str) -> frozenset[str]:
    """Stems of the words nearest in meaning to ``word`` (its RELATED_RANK nearest)."""
    related = table_related(word)[:RELATED_RANK]
    if any(w not in _STEMS for w in related):
        stems(related)
    return frozenset(_STEMS.get(w, w) for w in related)


Forms = Mapping[str, Collection[str]]  # stem -> the words of this batch with that stem


def _near(stem: str, forms: Forms) -> frozenset[str]:
    """Related stems of any form of ``stem`` ("calling" is near "phone", "call" is not)."""
    near: frozenset[str] = frozenset()
    for word in forms.get(stem, (stem,)):
        near |= _near_word(word)
    return near


_ID_PREFIXES = ("meng", "meny", "mem", "men", "me", "peng", "pem", "pen", "per", "pe", "ber", "be",
                "ter", "di", "ke", "se")
_ID_SUFFIXES = ("kan", "nya", "lah", "kah", "an", "i")


@lru_cache(maxsize=65536)
def indonesian_root(word: str) -> str:
    """A rough Indonesian root: one prefix and one suffix off ("dijemput" → "jemput",
    "setiap" → "tiap", "jawaban" → "jawab"), never below four letters. English words
    (those the related-words table knows) are left alone."""
    if len(word) < 5 or not word.isalpha() or table_related(word):
        return word
    for prefix in _ID_PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= 4:
            word = word[len(prefix):]
            break
    for suffix in _ID_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


# A nasal prefix swallows the root's first consonant: mem+pakai = memakai, men+tulis =
# menulis, meng+kirim = mengirim, meny+sapu = menyapu; ber+renang = berenang.
_NASAL = (("meny", "s"), ("peny", "s"), ("meng", "k"), ("peng", "k"), ("mem", "p"), ("pem", "p"),
          ("men", "t"), ("pen", "t"), ("ber", "r"))
_VOWELS = frozenset("aeiou")


@lru_cache(maxsize=65536)
def indonesian_roots(word: str) -> frozenset[str]:
    """``indonesian_root`` and, after a nasal prefix, the root with the consonant it
    swallowed ("memakai" → "pakai", "berenang" → "renang")."""
    roots = {indonesian_root(word)}
    if len(word) >= 6 and word.isalpha() and not table_related(word):
        for prefix, lost in _NASAL:
            rest = word[len(prefix):]
            if word.startswith(prefix) and rest[:1] in _VOWELS | {lost} and len(lost + rest) >= 4:
                roots.add(indonesian_root(lost + rest if rest[0] != lost else rest))
                break
    return frozenset(roots)


def _same_root(x: str, y: str, forms: Forms) -> bool:
    """Two Indonesian forms of one root (a light edit: "dijemput" / "jemput")."""
    roots = set().union(*(indonesian_roots(w) for w in forms.get(x, (x,))))
    return any(not roots.isdisjoint(indonesian_roots(w)) for w in forms.get(y, (y,)))


def _bridged(a: frozenset[str], b: frozenset[str], forms: Forms) -> list[tuple[str, str]]:
    """Pairs (x in a, y in b) related both ways, or forms of one Indonesian root;
    greedy, each word once."""
    pairs = []
    used: set[str] = set()
    for x in sorted(a):
        near_x = _near(x, forms)
        for y in sorted(b - used):
            if (y in near_x and x in _near(y, forms)) or _same_root(x, y, forms):
                pairs.append((x, y))
                used.add(y)
                break
    return pairs


def same_anchors(sa: Signature, sb: Signature) -> bool:
    """Numbers, closed classes and negation equal; every name of one is a word of the other
    (so "Nadia" at a sentence's start in one and inside it in the other still agree)."""
    return sa.anchors == sb.anchors and sa.names <= sb.content and sb.names <= sa.content


def compare(sa: Signature, sb: Signature, forms: Forms | None = None) -> str | None:
    """Why the two are duplicates by wording, or None."""
    if not same_anchors(sa, sb) or len(sa.content) < 2 or len(sb.content) < 2:
        return None
    if any((y, x) in sb.order for x, y in sa.order):
        return None  # "tabs over spaces" / "spaces over tabs": the same words, the opposite choice
    shared = sa.content & sb.content
    only_a, only_b = sa.content - shared, sb.content - shared
    if not only_a and not only_b:
        return "the same words (order, case, punctuation or small words differ)"
    bridges = _bridged(only_a, only_b, forms or {}) if only_a and only_b else []
    left_a = len(only_a) - len(bridges)
    left_b = len(only_b) - len(bridges)
    if left_a and left_b:
        return None  # a word replaced by an unrelated one: a different note
    matched = len(shared) + len(bridges)
    if matched / (matched + left_a + left_b) < LEXICAL_MIN:
        return None
    if bridges:
        said = ", ".join(f"{x} ~ {y}" for x, y in bridges[:4])
        return f"the same words but for related ones ({said})"
    extra = sorted(only_a or only_b)
    return f"a light edit (only {', '.join(extra[:4])} added)"


def batch_forms(texts: Sequence[str]) -> Forms:
    """stem -> the words of ``texts`` with that stem (related words are looked up by word)."""
    words = {w for t in texts for w in normalise_text(t).split()}
    stems(words | {r for w in words for r in table_related(w)[:RELATED_RANK]})  # one FTS5 pass
    stem = _STEMS
    forms: dict[str, set[str]] = {}
    for w in words:
        forms.setdefault(stem[w], set()).add(w)
    return forms


def lexical_pairs(texts: Sequence[str]) -> list[DuplicatePair]:
    """Pairs (i < j) of duplicates by wording; blocked by rare words, never all pairs.

    Texts equal after normalising are paired with the first of them only
    (a star, not k² pairs), and only that first one is compared further.
    """
    firsts: dict[str, int] = {}
    pairs: list[DuplicatePair] = []
    reps: list[int] = []
    for i, text in enumerate(texts):
        norm = normalise_text(text)
        if not norm:
            continue
        first = firsts.setdefault(norm, i)
        if first == i:
            reps.append(i)
        else:
            pairs.append(DuplicatePair(first, i, "the same text (case, punctuation or spacing differ)"))
    for pair in _signature_pairs([texts[i] for i in reps]):
        pairs.append(DuplicatePair(reps[pair.a], reps[pair.b], pair.why))
    return sorted(pairs, key=lambda p: (p.a, p.b))


def _signature_pairs(texts: Sequence[str]) -> list[DuplicatePair]:
    sigs = signatures(texts)
    forms = batch_forms(texts)
    # Blocks: anchors must be equal, so a note is only compared within its anchor group,
    # and there with notes that share one of its rarest words (or a word related to it).
    group = Counter(sig.anchors for sig in sigs)
    df: dict[tuple[frozenset[str], str], int] = defaultdict(int)
    postings: dict[tuple[frozenset[str], str], list[int]] = defaultdict(list)
    for i, sig in enumerate(sigs):
        if group[sig.anchors] > 1:  # alone with its numbers and names: nothing to compare
            for term in sig.content:
                df[(sig.anchors, term)] += 1
                postings[(sig.anchors, term)].append(i)
    pairs: list[DuplicatePair] = []
    seen: set[tuple[int, int]] = set()
    for i, sig in enumerate(sigs):
        if len(sig.content) < 2 or group[sig.anchors] < 2:
            continue
        rare = sorted(sig.content, key=lambda t: (df[(sig.anchors, t)], t))[:PROBE]
        # the related words of the rarest ones too: bridges are mutual, so this finds them
        probes = set(rare)
        for term in rare:
            if not term.startswith(("=", "#")):
                probes |= _near(term, forms)
        for term in probes:
            posting = postings.get((sig.anchors, term), ())
            if len(posting) > MAX_POSTING:
                continue
            for j in posting:
                if j <= i and j != i:
                    pair = (j, i)
                elif j > i:
                    pair = (i, j)
                else:
                    continue
                if pair in seen:
                    continue
                seen.add(pair)
                why = compare(sig, sigs[j], forms)
                if why:
                    pairs.append(DuplicatePair(*pair, why))
    return sorted(pairs, key=lambda p: (p.a, p.b))


# --------------------------------------------------------------------------
# Embeddings
# --------------------------------------------------------------------------
CENTRE_MIN = 16  # vectors needed to estimate the direction every vector shares
EXACT_GROUP = 500  # notes with the same anchors: up to this many, every pair is looked at (~50 ms)
BAND_BITS = 10
BAND_STEP = 4
NEIGHBOURS = 3  # a note's crowd: the mean cosine of its this many nearest other notes
MARGIN = 0.02  # a pair must be this much closer than the crowd around either note
CROSS_MARGIN = 0.15  # a translation, than the crowd of the other language around either


@dataclass
class VectorStats:
    """What the last :func:`vector_pairs` call compared (tests assert it stays far below n²)."""

    candidates: int = 0  # pairs looked at (same anchors; in a big group, sharing a band)
    cosines: int = 0  # pairs within the Hamming bound, that got an exact cosine


LAST_VECTOR_STATS = VectorStats()


Embed = Callable[[Sequence[str]], Sequence[Sequence[float]]]  # texts -> unit vectors, in order
# A swapped word must be this close (centred cosine) to the word it replaces. High:
# word embeddings put co-hyponyms (cat/dog, npm/pnpm, sushi/rendang) as close as
# synonyms (pays/due, lives/based), so only near-identical words pass (favourite/
# favorit); synonyms are bridged by the related-words table instead.
WORD_MIN = 0.6
SWAP_MAX = 2  # a refilled slot: at most this many words on either side


# Words that change no fact ("always", "as usual", "tiap" = every): left out of the
# slot comparison below, with the stop words, so a light edit does not hide a refill.
_FILLERS = frozenset([
    "always", "usually", "usual", "really", "just", "also", "too", "please", "memang", "aja", "saja",
    "juga", "nih", "dong", "deh", "sih", "kok", "tolong", "setiap", "tiap", "each", "every", "note",
])


def _slot_words(text: str) -> list[str]:
    """Words that carry the note, in order; a closed class's members as the class."""
    return ["=" + _CLASSES[w] if w in _CLASSES else w for w in _merge_phrases(normalise_text(text).split())
            if w not in STOP_WORDS and w not in _FILLERS]


def _swapped(a: str, b: str, names: Collection[str] = ()) -> list[tuple[str, str]] | None:
    """The words refilled between two notes worded alike, or None when reworded.

    "Order sushi for the team dinner" / "Order rendang for the team dinner":
    an embedding puts them side by side, but the refilled slot is the fact.
    Such a pair reads the same around the slot: strip the longest common
    start and end of the two notes' words (stop words and fillers left
    out), and at most ``SWAP_MAX`` words are left on each side, none of
    them on both, and what is common holds a plain word (not only numbers,
    names and closed classes, which a translation keeps too: "My son is
    called Bima" / "Anak laki-laki saya namanya Bima"). Returns (word of
    a, word of b) candidates to check. A paraphrase is reworded throughout
    ("Pays rent on the 1st" / "Rent is due on the 1st": "rent" moved):
    None, and the sentence embedding alone decides.
    """
    wa, wb = _slot_words(a), _slot_words(b)
    start = 0
    while start < min(len(wa), len(wb)) and wa[start] == wb[start]:
        start += 1
    end = 0
    while end < min(len(wa), len(wb)) - start and wa[-1 - end] == wb[-1 - end]:
        end += 1
    left_a, left_b = wa[start:len(wa) - end], wb[start:len(wb) - end]
    if not (start or end) or not left_a or not left_b or max(len(left_a), len(left_b)) > SWAP_MAX:
        return None
    if not set(left_a).isdisjoint(left_b):
        return None  # words moved, not a slot refilled
    common = wa[:start] + wa[len(wa) - end:]
    if not any(w[0] != "=" and not _DIGIT.search(w) and _STEMS.get(w, w) not in names for w in common):
        return None
    return [(x, y) for x in left_a for y in left_b]


def centred(vectors: Sequence[Sequence[float]]) -> list[list[float]]:
    """Unit vectors minus their mean, made unit again.

    Many embedding models put every text in one narrow cone: with
    multilingual-e5 two unrelated notes have cosine ~0.8, with MiniLM ~0.15,
    with OpenAI's text-embedding-3 ~0.1-0.2. Taking out the direction they
    all share (the batch mean) spreads them over the sphere, so one
    threshold serves every model and sign bits split the notes evenly. Fewer
    than ``CENTRE_MIN`` vectors are too few to estimate it: used as they are.
    """
    if len(vectors) < CENTRE_MIN:
        return [list(v) for v in vectors]
    n = len(vectors)
    mean = [total / n for total in map(math.fsum, zip(*vectors, strict=True))]
    out = []
    for v in vectors:
        d = [x - m for x, m in zip(v, mean, strict=True)]
        norm = math.sqrt(sum(x * x for x in d)) or 1.0
        out.append([x / norm for x in d])
    return out


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return float(sum(map(mul, a, b)))


def _candidates(members: list[int], bits: list[int], dim: int) -> Iterable[tuple[int, int]]:
    """Pairs worth a look among ``members`` (positions, sorted): all of them in a
    small group, else those sharing a band of ``BAND_BITS`` sign bits (windows
    ``BAND_STEP`` bits apart: overlapping, so more bands than disjoint ones)."""
    if len(members) <= EXACT_GROUP:
        yield from ((p, q) for x, p in enumerate(members) for q in members[x + 1:])
        return
    seen: set[tuple[int, int]] = set()
    mask = (1 << BAND_BITS) - 1
    for shift in range(0, max(1, dim - BAND_BITS + 1), BAND_STEP):
        buckets: dict[int, list[int]] = defaultdict(list)
        for p in members:
            buckets[(bits[p] >> shift) & mask].append(p)
        for bucket in buckets.values():
            if 2 <= len(bucket) <= MAX_POSTING:
                for x, p in enumerate(bucket):
                    for q in bucket[x + 1:]:
                        if (p, q) not in seen:
                            seen.add((p, q))
                            yield p, q


def _max_hamming(threshold: float, dim: int) -> int:
    """Sign bits two vectors at cosine ``threshold`` differ in, plus four standard
    deviations: pairs further apart are skipped before their cosine (they are
    no duplicate, and too far to be anyone's crowd)."""
    share = math.acos(max(-1.0, min(1.0, threshold))) / math.pi
    return int(dim * share + 4 * math.sqrt(dim * share * (1 - share))) + 2


# Function words that tell the two languages of the notes apart (a note with as
# many of each, or none, is of neither).
_INDONESIAN = frozenset([
    "saya", "aku", "gue", "gw", "kamu", "di", "ke", "dari", "dan", "yang", "setiap", "tiap", "jam", "hari",
    "untuk", "dengan", "tidak", "nggak", "gak", "mau", "suka", "ada", "itu", "ini", "lebih", "dalam",
    "bareng", "buat", "sebelum", "kalau", "sama", "pakai", "jangan", "tolong", "sudah", "belum", "akan",
    "bisa", "harus", "perlu", "sebuah", "namanya",
])
_ENGLISH = frozenset([
    "the", "a", "an", "is", "are", "was", "at", "on", "in", "to", "every", "my", "with", "for", "of", "and",
    "before", "when", "doesn't", "don't", "i", "i'm", "likes", "wants", "needs", "has", "have", "from",
    "by", "about",
])


def language(text: str) -> str | None:
    """"id", "en" or None (can't tell), by function words."""
    words = normalise_text(text).split()
    ind = sum(w in _INDONESIAN for w in words)
    eng = sum(w in _ENGLISH for w in words)
    return "id" if ind > eng else "en" if eng > ind else None


def _families(n: int, pairs: Iterable[tuple[int, int]]) -> list[int]:
    """A representative per position: positions joined by ``pairs`` share one."""
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        parent[find(a)] = find(b)
    return [find(x) for x in range(n)]


def vector_pairs(vectors: Sequence[Sequence[float] | None], texts: Sequence[str],
                 threshold: float | None = None, embed: Embed | None = None,
                 known: Collection[tuple[int, int]] = ()) -> list[DuplicatePair]:
    """Pairs of texts close in meaning that say the same.

    On centred vectors (:func:`centred`), a pair is close when its cosine is
    at least ``threshold`` and it stands out from the crowd: at least
    ``MARGIN`` above the mean cosine of each note's ``NEIGHBOURS`` nearest
    other notes (a margin criterion, as bitext mining uses). Ten notes from
    one template -- "Order sushi / rendang / pizza for the team dinner" --
    are all close to each other and none stands out; a note and its
    paraphrase or translation do. Notes joined by ``known`` pairs (found
    by wording) count once in a crowd, and never in the crowd of a pair
    with one of them. A note and its translation (two languages, by
    function words) need only ``CROSS_LANGUAGE_MIN``, but must stand out
    by ``CROSS_MARGIN`` from the notes of the other language around each:
    every note is nearer to notes of its own language, and a translated
    template with another slot ("Sari's favourite food is pasta" /
    "Makanan favorit Sari itu pizza") is as near as a translation.

    Anchors must agree and "tabs over spaces" is not "spaces over tabs", as
    for words, so only notes with the same anchors are compared: all pairs
    of a group of up to ``EXACT_GROUP``, pairs sharing a band of sign bits
    (locality-sensitive hashing) in a bigger one. Two notes worded alike
    but for a refilled slot ("sushi" for "rendang", :func:`_swapped`) are
    the same only if each refilled word is close in meaning (``WORD_MIN``,
    centred over the words asked) to one it replaces, by ``embed`` on the
    words themselves (without ``embed``: never).
    """
    threshold = VECTOR_MIN if threshold is None else threshold
    LAST_VECTOR_STATS.candidates = LAST_VECTOR_STATS.cosines = 0
    present = [i for i, v in enumerate(vectors) if v]
    if len(present) < 2:
        return []
    scan = _VectorScan(vectors, texts, present, known, threshold)
    close = [(p, q, cos) for p, q, cos in scan.close_pairs() if scan.stands_out(p, q, cos)]
    # A slot refilled is a thing of one language: across two, every word differs.
    swaps = {(p, q): None if scan.is_cross(p, q) else
             _swapped(scan.texts[p], scan.texts[q], scan.sigs[p].names | scan.sigs[q].names)
             for p, q, _ in close}
    words = sorted({w for pairs in swaps.values() if pairs for pair in pairs for w in pair})
    word_vectors = dict(zip(words, centred(list(map(list, embed(words)))), strict=True)) if (embed and words) else {}
    pairs: list[DuplicatePair] = []
    for p, q, cos in close:
        translated = "; a translation" if scan.is_cross(p, q) else ""
        why = f"close in meaning (embedding cosine {cos:.2f}, centred{translated})"
        swapped = swaps[(p, q)]
        if swapped is not None:
            best = _swap_agrees(swapped, word_vectors)
            if best is None:
                continue  # a word swapped for one that means something else
            why += f"; {best[0]} ~ {best[1]} ({best[2]:.2f})"
        i, j = sorted((present[p], present[q]))
        pairs.append(DuplicatePair(i, j, why))
    return sorted(pairs, key=lambda p: (p.a, p.b))


class _VectorScan:
    """The notes with vectors (by position), and what :func:`vector_pairs` learns comparing them."""

    def __init__(self, vectors: Sequence[Sequence[float] | None], texts: Sequence[str], present: list[int],
                 known: Collection[tuple[int, int]], threshold: float) -> None:
        self.threshold = threshold
        self.dim = min(len(vectors[i]) for i in present)  # type: ignore[arg-type]
        self.unit = centred([list(vectors[i][: self.dim]) for i in present])  # type: ignore[index]
        self.bits = [sum(1 << k for k, x in enumerate(v) if x > 0) for v in self.unit]
        self.texts = [texts[i] for i in present]
        self.sigs = signatures(self.texts)
        where = {i: n for n, i in enumerate(present)}
        known_pos = {(where[a], where[b]) for a, b in known if a in where and b in where}
        self.family = _families(len(present), known_pos)  # notes known to say the same: one crowd member
        self.langs = [language(t) for t in self.texts]
        # position -> (family, language) -> the family's closest cosine to it
        self.near: dict[int, dict[tuple[int, str | None], float]] = defaultdict(dict)

    def is_cross(self, p: int, q: int) -> bool:
        return bool(self.langs[p] and self.langs[q] and self.langs[p] != self.langs[q])

    def close_pairs(self) -> list[tuple[int, int, float]]:
        """Pairs with the same anchors at least the threshold apart (cross-language: its own),
        noting every cosine computed in ``near`` (the crowds)."""
        stats, unit, bits, langs, family, near = (LAST_VECTOR_STATS, self.unit, self.bits, self.langs,
                                                  self.family, self.near)
        cross = min(self.threshold, CROSS_LANGUAGE_MIN)
        far, far_cross = _max_hamming(self.threshold, self.dim), _max_hamming(cross, self.dim)
        groups: dict[frozenset[str], list[int]] = defaultdict(list)
        for n, sig in enumerate(self.sigs):
            groups[sig.anchors].append(n)
        close: list[tuple[int, int, float]] = []
        for members in groups.values():
            if len(members) < 2:
                continue
            for p, q in _candidates(members, bits, self.dim):
                stats.candidates += 1
                fp, fq = family[p], family[q]
                if fp == fq:
                    continue  # already known to say the same
                two = self.is_cross(p, q)
                if (bits[p] ^ bits[q]).bit_count() > (far_cross if two else far):
                    continue
                stats.cosines += 1
                cos = _dot(unit[p], unit[q])
                if cos > near[p].get((fq, langs[q]), -2.0):
                    near[p][fq, langs[q]] = cos
                if cos > near[q].get((fp, langs[p]), -2.0):
                    near[q][fp, langs[p]] = cos
                if cos < (cross if two else self.threshold):
                    continue
                sa, sb = self.sigs[p], self.sigs[q]
                if not same_anchors(sa, sb) or any((y, x2) in sb.order for x2, y in sa.order):
                    continue
                close.append((p, q, cos))
        return close

    def crowded(self, p: int, other: int) -> float:
        """Mean cosine of p's nearest notes, the other note's family left out; for a
        translation, its nearest notes in the other note's language (bitext mining's
        rule: every note is nearer to notes of its own language)."""
        want = self.langs[other] if self.is_cross(p, other) else None
        others = sorted((c for (f, lang), c in self.near[p].items()
                         if f != self.family[other] and (want is None or lang == want)), reverse=True)[:NEIGHBOURS]
        return sum(others) / len(others) if others else -1.0

    def stands_out(self, p: int, q: int, cos: float) -> bool:
        """Closer than the crowd around either note by the margin (see :func:`vector_pairs`)."""
        margin = CROSS_MARGIN if self.is_cross(p, q) else MARGIN
        return cos >= max(self.crowded(p, q), self.crowded(q, p)) + margin


def _swap_agrees(swapped: list[tuple[str, str]], word_vectors: dict[str, list[float]]
                 ) -> tuple[str, str, float] | None:
    """The closest refilled pair when each refilled word is close in meaning (``WORD_MIN``) to
    one it replaces, on both sides; else None."""
    scored = [(a, b, _cos(word_vectors.get(a), word_vectors.get(b))) for a, b in swapped]
    a_ok = {a for a, _, c in scored if c >= WORD_MIN}
    b_ok = {b for _, b, c in scored if c >= WORD_MIN}
    if a_ok != {a for a, _ in swapped} or b_ok != {b for _, b in swapped}:
        return None
    return max(scored, key=lambda t: t[2])


def _cos(a: Sequence[float] | None, b: Sequence[float] | None) -> float:
    return _dot(a, b) if a is not None and b is not None else -1.0
