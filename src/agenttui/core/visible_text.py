"""Untrusted text made visible and inert before it reaches a screen (docs/security.md).

Every display path -- the approval dialog, the chat, ``agenttui ask`` on
stdout/stderr, CLI listings -- passes model- or tool-controlled text through
this module. Nothing here is *stripped*: a control character, an escape
sequence (including everything inside an OSC ``ESC ] … BEL``), a C1 control,
a bidi control or an invisible character is shown as a ``\\x1b`` /
``\\u202e`` / ``\\U000e0041`` escape, so what a terminal would have hidden or
reordered is on the screen, and none of it can act on the terminal.

Two policies:

* :func:`exact` / :func:`exact_parts` -- for what will *run* (a shell command,
  a tool name, tool arguments in an approval). Every character that is not
  plainly visible is escaped: C0/C1 controls and DEL (tab included),
  everything :meth:`str.isprintable` rejects (format ``Cf`` such as
  U+202A-U+202E, U+2066-U+2069, U+200B-U+200F, U+061C, U+FEFF, the tag
  block; separators other than the ASCII space, e.g. NBSP; surrogates;
  private use; unassigned) and the printable Default_Ignorable_Code_Points
  (Unicode DerivedCoreProperties.txt: U+034F, U+115F-U+1160, U+17B4-U+17B5,
  U+180B-U+180F, U+3164, U+FE00-U+FE0F, U+FFA0, U+E0100-U+E0FFF). Only ``\\n``
  may be kept (multi-line scripts stay readable; the dialog counts the lines).
  The mapping is reversible (:func:`reveal`), so two different commands never
  look the same: a literal backslash is doubled exactly when it would
  otherwise read as the start of an escape (before ``\\``, ``x``, ``u``, ``U``
  or an escaped character), so ``printf 'a\\n'`` and ``-exec rm {} \\;`` are
  shown as typed. :func:`exact_parts` marks which pieces are escapes so the
  dialog can style them distinctly.
* :func:`inert_text` -- for prose (replies, tool output, notes, titles).
  Keeps ``\\n``, ``\\t``, CRLF -> LF, and the format characters ordinary text
  needs (soft hyphen, ZWNJ/ZWJ in scripts and emoji, LRM/RLM/ALM in
  right-to-left text, variation selectors, NBSP, unassigned code points that
  newer Unicode uses for emoji); escapes every other control, format and
  separator character -- C0/C1, DEL, a lone CR, ESC (so no sequence can act),
  the bidi embeddings/overrides/isolates (Trojan Source), zero-width
  space/joiners outside the kept set, the tag block (invisible "ASCII
  smuggling" a model would read but a user would not see) and Hangul fillers.
  Per character, so a stream can be made inert chunk by chunk.
"""

from __future__ import annotations

import re

# Format characters (category Cf) of Unicode 14 (Python 3.11's unicodedata),
# as ranges; tests check that this table still covers unicodedata's Cf set.
CF_RANGES = (
    (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C), (0x06DD, 0x06DD),
    (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x180E, 0x180E),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F),
    (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD),
    (0x13430, 0x1343F), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)
# Default_Ignorable_Code_Point characters that str.isprintable() accepts
# (Unicode DerivedCoreProperties.txt): they draw nothing.
PRINTABLE_IGNORABLE_RANGES = (
    (0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0xE0100, 0xE0FFF),
)
# Format characters prose needs: soft hyphen, ALM, ZWNJ, ZWJ, LRM, RLM.
PROSE_FORMAT_CHARACTERS = frozenset("\u00ad\u061c\u200c\u200d\u200e\u200f")
_HANGUL_FILLERS = "\u115f\u1160\u3164\uffa0"


def _char_class(ranges: tuple[tuple[int, int], ...], skip: frozenset[str] = frozenset()) -> str:
    """Regex class body for ``ranges`` without the characters in ``skip``."""
    parts = []
    for low, high in ranges:
        run_start = None
        for code in [*range(low, high + 1), None]:
            inside = code is not None and chr(code) not in skip
            if inside and run_start is None:
                run_start = code
            elif not inside and run_start is not None:
                end = (code if code is not None else high + 1) - 1
                parts.append(re.escape(chr(run_start)) + ("-" + re.escape(chr(end)) if end > run_start else ""))
                run_start = None
    return "".join(parts)


