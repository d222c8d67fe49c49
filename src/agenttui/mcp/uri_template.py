"""URI templates of MCP resource templates (RFC 6570), for ``/mcp``.

MCP's ``resources/templates/list`` gives ``uriTemplate`` strings such as
``file:///{path}`` or ``notes://{topic}/{day}``; the user fills one field per
variable and :func:`expand` builds the URI to read.

The SDK's :class:`mcp.shared.uri_template.UriTemplate` does the work (levels
1-3 and the explode modifier of ``{/var*}``, ``{.var*}``, ``{;var*}``). Its
parser also serves servers that *match* URIs, so it refuses templates that
are valid for expansion but ambiguous to match: a prefix modifier
(``{var:3}``), a query explode (``{?var*}``), two variables with no literal
between them (``{a}{b}``), a name used twice. A server may still list such a
template, and the user must still be able to read it: those few go through
:func:`_lenient_expand`, a small expander of the whole RFC for string values
(tests/mcp/test_uri_template.py pins both paths to the RFC's examples).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import quote

if TYPE_CHECKING:
    from mcp.shared.uri_template import UriTemplate

_EXPRESSION = re.compile(r"\{([+#./;?&]?)([^{}]*)\}")
_RESERVED = ":/?#[]@!$&'()*+,;="
# operator -> (first, separator, named, reserved characters allowed)
_OPERATORS = {"": ("", ",", False, False), "+": ("", ",", False, True), "#": ("#", ",", False, True),
              ".": (".", ".", False, False), "/": ("/", "/", False, False),
              ";": (";", ";", True, False), "?": ("?", "&", True, False), "&": ("&", "&", True, False)}


def _parsed(template: str) -> UriTemplate | None:
    """The SDK's parse, or None where it refuses (the SDK is imported only when /mcp needs it)."""
    from mcp.shared.uri_template import InvalidUriTemplate, UriTemplate

    try:
        return UriTemplate.parse(template)
    except InvalidUriTemplate:
        return None


def variables(template: str) -> list[str]:
    """The variable names of ``template`` in order, each once."""
    parsed = _parsed(template)
    if parsed is not None:
        return list(parsed.variable_names)
    names: list[str] = []
    for match in _EXPRESSION.finditer(template):
        for spec in match.group(2).split(","):
            name = _name(spec)
            if name and name not in names:
                names.append(name)
    return names


def expand(template: str, values: dict[str, str]) -> str:
    """``template`` with ``values`` put in; a variable without a value is left out (RFC 6570 2.3)."""
    parsed = _parsed(template)
    if parsed is not None:
        return parsed.expand(values)
    return _lenient_expand(template, values)


def _name(spec: str) -> str:
    return spec.strip().split(":", 1)[0].rstrip("*")


def _prefix_length(spec: str) -> int | None:
    """N of a prefix modifier ``var:N`` (RFC 6570 2.4.1), else None."""
    _, _, length = spec.strip().partition(":")
    return int(length) if length.isdigit() else None


def _lenient_expand(template: str, values: dict[str, str]) -> str:
    """RFC 6570 expansion of string values, for the templates the SDK's parser refuses."""
    def one(match: re.Match[str]) -> str:
        first, separator, named, reserved = _OPERATORS[match.group(1)]
        safe = _RESERVED if reserved else ""
        parts = []
        for spec in match.group(2).split(","):
            name = _name(spec)
            value = values.get(name)
            if value is None:
                continue
            length = _prefix_length(spec)
            encoded = quote(value[:length] if length is not None else value, safe=safe)
            if named:
                parts.append(f"{name}={encoded}" if value or match.group(1) != ";" else name)
            else:
                parts.append(encoded)
        return first + separator.join(parts) if parts else ""

    return _EXPRESSION.sub(one, template)
