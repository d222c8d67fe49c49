"""Make untrusted text inert before it reaches the screen (A5).

Model and tool output may carry terminal control sequences (colour changes,
cursor moves, OSC 52 clipboard writes, hyperlinks, title changes). Textual
renders through Rich, which already drops most raw escapes, but we do not rely
on that: everything from the model or a tool passes :func:`inert` first, and is
then rendered as Markdown or as a ``Content``/``Text`` object -- never as a
Rich markup string, so ``[bold]`` in a reply stays literal text.

Sequences are *removed* (they carry nothing readable); other C0/C1 control
characters become visible ``␛``-style pictures so a user inspecting odd output
can see that something was there. ``\\n`` and ``\\t`` are kept.
"""

from __future__ import annotations

import re

# ESC-introduced sequences, longest forms first:
#   CSI  ESC [ params intermediates final        (cursor moves, SGR colours)
#   OSC  ESC ] ... (BEL | ESC \\)                 (titles, hyperlinks, OSC 52 clipboard)
#   DCS/SOS/PM/APC  ESC P|X|^|_ ... ESC \\        (device control strings)
#   two-byte escapes ESC <char>
# and their 8-bit C1 forms (0x9b CSI, 0x9d OSC, 0x90 DCS ...). An unterminated
# string sequence swallows to the end of the text, as a terminal would.
_SEQUENCE = re.compile(
    r"""
    (?:\x1b\[|\x9b) [\x30-\x3f]* [\x20-\x2f]* [\x40-\x7e]?          # CSI
  | (?:\x1b\]|\x9d) [^\x07\x1b\x9c]* (?:\x07|\x1b\\|\x9c)?          # OSC
  | (?:\x1b[P X^_]|[\x90\x98\x9e\x9f]) [^\x1b\x9c]* (?:\x1b\\|\x9c)? # DCS SOS PM APC
  | \x1b [\x20-\x2f]* [\x30-\x7e]?                                  # other ESC x
    """,
    re.VERBOSE,
)
# Remaining controls: C0 except \t \n, DEL, C1. \r alone would move the cursor
# to column 0 in a raw terminal; as text it is just dropped (CRLF -> LF).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _picture(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if char == "\r":
        return ""
    if code < 0x20:
        return chr(0x2400 + code)  # U+2400 block: ␀ ␁ ... ␛
    if code == 0x7F:
        return "\u2421"  # ␡
    return "\ufffd"  # C1: no picture exists; show a replacement character


def inert(text: str | None) -> str:
    """Return ``text`` with every terminal control sequence neutralised."""
    if not text:
        return ""
    if text.isprintable() and "\x1b" not in text:
        return text  # fast path: the common case costs one C-level scan
    return _CONTROL.sub(_picture, _SEQUENCE.sub("", text))


def inert_line(text: str | None, limit: int = 200) -> str:
    """One display line: inert, newlines folded to spaces, shortened with an ellipsis."""
    line = " ".join(inert(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


# A sequence that has started but not finished at the end of a chunk: hold it
# back so a sequence split across two stream deltas is still removed whole.
_UNFINISHED = re.compile(
    r"""(?:
        \x1b
      | (?:\x1b\[|\x9b) [\x30-\x3f]* [\x20-\x2f]*
      | (?:\x1b\]|\x9d) [^\x07\x1b\x9c]* \x1b?
      | (?:\x1b[P X^_]|[\x90\x98\x9e\x9f]) [^\x1b\x9c]* \x1b?
    )\Z""",
    re.VERBOSE,
)
_HOLD_LIMIT = 4096  # a "sequence" longer than this is junk; release it (inert) anyway


class InertStream:
    """Make a stream of chunks inert, keeping sequences split across chunks whole."""

    def __init__(self) -> None:
        self._held = ""

    def feed(self, chunk: str) -> str:
        text = self._held + chunk
        self._held = ""
        start = max(text.rfind("\x1b"), *(text.rfind(c) for c in "\x9b\x9d\x90\x98\x9e\x9f"))
        if start >= 0 and len(text) - start < _HOLD_LIMIT and _UNFINISHED.match(text, start):
            self._held = text[start:]
            text = text[:start]
        return inert(text)

    def flush(self) -> str:
        held, self._held = self._held, ""
        return inert(held)
