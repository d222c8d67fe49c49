"""The message of ``agenttui ask``: the TEXT argument, piped input, or both.

* ``cmd | agenttui ask "review this"`` (or ``< file``): the message is the
  prompt, a blank line, then the piped text: the instruction comes first,
  where a reader (and a model) looks for what is asked of the text below it.
* ``cmd | agenttui ask`` (no TEXT) and ``agenttui ask -``: the piped text is
  the message.
* stdin that is a terminal is never read (it would wait for typing that
  nobody knows is expected); stdin that is empty adds nothing.
* At most :data:`MAX_STDIN_BYTES` are read. More is refused, not cut: a diff
  or a log cut at an arbitrary byte would be reviewed as if it were whole.
  Text with a NUL byte is refused as binary (an image goes with ``--image``);
  bytes that are not UTF-8 become U+FFFD with a warning (a pasted log with
  one stray byte is still a fine question); a leading UTF-8 byte order mark
  (a file saved "with BOM") is dropped.
"""

from __future__ import annotations

import codecs
import sys

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing before the command runs
if TYPE_CHECKING:
    from typing import BinaryIO

MAX_STDIN_BYTES = 1024 * 1024  # 1 MiB: ~250,000 tokens, past the context of most models already
MAX_STDIN_LABEL = "1 MiB"


class StdinRefused(Exception):
    """stdin cannot be sent: the message says why and what to do."""


def ask_message(text: str | None, stdin: object | None = None) -> str:
    """The message ``ask`` sends (module doc), '' when there is none. Raises StdinRefused."""
    stream = sys.stdin if stdin is None else stdin
    if text == "-":
        return read_stdin(stream)
    try:
        piped = "" if _is_terminal(stream) else read_stdin(stream)
    except OSError:  # a stdin that cannot be read (closed under us, a test runner's): TEXT alone
        piped = ""
    if not piped.strip():
        return text or ""
    if not text or not text.strip():
        return piped
    return f"{text}\n\n{piped}"


def _is_terminal(stream: object) -> bool:
    if stream is None or getattr(stream, "closed", False):
        return True  # nothing to read (a daemon without stdin): as good as a terminal
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except (OSError, ValueError):
        return True


def read_stdin(stream: object) -> str:
    """Up to MAX_STDIN_BYTES of ``stream`` as text (module doc); StdinRefused past that, or on binary."""
    from agenttui.cli.common import warn

    raw: BinaryIO | None = getattr(stream, "buffer", None)
    if raw is None:  # replaced by a text stream (tests, embedding)
        text = str(stream.read(MAX_STDIN_BYTES + 1))  # type: ignore[attr-defined]
        data = text.encode("utf-8", "surrogatepass")
    else:
        data = raw.read(MAX_STDIN_BYTES + 1)
    if len(data) > MAX_STDIN_BYTES:
        raise StdinRefused(
            f"stdin is more than {MAX_STDIN_LABEL} ({MAX_STDIN_BYTES:,} bytes), the most `ask` reads; "
            "nothing was sent. Send a part of it (e.g. `git diff -- src/ | agenttui ask …`, "
            "`tail -n 500 app.log | agenttui ask …`).")
    nul = data.find(b"\0")
    if nul >= 0:
        raise StdinRefused(
            f"stdin looks binary (a NUL byte at offset {nul}); nothing was sent. `ask` takes text: "
            "an image goes with --image PATH; UTF-16 text can be converted (iconv -f utf-16 -t utf-8).")
    if data.startswith(codecs.BOM_UTF8):  # a file saved as "UTF-8 with BOM": the mark is not text
        data = data[len(codecs.BOM_UTF8):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        decoded = data.decode("utf-8", "replace")
        warn(f"stdin is not valid UTF-8 (first bad byte {data[exc.start]:#04x} at offset "
             f"{exc.start}); {decoded.count(chr(0xFFFD))} character(s) replaced with U+FFFD")
        return decoded
