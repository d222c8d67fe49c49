"""The seed-phrase prefilter loses no phrase: the same as the exact scan of the whole text."""

from __future__ import annotations

import random

from agenttui.security.crypto_keys import _seed_phrases_in, ascii_view, find_seed_phrases

_SEED = "abandon " * 11 + "about"
_LONG_WORDS = ("extraordinarily", "abcdefghiact", "nevertheless", "wallet", "of", "seed:", "Mnemonic:")


def _exact(text: str) -> list[tuple[int, int, str, int]]:
    return list(_seed_phrases_in(text, 0, len(text)))


def test_prefilter_finds_what_the_exact_scan_finds() -> None:
    rng = random.Random(11)
    texts = []
    for _ in range(300):
        words = [rng.choice(_LONG_WORDS + ("act", "about", "able", "zoo")) for _ in range(rng.randint(0, 30))]
        words.insert(rng.randint(0, len(words)), _SEED if rng.random() < 0.7 else _SEED.replace(" ", ", "))
        texts.append(rng.choice((" ", "\n", " ")).join(words))
    texts.append("seed: " + _SEED)
    texts.append("nevertheless " + _SEED + " extraordinarily")
    found = 0
    for text in texts:
        got = list(find_seed_phrases(text, text.lower(), ascii_view(text, wide_spaces=True)))
        assert got == _exact(text), text
        found += bool(got)
    assert found > 50, "the texts hold phrases the finder reports"
