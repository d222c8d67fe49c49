"""Near-duplicate definition shared by the gate and the audit; item round-trip."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime

from agenttui.core.memory.text import (
    NearDuplicateIndex,
    is_near_duplicate,
    jaccard,
    normalise_text,
    pivot_tokens,
    token_set,
)
from agenttui.core.models import MemoryItem, Origin


def test_normalise_ignores_case_punctuation_width_and_zero_width():
    assert normalise_text("User  prefers TABS!!") == normalise_text("user prefers tabs")
    assert normalise_text("ｕｓｅ tabs") == "use tabs"  # NFKC folds full-width letters
    assert normalise_text("use\u200b tabs") == "use tabs"
    assert "don't" in token_set("Don’t use tabs")


def test_negation_and_numbers_keep_notes_apart():
    assert not is_near_duplicate("use tabs", "don't use tabs", 0.85)
    assert not is_near_duplicate("summarise output over 20 lines", "summarise output over 50 lines", 0.85)
    assert is_near_duplicate("Summarise output over 20 lines.", "summarise OUTPUT over 20 lines", 0.85)


LONG_PAIRS_THAT_DIFFER = [
    # One differing number or negation in a long note: Jaccard alone is >= 0.85 for each pair.
    ("the budget for the whole Berlin trip with the kids in May is 400 euros",
     "the budget for the whole Berlin trip with the kids in May is 500 euros"),
    ("trial note 1 from a second process, budget is 4 euros",
     "trial note 4 from a second process, budget is 4 euros"),
    ("I like strong black coffee in the morning before work at the office",
     "I do not like strong black coffee in the morning before work at the office"),
    ("we always deploy the staging branch to the cluster on friday afternoons after the weekly review",
     "we never deploy the staging branch to the cluster on friday afternoons after the weekly review"),
    ("saya suka kopi hitam yang kuat di pagi hari sebelum bekerja di kantor",
     "saya tidak suka kopi hitam yang kuat di pagi hari sebelum bekerja di kantor"),
    ("ich trinke morgens vor der Arbeit im Büro gerne einen starken schwarzen Kaffee",
     "ich trinke morgens vor der Arbeit im Büro nicht gerne einen starken schwarzen Kaffee"),
    ("the standup with the platform team moves to room 4 at 9:30 every monday",
     "the standup with the platform team moves to room 4 at 10:30 every monday"),
]


def test_a_long_note_with_another_number_or_a_negation_is_not_a_duplicate():
    for a, b in LONG_PAIRS_THAT_DIFFER:
        assert jaccard(token_set(a), token_set(b)) >= 0.85, (a, b)  # the case a threshold alone misses
        assert not is_near_duplicate(a, b, 0.85), (a, b)
        assert NearDuplicateIndex(0.85).clusters([a, b]) == [], (a, b)
    assert pivot_tokens(token_set("Don't use 2 tabs")) == {"don't", "2"}


def test_word_order_and_one_word_in_a_long_note():
    assert is_near_duplicate("prefers pytest over unittest", "over unittest prefers pytest", 0.85)
    long_a = "when reviewing pull requests always check the migrations the tests and the changelog entry first"
    long_b = long_a + " please"
    assert jaccard(token_set(long_a), token_set(long_b)) >= 0.85
    assert is_near_duplicate(long_a, long_b, 0.85)


def _numbers(text):
    return {t for t in text.split() if t.isdigit()}


def _brute_clusters(texts, threshold):
    parent = list(range(len(texts)))

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x

    for a, b in itertools.combinations(range(len(texts)), 2):
        if token_set(texts[a]) and token_set(texts[b]) and \
                jaccard(token_set(texts[a]), token_set(texts[b])) >= threshold and \
                _numbers(texts[a]) == _numbers(texts[b]):
            parent[find(a)] = find(b)
    groups = {}
    for i in range(len(texts)):
        if token_set(texts[i]):
            groups.setdefault(find(i), []).append(i)
    return sorted(sorted(g) for g in groups.values() if len(g) > 1)


def test_index_finds_exactly_the_pairs_a_brute_force_finds():
    rng = random.Random(7)
    vocab = [f"w{chr(97 + n)}" for n in range(26)] + [str(n) for n in range(14)]  # numbers must match too
    texts = []
    for _ in range(300):
        if texts and rng.random() < 0.3:  # perturb an earlier text
            words = texts[rng.randrange(len(texts))].split()
            op = rng.random()
            if op < 0.4 and len(words) > 1:
                words.pop(rng.randrange(len(words)))
            elif op < 0.8:
                words.insert(rng.randrange(len(words) + 1), rng.choice(vocab))
            rng.shuffle(words)
            texts.append(" ".join(words))
        else:
            texts.append(" ".join(rng.sample(vocab, rng.randint(2, 14))))
    texts.append("")  # empty text never clusters
    for threshold in (0.5, 0.7, 0.85, 1.0):
        got = sorted(NearDuplicateIndex(threshold).clusters(texts))
        assert got == _brute_clusters(texts, threshold), threshold


def test_memory_item_round_trip():
    moment = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    note = MemoryItem(kind="note", scope="profile", text="Likes short answers", source="correction",
                      confidence=0.7, created=moment, updated=moment, expires=moment, last_used=moment,
                      use_count=3, pinned=True, origin=Origin("work", "c1", 42))
    fact = MemoryItem(kind="fact", scope="user", key="language", value="id", source="model")
    for item in (note, fact):
        assert MemoryItem.from_dict(item.to_dict()) == item
