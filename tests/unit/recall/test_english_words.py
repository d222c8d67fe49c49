"""core/recall/english_words.py: lemminflect's answers, written out (scripts/build_english_words.py)."""

from __future__ import annotations

import gzip
import subprocess
import sys
from importlib import resources

import pytest

from agenttui.core.recall import english_words
from agenttui.core.recall.text import word_forms

lemminflect = pytest.importorskip("lemminflect", reason="lemminflect (test extra) is the table's source")


def _sample() -> list[str]:
    raw = resources.files("agenttui.core.recall").joinpath("data/english_words.tsv.gz").read_bytes()
    words = [line.split("\t", 1)[0] for line in gzip.decompress(raw).decode().splitlines()
             if line and not line.startswith("#")]
    return words[::40] + ["went", "bought", "children", "mice", "paid", "puppies", "looked", "named", "be"]


def test_the_table_gives_lemminflects_answers():
    for word in _sample():
        found = lemminflect.getAllLemmas(word)
        assert english_words.known(word) == bool(found), word
        flat = tuple(dict.fromkeys(lemma.casefold() for per_pos in found.values() for lemma in per_pos))
        assert english_words.lemmas(word) == flat, word
        assert english_words.forms(word) == english_words.word_forms_from_lemminflect(word), word


def test_word_forms_irregular_known_and_unknown_words():
    assert word_forms("bought") == ("bought", "buy")
    assert "went" in word_forms("go") and "gone" in word_forms("go")
    assert word_forms("named") == ("named",)  # regular: porter folds it already
    assert word_forms("tabungan") == ("tabungan*",)  # not English: a prefix (Indonesian suffixes)
    assert word_forms("nur") == ("nur",)  # too short for a prefix


def test_recall_never_imports_lemminflect():
    code = ("import sys; from agenttui.core.recall.text import word_forms; "
            "from agenttui.core.recall.related import related_words; "
            "from agenttui.core.recall.retrieval import names_in; "
            "word_forms('bought'); related_words('puppies'); names_in('Looked it up: Nur lives there', set()); "
            "print('lemminflect' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == "False"
