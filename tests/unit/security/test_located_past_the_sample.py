"""The located anchors' starts are every start, also where the pass reads on from the sample.

`present_and_located` takes the anchors' starts inside its 64 KB sample from the
sample's hits and reads the text only from where an occurrence could still end past
the sample: an anchor just inside it, one across its end and one just past it must each
be located once, in order.
"""

from __future__ import annotations

from agenttui.security import anchor_positions, gitleaks_scan
from agenttui.security.anchor_positions import present_and_located
from agenttui.security.redaction import _anchors, _needles, redact_secrets
from tests.unit.security.view_starts import every_start

_SAMPLE = anchor_positions._SAMPLE


def _text_with(anchor: str, at: list[int], size: int) -> bytes:
    text = bytearray(b"x = 1\n" * (size // 6 + 1))[:size]
    for pos in at:
        text[pos : pos + len(anchor)] = anchor.encode("latin-1")
    return bytes(text)


def test_anchors_at_the_sample_edge_are_located_once_each() -> None:
    keywords = gitleaks_scan.compiled(_needles()[1])
    anchors = _anchors()
    for anchor in ("sshpass", "-----begin", "akia"):
        assert anchor in anchors
        n = len(anchor)
        for at in ([_SAMPLE - n], [_SAMPLE - n + 1], [_SAMPLE - 1], [_SAMPLE], [10, _SAMPLE - n, _SAMPLE - 2, 200_000],
                   [], [5, 70_000]):
            view = _text_with(anchor, at, 3 * _SAMPLE)
            known = gitleaks_scan.present(keywords, gitleaks_scan.keyword_hits(view, keywords))
            scanned = present_and_located(view, keywords.presence_only, anchors, known)
            assert scanned is not None
            found, positions = scanned
            want = every_start(view, anchor)
            assert positions.get(anchor, []) == want, (anchor, at)
            assert (anchor in found | known) == bool(want)


def test_redaction_of_a_secret_across_the_sample_edge() -> None:
    line = "sshpass -p s3cr3tpw ssh host\n"
    filler = "x = 1\n" * (_SAMPLE // 6)
    for cut in (1, 4, 7, 12):
        text = filler[: _SAMPLE - cut] + line + filler
        assert "[REDACTED:" in redact_secrets(text)
        assert "s3cr3tpw" not in redact_secrets(text)
