"""Cheap gates in front of two whole-text passes find what the passes find.

- `ascii_view` with wide spaces: a text with few characters beyond Latin-1 has
  them looked at one by one, without first counting its '?'s (a count of a
  2-byte text costs ~0.7 ms/MB); wide spaces still become ' ', other
  characters '?'.
- `find_private_key_blocks`: the scan for PuTTY's "Private-Lines:" runs only
  where the keyword pass found the needle "private-lines:".
"""

from __future__ import annotations

import pytest

from agenttui.security import gitleaks_scan, redaction
from agenttui.security.anchor_positions import Present
from agenttui.security.context_rules import find_private_key_blocks
from agenttui.security.crypto_keys import ascii_view


def _reference_view(text: str) -> bytes:
    out = bytearray()
    for ch in text:
        if ch.isspace() and ord(ch) > 255:
            out += b" "
        else:
            out += ch.encode("latin-1", "replace")
    return bytes(out)


@pytest.mark.parametrize(
    "text",
    [
        "plain ascii?",
        "caf\u00e9 \u2014 dash, no wide space?",
        "a\u3000b ideographic space",
        "many ? marks ???? and one \u2003 em space",
        "\u2014" * 5000 + " then \u2009 a thin space",  # many marks: counted first
        "\u2014" * 5000 + "?" * 10,
        "?" * 100 + "\u00a0 nbsp stays",
    ],
)
def test_ascii_view_marks_wide_spaces_as_spaces(text: str) -> None:
    assert ascii_view(text, wide_spaces=True) == _reference_view(text)


def test_ascii_view_does_not_count_question_marks_of_a_text_with_few_marks() -> None:
    class Counting(str):
        counted = 0

        def count(self, *args, **kwargs):  # type: ignore[override]
            Counting.counted += 1
            return super().count(*args, **kwargs)

    text = Counting("what? \u2014 a dash " * 10)
    assert ascii_view(text, wide_spaces=True) == _reference_view(str(text))
    assert Counting.counted == 0


_PUTTY = "PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\nAAAAIGZha2Vfa2V5X2ZvcGVvcGxlX3doby9yZWFk\n"


def test_putty_private_lines_are_found_where_the_keyword_pass_saw_them() -> None:
    lowered = redaction.ascii_lower(_PUTTY)
    keywords = gitleaks_scan.compiled(redaction._needles()[1])
    _, found = redaction.keyword_pass(lowered.encode("latin-1"), keywords)
    assert "private-lines:" in found
    assert list(find_private_key_blocks(_PUTTY, lowered, found)) == list(find_private_key_blocks(_PUTTY, lowered))
    assert list(find_private_key_blocks(_PUTTY, lowered))


def test_putty_scan_is_skipped_where_the_needle_is_absent() -> None:
    # A keyword pass that found only "-----begin": the "Private-Lines:" scan does not run.
    lowered = redaction.ascii_lower(_PUTTY)
    assert list(find_private_key_blocks(_PUTTY, lowered, Present({"-----begin"}))) == []
