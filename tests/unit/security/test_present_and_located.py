"""One pass for the needles and the rare anchors finds what the two passes found.

`present_and_located` replaces `present_needles` then `sparse_positions` (over the
present anchors) in redaction: the needles found must be exactly those present,
and each anchor located must have every one of its starts (else a finder tried
at those starts would miss a match); common anchors stay unlocated.
"""

from __future__ import annotations

from agenttui.security import gitleaks_scan
from agenttui.security.anchor_positions import present_and_located, sparse_positions
from agenttui.security.redaction import _anchors, _needles, _views
from tests.unit.security.view_starts import every_start

_UNIT = (
    "def f(self):\n    self.keyfile = keyfile\n    return None\n" + "x = 1\n" * 120
    + "DB_PASSWORD=Tr0ub4dor&3xyz\nmy access token is ghx_9f8e7d6c5b4a\n"
    + "session: ab12cd34ef56gh78ij90\nsig=Zm9vYmFyMTIzNDU2Nzg5MA\n" + "y = 2\n" * 120
)
_PROSE = "forgot my password again, the password manager helps with the api key. " * 3000
# Past the 64 KB sample: needles and anchors that first occur late.
_LATE = _PROSE + "curl -u admin:hunter2xyz https://x.example/ --user bob\nsshpass -p s3cr3tpw ssh host\n"


def _two_passes(view: bytes, keywords: gitleaks_scan._Compiled, known: set[str]) -> tuple[set[str], dict]:
    needles = known | gitleaks_scan.present_needles(view, keywords.presence_only)
    return needles, sparse_positions(view, _anchors() & needles)


def test_same_needles_and_every_start_of_each_located_anchor() -> None:
    keywords = gitleaks_scan.compiled(_needles()[1])
    for text in ("", "short note: my pin is 4412", _UNIT, _UNIT * 40, _PROSE, _LATE):
        view = _views(text)[3]
        known = gitleaks_scan.present(keywords, gitleaks_scan.keyword_hits(view, keywords))
        scanned = present_and_located(view, keywords.presence_only, _anchors(), known)
        assert scanned is not None
        found, positions = scanned
        needles, before = _two_passes(view, keywords, known)
        assert known | found == needles, text[:40]
        assert set(before) <= set(positions), text[:40]  # at least what was located before
        for anchor, starts in positions.items():
            assert anchor in needles
            assert starts == every_start(view, anchor), anchor


def test_common_anchors_stay_unlocated_and_late_ones_are_found() -> None:
    keywords = gitleaks_scan.compiled(_needles()[1])
    view = _views(_LATE)[3]
    known = gitleaks_scan.present(keywords, gitleaks_scan.keyword_hits(view, keywords))
    scanned = present_and_located(view, keywords.presence_only, _anchors(), known)
    assert scanned is not None
    found, positions = scanned
    assert "pass" not in positions  # thousands of times in the sample: its regex scan stays
    assert {"sshpass", "--user"} <= found | known  # first seen far past the sample
    assert positions["sshpass"] == every_start(view, "sshpass")


def test_without_the_automaton_package_redaction_is_the_same(monkeypatch) -> None:
    from agenttui.security import anchor_positions
    from agenttui.security.redaction import redact_secrets

    texts = (_UNIT * 3, _LATE, "sshpass -p s3cr3tpw ssh host; my password is Tr0ub4dor&3xyz")
    want = [redact_secrets(t) for t in texts]
    assert all("[REDACTED:" in w for w in want)
    no_automaton = lambda needles: None  # noqa: E731
    monkeypatch.setattr(anchor_positions, "_presence_automaton", no_automaton)
    monkeypatch.setattr(gitleaks_scan, "_presence_automaton", no_automaton)
    assert present_and_located(_views(_LATE)[3], ("pass",), ("pass",)) is None
    assert [redact_secrets(t) for t in texts] == want
