"""Make untrusted text inert before it reaches the screen (docs/security.md).

The policy lives in :mod:`agenttui.core.visible_text` (shared with the CLI,
no Textual): control characters, escape sequences, bidi controls and invisible
characters from the model or a tool are shown as ``\\x1b``-style escapes --
never run by the terminal, never silently removed. The text is then rendered
as Markdown or as a ``Content``/``Text`` object -- never as a Rich markup
string, so ``[bold]`` in a reply stays literal text.
"""

from __future__ import annotations

from agenttui.core.visible_text import InertStream, exact, exact_line, exact_parts, inert_line
from agenttui.core.visible_text import inert_text as inert

__all__ = ["InertStream", "exact", "exact_line", "exact_parts", "inert", "inert_line"]
