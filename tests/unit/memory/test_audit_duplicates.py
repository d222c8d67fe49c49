"""Duplicates by wording (lexical) and by meaning (vectors)."""

from __future__ import annotations

import math
import random

import pytest

from agenttui.core.audit import duplicates as audit_duplicates
from agenttui.core.audit.duplicates import lexical_pairs, vector_pairs

SAME = [
    ("Takes coffee black, no sugar", "Takes coffee black with no sugar at all"),  # the light edit
    ("Prefers pytest over unittest for new projects", "For new projects the user prefers pytest over unittest"),
    ("Nadia picks up the kids from school at 15:00 on Fridays", "Nadia picks the kids up from school at 15:00 every Friday"),  # noqa: E501 -- one regex or table row per line
    ("Allergic to peanuts", "allergic to peanuts!!"),
    ("Kopinya hitam tanpa gula", "Kopi hitam, tanpa gula ya"),
    ("Watched a movie with Raka", "Watched a film with Raka"),  # related words, both ways
    ("Start the job at 9", "Begin work at 9"),
    ("Anak-anak dijemput jam 14:00 setiap hari", "Jemput anak-anak tiap hari jam 14:00"),  # Indonesian affixes
    ("Berenang setiap Kamis sore", "Renang tiap Kamis sore"),  # ber+renang: the prefix swallowed an r
    ("Menyapu halaman hari Sabtu", "Sapu halaman hari Sabtu ya"),  # meny+sapu
    ("Always takes the 7:40 train to work", "Takes the 7:40 train to work, as usual"),  # fillers
    ("same", "SAME!"),  # a one-word note: only the exact text
]
DIFFERENT = [
    ("Nadia picks up the kids from school at 14:30", "Raka picks up the kids from school at 14:30"),  # the pair
    ("Pick up the kids at 14:30", "Pick up the kids at 15:30"),
    ("Buy oat milk on the way home", "Buy almond milk on the way home"),
    ("Call my dad every Sunday evening", "Call my mom every Sunday evening"),
    ("Call mom every Sunday evening", "Call mom every Monday evening"),
    ("Call mom every Sunday evening", "Call mom every Sunday morning"),
    ("Buy milk on the way home", "Don't buy milk on the way home"),
    ("Feed the cat at 7", "Feed the dog at 7"),  # cat -> dog is near one way only
    ("User prefers tabs over spaces in Python", "User prefers spaces over tabs in Python"),
    ("Prefers the window seat on long flights for work trips",
     "Prefers the aisle seat on long flights for work trips"),
    ("Beli susu untuk Nadia", "Beli susu untuk Raka"),
    ("Minum obat pagi hari", "Minum obat malam hari"),
    ("Belajar renang hari Sabtu", "Mengajar renang hari Sabtu"),  # two roots, not one
    ("Wants answers in English", "Wants answers in Japanese"),  # languages are a closed class
    ("Anak laki-laki saya namanya Bima", "Anak perempuan saya namanya Bima"),  # son, daughter
    ("Visit grandma every Eid", "Visit grandma every Christmas"),
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_light_edits_and_related_words_are_duplicates_with_a_reason(a, b):
    pairs = lexical_pairs(["Renew the passport before March", a, "Water the plants", b])
    assert [(p.a, p.b) for p in pairs] == [(1, 3)]
    assert pairs[0].why


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_notes_one_word_apart_are_not_duplicates(a, b):
    assert lexical_pairs([a, b]) == []


def test_the_reason_names_the_bridged_words():
    (pair,) = lexical_pairs(["Watched a movie with Raka", "Watched a film with Raka"])
    assert "film" in pair.why and "movi" in pair.why


def test_many_copies_are_a_star_not_all_pairs():
    pairs = lexical_pairs(["same note again"] * 50)
    assert len(pairs) == 49 and {p.a for p in pairs} == {0}


def _unit(values):
    norm = math.sqrt(sum(v * v for v in values))
    return [v / norm for v in values]


def test_vector_pairs_reworded_by_sentence_refilled_slot_by_its_words():
    rng = random.Random(7)

    def noisy(vector, scale):
        return _unit([v + rng.gauss(0, scale) for v in vector])

    base, dinner, cab, plants = ([rng.gauss(0, 1) for _ in range(384)] for _ in range(4))
    texts = ["Call my mom every Sunday evening", "Every Sunday night I phone my mother",
             "Order sushi for the team dinner", "Order rendang for the team dinner",
             "Book a cab to the airport", "Book a taxi to the airport",
             "Nadia picks up the kids at 14:30", "Pick up the kids at 15:30", "Water the plants"]
    vectors = [_unit(base), noisy(base, 0.25), _unit(dinner), noisy(dinner, 0.05), _unit(cab), noisy(cab, 0.05),
               _unit(plants), noisy(plants, 0.01), noisy(plants, 3.0)]
    # Word vectors: cab and taxi mean the same, sushi and rendang are two dishes.
    words = {"cab": _unit(cab), "taxi": noisy(cab, 0.1), "sushi": _unit(dinner), "rendang": _unit(plants)}
    asked: list[list[str]] = []

    def embed(batch):
        asked.append(list(batch))
        return [words.get(w, _unit([rng.gauss(0, 1) for _ in range(384)])) for w in batch]

    pairs = vector_pairs(vectors, texts, embed=embed)
    # 0/1 reworded (the sentence decides), 4/5 a slot refilled with a word of the same meaning;
    # 2/3 refill a slot with another dish, 6/7 differ in a number
    assert [(p.a, p.b) for p in pairs] == [(0, 1), (4, 5)]
    assert "cosine" in pairs[0].why and "cab ~ taxi" in pairs[1].why
    assert asked == [["cab", "rendang", "sushi", "taxi"]]  # only the refilled words, once
    assert [(p.a, p.b) for p in vector_pairs(vectors, texts)] == [(0, 1)]  # a refill with nothing to check it


def test_vector_pairs_need_a_pair_to_stand_out_from_its_crowd():
    """Notes all close to each other (one template, one topic) are no one's duplicate;
    two of them much closer than the rest are."""
    rng = random.Random(5)
    topic = [rng.gauss(0, 1) for _ in range(384)]
    crowd = [_unit([t + rng.gauss(0, 0.5) for t in topic]) for _ in range(6)]  # cosine ~0.8 to each other
    twin = _unit([v + rng.gauss(0, 0.02) for v in crowd[2]])
    texts = ["Water the tomatoes", "Prune roses in spring", "Compost kitchen scraps", "Mulch the beds",
             "Buy seeds online", "Fix the hose", "Tomato plants need water"]  # reworded: the sentence decides
    pairs = vector_pairs([*crowd, twin], texts, threshold=0.5)
    assert [(p.a, p.b) for p in pairs] == [(2, 6)]
    audit_duplicates.MARGIN, saved = -1.0, audit_duplicates.MARGIN
    try:  # without the margin, the whole crowd would pair up
        assert len(vector_pairs([*crowd, twin], texts, threshold=0.5)) > 10
    finally:
        audit_duplicates.MARGIN = saved


def test_centred_takes_out_the_shared_direction():
    """multilingual-e5 gives unrelated notes cosine ~0.8: centring brings them near 0."""
    from agenttui.core.audit.duplicates import CENTRE_MIN, centred

    rng = random.Random(2)
    shared = [rng.gauss(0, 1) for _ in range(64)]
    vectors = [_unit([4 * s + rng.gauss(0, 1) for s in shared]) for _ in range(40)]
    raw = sum(x * y for x, y in zip(vectors[0], vectors[1], strict=True))
    out = centred(vectors)
    after = sum(x * y for x, y in zip(out[0], out[1], strict=True))
    assert raw > 0.8 and abs(after) < 0.4
    assert abs(sum(x * x for x in out[0]) - 1) < 1e-9
    assert centred(vectors[: CENTRE_MIN - 1]) == [list(v) for v in vectors[: CENTRE_MIN - 1]]  # too few to tell


def test_known_duplicates_are_one_member_of_a_crowd():
    """Two copies of an Indonesian note and its English translation: the copies (known by
    wording) neither crowd each other's translation out nor count twice."""
    rng = random.Random(11)
    topic = [rng.gauss(0, 1) for _ in range(64)]
    note = _unit([t + rng.gauss(0, 0.3) for t in topic])
    copy = list(note)
    translation = _unit([v + rng.gauss(0, 0.03) for v in note])
    others = [_unit([rng.gauss(0, 1) for _ in range(64)]) for _ in range(20)]
    texts = ["Ibu saya tinggal di Bandung", "Ibu saya tinggal di Bandung", "My mother lives in Bandung"]
    texts += [f"Unrelated thing number {w} of my mother" for w in "abcdefghijklmnopqrst"]
    pairs = vector_pairs([note, copy, translation, *others], texts, known=[(0, 1)])
    assert {(p.a, p.b) for p in pairs} == {(0, 2), (1, 2)}


@pytest.mark.slow
def test_a_big_group_without_anchors_is_searched_by_bands_not_all_pairs():
    """Counts, not seconds: 1,500 notes with no number, name or class (one anchor group)."""
    rng = random.Random(8)
    dim = 384
    topics = [[rng.gauss(0, 1) for _ in range(dim)] for _ in range(30)]
    vectors = [_unit([t + rng.gauss(0, 1.2) for t in topics[n % 30]]) for n in range(1500)]
    vectors.append(_unit([v + rng.gauss(0, 0.01) for v in vectors[7]]))
    words = ["apple", "river", "stone", "cloud", "table", "music", "paper", "light", "window", "garden",
             "forest", "harbour"]
    texts = [" ".join(rng.sample(words, 4)) for _ in range(1500)] + ["the same as seven, reworded"]
    pairs = vector_pairs(vectors, texts)
    assert (7, 1500) in {(p.a, p.b) for p in pairs}
    stats = audit_duplicates.LAST_VECTOR_STATS
    all_pairs = len(vectors) * (len(vectors) - 1) // 2
    assert stats.candidates < all_pairs / 10, stats
    assert stats.cosines < all_pairs / 50, stats


def test_language_of_a_note_by_its_function_words():
    from agenttui.core.audit.duplicates import language

    assert language("Ibu saya tinggal di Bandung") == "id"
    assert language("My mother lives in Bandung") == "en"
    assert language("Bitwarden") is None


def test_a_translation_needs_less_closeness_than_a_rewording():
    """Across languages the bound is CROSS_LANGUAGE_MIN: a pair at (centred) cosine ~0.5
    is a translation when its notes are in two languages, and nothing in one."""
    rng = random.Random(4)
    base = [rng.gauss(0, 1) for _ in range(64)]
    half = _unit([b + rng.gauss(0, 1.3) for b in base])
    others = [_unit([rng.gauss(0, 1) for _ in range(64)]) for _ in range(20)]
    filler = [f"Unrelated note {w} for the garden" for w in "abcdefghijklmnopqrst"]
    vectors = [_unit(base), half, *others]
    unit = audit_duplicates.centred(vectors)
    cos = sum(x * y for x, y in zip(unit[0], unit[1], strict=True))
    assert audit_duplicates.CROSS_LANGUAGE_MIN < cos < audit_duplicates.VECTOR_MIN
    translated = vector_pairs(vectors, ["Likes spicy food", "Suka makanan pedas", *filler])
    reworded = vector_pairs(vectors, ["Likes spicy food", "Enjoys food with lots of chili", *filler])
    assert [(p.a, p.b) for p in translated] == [(0, 1)] and reworded == []


def test_a_translation_must_stand_out_among_the_notes_of_its_language():
    """An English note near four Indonesian notes of one template, each as near as the
    other: none is its translation; one much nearer than the rest is."""
    rng = random.Random(6)
    topic = [rng.gauss(0, 1) for _ in range(384)]
    english = _unit([t + rng.gauss(0, 0.7) for t in topic])
    siblings = [_unit([t + rng.gauss(0, 0.7) for t in topic]) for _ in range(4)]
    others = [_unit([rng.gauss(0, 1) for _ in range(384)]) for _ in range(20)]
    texts = ["Sari's favourite food is pasta"] + [f"Makanan favorit Sari itu {f}" for f in
                                                  ("pizza", "sate", "rendang", "bakso")]
    texts += [f"Unrelated note {w} for the garden" for w in "abcdefghijklmnopqrst"]
    assert vector_pairs([english, *siblings, *others], texts) == []
    siblings[0] = _unit([v + rng.gauss(0, 0.005) for v in english])  # its translation after all
    assert [(p.a, p.b) for p in vector_pairs([english, *siblings, *others], texts)] == [(0, 1)]


def test_vector_pairs_skip_items_without_vectors():
    assert vector_pairs([None, [1.0, 0.0], None], ["a", "b", "c"]) == []


@pytest.mark.slow
def test_vector_search_compares_a_small_fraction_of_all_pairs():
    """Counts, not seconds: 3,000 notes in 30 topics (vectors clustered as real ones are)."""
    from agenttui.core.audit import duplicates as audit_duplicates

    rng = random.Random(3)
    dim = 384
    topics = [[rng.gauss(0, 1) for _ in range(dim)] for _ in range(30)]
    vectors = [_unit([t + rng.gauss(0, 1.2) for t in topics[n % 30]]) for n in range(3000)]
    twin = _unit([v + rng.gauss(0, 0.01) for v in vectors[7]])  # cosine ~0.96
    vectors.append(twin)
    texts = [f"note {n}" for n in range(3000)] + ["note 7"]
    pairs = vector_pairs(vectors, texts)
    assert (7, 3000) in {(p.a, p.b) for p in pairs}
    stats = audit_duplicates.LAST_VECTOR_STATS
    all_pairs = len(vectors) * (len(vectors) - 1) // 2
    assert stats.candidates < all_pairs / 20, stats
    assert stats.cosines < all_pairs / 1000, stats
