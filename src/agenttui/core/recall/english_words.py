"""English words as recall needs them: is it a word, its lemmas, its forms porter does not fold.

The answers are lemminflect's (MIT; the Automatically Generated Inflection
Database over the SPECIALIST lexicon), written out for every lower-case word
it knows by ``scripts/build_english_words.py`` into ``data/english_words.tsv.gz``.
Importing lemminflect and loading its tables costs ~0.3 s of CPU, which the
first turn after launch would wait for; this table loads in a fraction of
that, the same answers every time, nothing downloaded.
``tests/unit/recall/test_english_words.py`` compares it with lemminflect.
"""

from __future__ import annotations

import gzip
from functools import lru_cache
from importlib import resources

#: Forms of one word searched together (recall.text.word_forms).
MAX_FORMS = 6


@lru_cache(maxsize=1)
def _table() -> dict[str, tuple[str, str]]:
    """word -> (its lemmas, its forms), each space-separated, "" for just the word itself."""
    raw = resources.files("agenttui.core.recall").joinpath("data/english_words.tsv.gz").read_bytes()
    table: dict[str, tuple[str, str]] = {}
    for line in gzip.decompress(raw).decode("utf-8").splitlines():
        if line and not line.startswith("#"):
            word, lemmas, forms = line.split("\t")
            table[word] = (lemmas, forms)
    return table


def known(word: str) -> bool:
    """Is ``word`` (lower case) an English word?"""
    return word in _table()


def lemmas(word: str) -> tuple[str, ...]:
    """The lemmas of ``word`` (every part of speech), or () for a word the tables do not know."""
    entry = _table().get(word)
    if entry is None:
        return ()
    return tuple(entry[0].split()) if entry[0] else (word,)


def forms(word: str) -> tuple[str, ...] | None:
    """``word`` with its lemma and the lemma's irregular forms, or None for a word not known."""
    entry = _table().get(word)
    if entry is None:
        return None
    return tuple(entry[1].split()) if entry[1] else (word,)


def regular(lemma: str, form: str) -> bool:
    """Is ``form`` a regular inflection of ``lemma`` (one porter already folds into it)?"""
    stem = lemma[:-1]
    return form == lemma or form in {
        lemma + "s", lemma + "es", lemma + "ed", lemma + "d", lemma + "ing", lemma + "er", lemma + "est",
        stem + "ing", stem + "ies", stem + "ied", stem + "ier", lemma + lemma[-1:] + "ed",
        lemma + lemma[-1:] + "ing",
    }


def word_forms_from_lemminflect(term: str) -> tuple[str, ...]:
    """:func:`forms` computed from lemminflect itself (the table's source; build script and tests)."""
    from lemminflect import getAllInflections, getAllLemmas

    found = getAllLemmas(term)
    result: dict[str, None] = {term: None}
    for upos in ("VERB", "NOUN"):
        for lemma in found.get(upos, ()):
            lemma = lemma.casefold()
            if not regular(lemma, term):
                result[lemma] = None
            for inflected in getAllInflections(lemma, upos=upos).values():
                for form in inflected:
                    if not regular(lemma, form.casefold()):
                        result[form.casefold()] = None
    return tuple(result)[:MAX_FORMS]