# Prose: C0 but \t \n \r, DEL, C1, a CR not before LF, Cf but the kept ones,
# surrogates, U+2028/2029, Hangul fillers.
_PROSE_ESCAPE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff"
    + re.escape(_HANGUL_FILLERS) + _char_class(CF_RANGES, PROSE_FORMAT_CHARACTERS) + "]|\r"
)  # CRLF is made LF first, in one pass: a CR left over is lone, even before a LF ("\r\r\n")
_IGNORABLE = re.compile("[" + _char_class(PRINTABLE_IGNORABLE_RANGES) + "]")
# Exact mode looks at every character outside printable ASCII, and at backslashes.
_NOT_PLAIN = re.compile(r"[^\x20-\x5b\x5d-\x7e]")
_ESCAPE_LEAD = frozenset("\\xuU")


def escape_char(char: str) -> str:
    """``\\x1b``, ``\\u202e`` or ``\\U000e0041`` for one character."""
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def needs_escape(char: str, keep: str = "") -> bool:
    """True when ``char`` is not plainly visible on its own (exact policy)."""
    if char in keep:
        return False
    return not char.isprintable() or _IGNORABLE.match(char) is not None


def exact_parts(text: str | None, keep: str = "\n") -> list[tuple[str, bool]]:
    """``text`` as (piece, is_escape) pairs; joined they are :func:`exact`."""
    if not text:
        return []
    parts: list[tuple[str, bool]] = []
    plain: list[str] = []
    start = 0
    for match in _NOT_PLAIN.finditer(text):
        i = match.start()
        char = text[i]
        plain.append(text[start:i])
        start = i + 1
        if char == "\\":
            following = text[i + 1 : i + 2]
            ambiguous = following and (following in _ESCAPE_LEAD or needs_escape(following, keep))
            plain.append("\\\\" if ambiguous else "\\")
        elif needs_escape(char, keep):
            if plain:
                parts.append(("".join(plain), False))
                plain = []
            parts.append((escape_char(char), True))
        else:
            plain.append(char)
    plain.append(text[start:])
    rest = "".join(plain)
    if rest:
        parts.append((rest, False))
    return [part for part in parts if part[0]]


def exact(text: str | None, keep: str = "\n") -> str:
    """Reversible, fully visible form of ``text`` (see module doc)."""
    if not text:
        return ""
    if "\\" not in text and _drop(text, keep).isprintable() and not _IGNORABLE.search(text):
        return text  # the common case: one C-level scan
    return "".join(piece for piece, _ in exact_parts(text, keep))


def _drop(text: str, keep: str) -> str:
    return text.translate({ord(c): None for c in keep}) if keep else text


def exact_line(text: str | None, limit: int = 200) -> str:
    """One line, exact (newlines escaped too), shortened with an ellipsis."""
    line = exact(text, keep="")
    return line if len(line) <= limit else line[: limit - 1] + "…"


_ESCAPE_FORMS = re.compile(r"\\(?:\\|x([0-9a-f]{2})|u([0-9a-f]{4})|U([0-9a-f]{8}))")


def reveal(shown: str) -> str:
    """Inverse of :func:`exact`: the original text back."""
    def back(match: re.Match[str]) -> str:
        digits = match.group(1) or match.group(2) or match.group(3)
        return chr(int(digits, 16)) if digits else "\\"

    return _ESCAPE_FORMS.sub(back, shown)


def inert_text(text: str | None) -> str:
    """Prose made inert: newlines and tabs kept, every other control visible."""
    if not text:
        return ""
    if text.isprintable():
        return text if not any(c in text for c in _HANGUL_FILLERS) else _escape_prose(text)
    return _escape_prose(text)


def _escape_prose(text: str) -> str:
    return _PROSE_ESCAPE.sub(lambda m: escape_char(m.group()), text.replace("\r\n", "\n"))


def inert_line(text: str | None, limit: int = 200) -> str:
    """One display line of prose: inert, whitespace runs folded to a space, shortened."""
    line = " ".join(inert_text(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


class InertStream:
    """:func:`inert_text` over a stream of chunks (a CR at a chunk's end waits
    for the next chunk: CRLF becomes LF, a lone CR is shown as ``\\x0d``)."""

    def __init__(self) -> None:
        self._held = ""

    def feed(self, chunk: str) -> str:
        text = self._held + (chunk or "")
        self._held = ""
        if text.endswith("\r"):
            self._held, text = "\r", text[:-1]
        return inert_text(text)

    def flush(self) -> str:
        held, self._held = self._held, ""
        return inert_text(held)
