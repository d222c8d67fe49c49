"""Provider rules located by the needles their matches start with, past the literal prefix.

Twilio's 'SK', GitHub's 'gh', Slack's 'xox' and DigitalOcean's 'do' are word parts
once lower-cased, so they are no needles; one character further ('sk' + a hex digit,
'ghp_', …) they are (`literals.start_literals`). Those rules are then tried where
the keyword pass located their needles, not after a scan of the text for their
family hint; they must find what the scans find. Twilio's 'AC' + a hex digit
('acc', 'ace') stays a scan: those are common word parts.
"""

from __future__ import annotations

import random

from agenttui.security import gitleaks_scan
from agenttui.security.crypto_keys import alnum_view
from agenttui.security.literals import start_literals
from agenttui.security.redaction import _needles, _provider_candidates, _provider_prefixes, _views, keyword_pass
from agenttui.security.secret_patterns import PROVIDER_RULES

_HEX = "0123456789abcdef"
_RNG = random.Random(7)


def _hex(n: int) -> str:
    return "".join(_RNG.choice(_HEX) for _ in range(n))


# Some back to back (a match may swallow the next start), some cut short or glued.
_TOKENS = (
    f"SK{_hex(32)} SKa{_hex(31)} xSK{_hex(32)} SK{_hex(16)}AC{_hex(32)}:{_hex(32)}\n"
    f"ACe{_hex(20)}:{_hex(32)} AC{_hex(32)}:{_hex(32)} AC{_hex(32)}: AC{_hex(32)}:{_hex(32)}AC{_hex(32)}:{_hex(32)}\n"
    "ghp_aB3dE5gH7jK9mN1pQ3rS5tU7vW9xY1zA3bC5 gho_short ghu_aB3dE5gH7jK9mN1pQ3rS5tU7vW9xY1zA3bC5dE7f\n"
    "xoxb-1234567890-aBcDeFgHiJkL xoxp-12 xoxe-aB3dE5gH7jK9mN1pQ3rS5\n"
    f"dop_v1_{_hex(64)} doo_v1_{_hex(48)} dor_v1_{_hex(64)}\n"
)
_FILLER = "The access to the skills page: ask each account. Skip.\n" * 40  # 'acc', 'ske'-like words


def _candidates(text: str, with_positions: bool) -> list[tuple[int, int, str, int]]:
    view, _, _, lowered_bytes = _views(text)
    if not with_positions:
        return list(_provider_candidates(view, None))
    _, found = keyword_pass(lowered_bytes, gitleaks_scan.compiled(_needles()[1]))
    return list(_provider_candidates(view, found))


def test_start_literals_read_past_lookbehinds_and_into_classes() -> None:
    assert start_literals(r"SK(?<![A-Za-z0-9]SK)[0-9a-f]{32}") == [f"SK{c}" for c in "0123456789abcdef"]
    assert start_literals(r"xox(?<![A-Za-z0-9]xox)[bp]-[A-Za-z0-9-]{10,}+") == ["xoxb-", "xoxp-"]
    assert start_literals(r"ab[A-Za-z]") == ["ab"]  # 52 characters: not expanded
    assert start_literals(r"(?i)sk[0-9]") is None
    assert start_literals(r"[^a]bc") == [""]


def test_twilio_github_slack_and_digitalocean_rules_are_located() -> None:
    located = {r.kind for r, p in zip(PROVIDER_RULES, _provider_prefixes(), strict=True) if p is not None}
    assert {"twilio_api_key", "github_token", "slack_token", "digitalocean_token"} <= located
    assert "twilio_auth_token" not in located  # its needles are word parts (acc, ace): it keeps its scan
    for rule, prefixes in zip(PROVIDER_RULES, _provider_prefixes(), strict=True):
        if rule.kind == "twilio_api_key":
            assert prefixes == tuple(f"sk{c}" for c in _HEX)


def test_located_needles_find_what_scans_find() -> None:
    for text in ((_FILLER + _TOKENS) * 3, (_FILLER + _TOKENS) * 120):  # under and past the sample
        located = _candidates(text, with_positions=True)
        kinds = {kind for _, _, kind, _ in located}
        assert {"twilio_api_key", "twilio_auth_token", "github_token", "slack_token", "digitalocean_token"} <= kinds
        assert located == _candidates(text, with_positions=False)


def test_gitleaks_sk_seek_is_tried_at_the_located_needles() -> None:
    """Where runs are too many for the run-shaped path (a trace id per line), gitleaks'
    'sk[0-9a-f]{32}' seek is tried at the located 'sk0' … 'skf', with the starts of a
    whole-text scan."""
    c = gitleaks_scan.compiled(_needles()[1])
    seek = next(rx for r in c.seeking for rx in c.rules[r].seeks if rx.pattern == "sk[0-9a-f]{32}")
    assert gitleaks_scan.seek_start_needles(c)[seek] == tuple(f"sk{h}" for h in _HEX)
    line = "GET /v1/x trace={} ask\n"
    for tail in ("", f"key sk{_hex(32)} skf{_hex(40)} xsk{_hex(32)}sk{_hex(32)}\n"):
        text = "".join(line.format(_hex(24)) for _ in range(3000)) + tail
        lowered = text.lower()
        _, present = keyword_pass(lowered.encode("latin-1"), c)
        alnum = alnum_view(lowered.encode("latin-1"))
        assert gitleaks_scan.seek_runs(c, alnum) is None  # too many runs: not the path under test
        assert not tail or {"sk0", "skf"} & set(present.positions)
        starts = dict(gitleaks_scan._seek_starts(c, lowered, alnum, present))
        whole = dict(gitleaks_scan._seek_starts(c, lowered, alnum, None))
        assert starts == whole
        assert bool(tail) == any(starts.values())
