"""Anchors located by one automaton pass give the same matches as their regex scans."""

from __future__ import annotations

from agenttui.security.anchor_positions import Present, sparse_positions
from agenttui.security.context_rules import _ASSIGN, _PROSE
from agenttui.security.prose_rules import _PROSE_PW
from agenttui.security.redaction import ascii_lower, redact_secrets

# Rare anchors in a long text (past the sample), with overlapping ones
# ("password" holds "pass"; "access token" holds "token").
_UNIT = (
    "def f(self):\n    self.keyfile = keyfile\n    return None\n" + "x = 1\n" * 120
    + "DB_PASSWORD=Tr0ub4dor&3xyz\nmy access token is ghx_9f8e7d6c5b4a\n"
    + "session: ab12cd34ef56gh78ij90\nsig=Zm9vYmFyMTIzNDU2Nzg5MA\n" + "y = 2\n" * 120
)
_TEXT = _UNIT * 200


def _spans(pattern, text, present):
    return [(m.start(), pattern.end(m)) for m in pattern.finditer(text, present)]


def test_located_anchors_match_like_scanned_ones() -> None:
    lowered = ascii_lower(_TEXT)
    view = lowered.encode("latin-1")
    patterns = (_ASSIGN, _PROSE, _PROSE_PW)
    present = {a for p in patterns for a in p.anchors if a in lowered}
    positions = sparse_positions(view, present)
    assert {"pass", "token", "session", "sig"} <= set(positions), "rare anchors here: they are located"
    for pattern in patterns:
        scanned = _spans(pattern, lowered, present)
        assert scanned
        assert _spans(pattern, lowered, Present(present, positions)) == scanned


def test_dense_anchors_are_scanned() -> None:
    text = "forgot my password again, the password manager helps " * 5000
    assert "pass" not in sparse_positions(text.encode("latin-1"), {"pass", "key", "token", "secret"})


def test_redaction_same_with_and_without_positions() -> None:
    out = redact_secrets(_TEXT)
    assert out.count("[REDACTED:password]") == 200
    assert [redact_secrets(u) for u in out.split(_UNIT[:20]) if u] == [u for u in out.split(_UNIT[:20]) if u]
