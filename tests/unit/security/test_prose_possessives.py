"""The prose rule's possessive lookbehinds, one per width, match as one per word did.

`context_rules._PROSE` ends a subject at 'saya', 'kami', 'kita', 'aku' or 'gue'
(Indonesian possessives) with lookbehinds grouped by width; the reference below is
the pattern with one lookbehind per word. Both must match the same spans, groups
and ends on random text built from the words that decide it.
"""

from __future__ import annotations

import random
import re

from agenttui.security.anchored import AnchoredPattern
from agenttui.security.context_rules import _PROSE

_REFERENCE = AnchoredPattern(
    {"pass": "word|wd|code|phrase", "sandi": "", "private key": "", "secret key": "", "api key": "",
     "access token": "", "auth token": "", "token": ""},
    r"""
    (?P<kw_end>)
    (?:nya|ku)?
    (?:[ \t]{1,3}+[a-z][a-z-]{1,11}+){0,3}
    (?:[ \t]{0,3}+(?:is|was|adalah|itu|:)|(?<=saya)|(?<=\baku)|(?<=\bgue)|(?<=\bkami)|(?<=\bkita))
    [ \t]{1,3}+
    (?P<value>[^\s]{4,200}+)
    """,
    re.VERBOSE,
)
_WORDS = ("password", "kata sandi", "token", "api key", "passcode", "saya", "aku", "gue", "kami", "kita",
          "xsaya", "maku", "ngue", "akami", "okita", "is", "was", "adalah", "itu", ":", "email", "kantor",
          "wi-fi", "hunter2xyz", "Tr0ub4dor&3", "nya", "ku", "x")
_GAPS = (" ", "  ", "\t", "", "\n", ". ")


def _spans(pattern: AnchoredPattern, text: str) -> list[tuple[object, ...]]:
    return [(m.span(), m.span("value"), m.start("kw_end"), pattern.end(m)) for m in pattern.finditer(text)]


def test_grouped_lookbehinds_match_as_one_per_word() -> None:
    rng = random.Random(5)
    matched = 0
    for _ in range(4000):
        text = "".join(rng.choice(_WORDS) + rng.choice(_GAPS) for _ in range(rng.randint(1, 14)))
        got = _spans(_PROSE, text)
        assert got == _spans(_REFERENCE, text), text
        matched += bool(got)
    assert matched > 300
