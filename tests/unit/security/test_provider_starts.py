"""Provider rules tried at their located prefixes find what their scans find.

Where the sparse pass located every literal a provider rule's matches start
with, `_provider_candidates` tries the rule there (`Pattern.match`) instead of
scanning the text; the candidates must be the same as with no keyword pass.
"""

from __future__ import annotations

from agenttui.security import gitleaks_scan
from agenttui.security.redaction import _needles, _provider_candidates, _provider_prefixes, _views, keyword_pass

# Tokens whose rules take the located path, some back to back (a match may
# swallow the next prefix), some cut short, among ordinary code.
_TOKENS = (
    "AKIAIOSFODNN7EXAMPLQ AKIAZ3MHALF ASIAJ7K2PLX9QW4RT5YU "
    "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 npm_aB3dE5gH7jK9mN1pQ3rS5tU7vW9xY1zA3bC5d "
    "sk-proj4Xy7Kq2Lm9Np3Rs6Tv8Wz1Ab5Cd0Ef eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig_abc123XYZ "
    "SG.aBcDeFgHiJkLmNoPqRsT.uVwXyZ0123456789abcdefghijklmnopqrstuvw sig=abc 00Dxx0000001gPL!AQ4AQFp"
    "AKIA2QWERTYUIOPASDFG sk-Xy7Kq2Lm9Np3Rs6Tv8Wz-sk-1Ab5Cd0Ef9Gh8Ij7Kl6Mn4Op "
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIx.eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIx\n"
)
_FILLER = "def f(self):\n    return self.value + 1\n" * 100  # rare enough past the sample


def _candidates(text: str, with_positions: bool) -> list[tuple[int, int, str, int]]:
    view, _, _, lowered_bytes = _views(text)
    if not with_positions:
        return list(_provider_candidates(view, None))
    keywords = gitleaks_scan.compiled(_needles()[1])
    _, found = keyword_pass(lowered_bytes, keywords)
    assert "akia" in found.positions and "hf_" in found.positions, "the prefixes are located"
    return list(_provider_candidates(view, found))


def test_some_rules_take_the_located_path() -> None:
    assert sum(p is not None for p in _provider_prefixes()) >= 10
    assert any(p is None for p in _provider_prefixes())  # the others keep their scan


def test_located_prefixes_find_what_scans_find() -> None:
    for text in ((_FILLER + _TOKENS) * 5, (_FILLER + _TOKENS) * 100):  # under and past the sample
        located = _candidates(text, with_positions=True)
        assert len(located) > 20
        assert located == _candidates(text, with_positions=False)
