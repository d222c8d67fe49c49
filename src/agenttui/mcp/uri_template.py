"""URI templates of MCP resource templates (RFC 6570, levels 1-3), for ``/mcp``.

MCP's ``resources/templates/list`` gives ``uriTemplate`` strings such as
``file:///{path}`` or ``notes://{topic}/{day}``; the user fills one field per
variable and :func:`expand` builds the URI to read. Level 4 modifiers
(``{var*}``, ``{var:3}``) are accepted and ignored: the value is used whole.
Values are percent-encoded as RFC 6570 says (``{+var}``/``{#var}`` keep
reserved characters such as ``/``).
"""

from __future__ import annotations

import re
from urllib.parse import quote

_EXPRESSION = re.compile(r"\{([+#./;?&]?)([^{}]*)\}")
_RESERVED = ":/?#[]@!$&'()*+,;="
# operator -> (first, separator, named, reserved characters allowed)
_OPERATORS = {"": ("", ",", False, False), "+": ("", ",", False, True), "#": ("#", ",", False, True),
              ".": (".", ".", False, False), "/": ("/", "/", False, False),
              ";": (";", ";", True, False), "?": ("?", "&", True, False), "&": ("&", "&", True, False)}


def _name(spec: str) -> str:
    return spec.strip().split(":", 1)[0].rstrip("*")


def variables(template: str) -> list[str]:
    """The variable names of ``template`` in order, each once."""
    names: list[str] = []
    for match in _EXPRESSION.finditer(template):
        for spec in match.group(2).split(","):
            name = _name(spec)
            if name and name not in names:
                names.append(name)
    return names


def expand(template: str, values: dict[str, str]) -> str:
    """``template`` with ``values`` put in; a variable without a value is left out (RFC 6570 2.3)."""
    def one(match: re.Match[str]) -> str:
        first, separator, named, reserved = _OPERATORS[match.group(1)]
        safe = _RESERVED if reserved else ""
        parts = []
        for spec in match.group(2).split(","):
            name = _name(spec)
            value = values.get(name)
            if value is None:
                continue
            encoded = quote(value, safe=safe)
            if named:
                parts.append(f"{name}={encoded}" if value or match.group(1) != ";" else name)
            else:
                parts.append(encoded)
        return first + separator.join(parts) if parts else ""

    return _EXPRESSION.sub(one, template)
