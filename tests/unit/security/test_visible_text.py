"""What will run is shown exactly; untrusted prose is inert.

The oracle for "visible" is independent of the implementation: Unicode general
categories from :mod:`unicodedata` plus the Default_Ignorable_Code_Point ranges
of Unicode's DerivedCoreProperties.txt
(https://www.unicode.org/Public/UCD/latest/ucd/DerivedCoreProperties.txt),
copied here by hand rather than imported from the module under test.
"""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from agenttui.cli.common import json_text
from agenttui.core.visible_text import (
    CF_RANGES,
    InertStream,
    exact,
    exact_line,
    exact_parts,
    inert_line,
    inert_text,
    reveal,
)

# DerivedCoreProperties.txt, Default_Ignorable_Code_Point (Unicode 15.1).
DEFAULT_IGNORABLE = [
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
]
# The list: bidi embeddings/overrides/isolates, marks, ALM; zero-width characters.
BIDI = [chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C]]
ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]


def is_visible(char: str) -> bool:
    """Printable, not a format/control/separator/unassigned/private character, draws something."""
    category = unicodedata.category(char)
    if category[0] == "C" or category in ("Zl", "Zp") or (category == "Zs" and char != " "):
        return False
    return not any(low <= ord(char) <= high for low, high in DEFAULT_IGNORABLE)


HOSTILE_ALPHABET = st.sampled_from(
    ["\\", "x", "u", "U", "1", "b", "e", "f", "0", "2", "a", " ", ";", "'", "\n", "\t", "\r",
     "\x1b", "\x07", "\x00", "\x7f", "\x9b", "\x9d", "\u00a0", "\u3164", "\ufe0f", "\U000e0041",
     "\ud800", "\U0010ffff", "é", "中", *BIDI, *ZERO_WIDTH]
)
ANY_TEXT = st.text(alphabet=st.characters(blacklist_categories=()), max_size=60)
TRICKY_TEXT = st.text(alphabet=HOSTILE_ALPHABET, max_size=40)


@pytest.mark.slow
@settings(max_examples=400)
@given(st.one_of(ANY_TEXT, TRICKY_TEXT))
@example("echo hello \x1b]0; rm -f FILE; #\x07")
@example("\\x1b")
@example("\\\x1b")
def test_every_character_of_a_displayed_command_is_visible_and_the_display_reverses(text):
    shown = exact(text)
    assert all(c == "\n" or is_visible(c) for c in shown), repr(shown)
    assert reveal(shown) == text  # so no two different commands look the same
    assert "".join(piece for piece, _ in exact_parts(text)) == shown
    line = exact(text, keep="")
    assert all(is_visible(c) for c in line) and reveal(line) == text


@given(TRICKY_TEXT, TRICKY_TEXT)
def test_different_commands_never_display_the_same(a, b):
    if a != b:
        assert exact(a) != exact(b)


def test_the_hidden_osc_payload_is_shown_in_full():
    command = "echo hello \x1b]0; rm -f FILE; #\x07"
    assert exact(command) == "echo hello \\x1b]0; rm -f FILE; #\\x07"
    assert exact_parts(command) == [("echo hello ", False), ("\\x1b", True),
                                    ("]0; rm -f FILE; #", False), ("\\x07", True)]


def test_bidi_and_invisible_characters_are_escaped_in_commands():
    for char in BIDI + ZERO_WIDTH + ["\u00a0", "\u3164", "\U000e0072"]:
        shown = exact(f"ls{char}-la")
        assert char not in shown and any(e in shown for e in ("\\x", "\\u", "\\U")), repr(shown)
        assert reveal(shown) == f"ls{char}-la"


def test_ordinary_commands_are_shown_as_typed():
    for command in ["ls -la", "printf 'a\\n'", "find . -name '*.pyc' -exec rm {} \\;",
                    "sed 's/\\./,/g' x", "git commit -m 'Grüße, 你好'", "cat <<EOF\nline\nEOF"]:
        assert exact(command) == command


def test_a_literal_escape_lookalike_is_told_apart_from_the_real_one():
    assert exact("echo '\\x1b'") == "echo '\\\\x1b'"
    assert exact("echo '\x1b'") == "echo '\\x1b'"
    assert exact_line("run\nthis", 100) == "run\\x0athis"


def test_format_table_covers_this_pythons_unicode():
    covered = {c for low, high in CF_RANGES for c in range(low, high + 1)}
    missing = [hex(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf" and c not in covered]
    assert not missing


# --- prose (replies, tool output, notes) -------------------------------------------------
TERMINAL_ACTING = ["\x1b", "\x07", "\x9b", "\x9d", "\x90", "\x9c", "\r", "\x08", "\x00", "\x7f",
                   *[chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]],
                   "\u200b", "\u2060", "\ufeff", "\u2028", "\u2029", "\U000e0041", "\u3164"]


@given(st.one_of(ANY_TEXT, TRICKY_TEXT))
def test_prose_keeps_newlines_and_tabs_and_nothing_acts(text):
    out = inert_text(text)
    assert not any(c in out for c in TERMINAL_ACTING)
    assert not any(unicodedata.category(c) == "Cc" and c not in "\n\t" for c in out)
    assert out.count("\n") == text.count("\n")
    assert "\n" not in inert_line(text) and "\t" not in inert_line(text)


def test_prose_keeps_what_ordinary_text_needs():
    for text in ["a\tb\nc", "👨\u200d👩\u200d👧 ❤\ufe0f", "שלום\u200f abc", "می\u200cخواهم",
                 "Grüße — «\u00a0oui\u00a0»"]:
        assert inert_text(text) == text


def test_osc52_and_title_sequences_are_escaped_in_prose_and_streams():
    osc52 = "\x1b]52;c;cm0gLXJmIH4=\x07"
    title = "\x1b]0;pwned\x1b\\"
    out = inert_text(f"hi {osc52} {title}")
    assert out == "hi \\x1b]52;c;cm0gLXJmIH4=\\x07 \\x1b]0;pwned\\x1b\\"
    stream = InertStream()
    chunks = [osc52[:3], osc52[3:], title[:2], title[2:]]
    assert "\x1b" not in "".join(stream.feed(c) for c in chunks) + stream.flush()


def test_json_output_is_the_same_value_with_no_raw_control():
    value = [{"text": "a\x9b2Jb \u202eevil\u202c \U000e0041 \x1b]52;c;x\x07 \ud800 \u00e9 \n"}]
    out = json_text(value, indent=2)
    assert json.loads(out) == value
    assert all(c == "\n" or is_visible(c) for c in out)
    assert "\u00e9" in out  # ordinary non-ASCII stays readable


def test_a_cr_left_before_a_lf_is_still_escaped():
    """Found by Hypothesis (tests/ui/safety/test_inert.py): "\\r\\r\\n" kept a raw CR, which a
    terminal runs (the cursor back to the line's start, hiding what came before it)."""
    from agenttui.core.visible_text import InertStream, inert_text

    assert inert_text("a\r\r\nb") == "a\\x0d\nb"
    assert inert_text("a\r\nb") == "a\nb" and inert_text("a\rb") == "a\\x0db"
    stream = InertStream()
    assert stream.feed("a\r\r") + stream.feed("\nb") + stream.flush() == inert_text("a\r\r\nb")
