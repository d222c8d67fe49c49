"""RFC 6570 expansion for MCP resource templates. The cases are the RFC's own
examples (RFC 6570 section 1.2, levels 1-3; https://www.rfc-editor.org/rfc/rfc6570#section-1.2)."""

from __future__ import annotations

import pytest

from agenttui.mcp.uri_template import expand, variables

RFC = {"var": "value", "hello": "Hello World!", "path": "/foo/bar", "empty": "", "x": "1024", "y": "768"}


@pytest.mark.parametrize(("template", "expected"), [
    ("{var}", "value"),
    ("{hello}", "Hello%20World%21"),
    ("{+var}", "value"),
    ("{+hello}", "Hello%20World!"),
    ("{+path}/here", "/foo/bar/here"),
    ("here?ref={+path}", "here?ref=/foo/bar"),
    ("X{#var}", "X#value"),
    ("X{#hello}", "X#Hello%20World!"),
    ("map?{x,y}", "map?1024,768"),
    ("{x,hello,y}", "1024,Hello%20World%21,768"),
    ("{+x,hello,y}", "1024,Hello%20World!,768"),
    ("{+path,x}/here", "/foo/bar,1024/here"),
    ("{#x,hello,y}", "#1024,Hello%20World!,768"),
    ("{#path,x}/here", "#/foo/bar,1024/here"),
    ("X{.var}", "X.value"),
    ("X{.x,y}", "X.1024.768"),
    ("{/var}", "/value"),
    ("{/var,x}/here", "/value/1024/here"),
    ("{;x,y}", ";x=1024;y=768"),
    ("{;x,y,empty}", ";x=1024;y=768;empty"),
    ("{?x,y}", "?x=1024&y=768"),
    ("{?x,y,empty}", "?x=1024&y=768&empty="),
    ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
    ("{&x,y,empty}", "&x=1024&y=768&empty="),
])
def test_rfc_6570_examples(template, expected):
    assert expand(template, RFC) == expected


def test_variables_in_order_once_and_undefined_left_out():
    assert variables("notes://{topic}/{day}{?topic,page*,lang:2}") == ["topic", "day", "page", "lang"]
    assert variables("status://now") == []
    assert expand("{/a,b}{?c}", {"b": "x"}) == "/x"


@pytest.mark.parametrize(("template", "values", "expected"), [
    ("{var:3}", {"var": "value"}, "val"),  # RFC 6570 3.2.2: prefix modifier
    ("{+path:6}/here", {"path": "/foo/bar"}, "/foo/b/here"),
    ("{?q*}", {"q": "a b"}, "?q=a%20b"),  # explode of a string is the string
    ("{a}{b}", {"a": "1", "b": "2"}, "12"),  # adjacent: fine to expand, ambiguous to match
])
def test_templates_the_sdk_parser_refuses_still_expand(template, values, expected):
    from mcp.shared.uri_template import InvalidUriTemplate, UriTemplate

    with pytest.raises(InvalidUriTemplate):
        UriTemplate.parse(template)
    assert expand(template, values) == expected


def test_the_sdk_template_is_used_where_it_parses():
    """Explode of a path segment: the SDK's expansion (the lenient one would agree on a string);
    the SDK's own variable list, in order."""
    from mcp.shared.uri_template import UriTemplate

    template = "files://{root}/tree{/path*}{?rev}"
    assert variables(template) == UriTemplate.parse(template).variable_names == ["root", "path", "rev"]
    assert expand(template, {"root": "r", "path": "a b", "rev": "2"}) == "files://r/tree/a%20b?rev=2"
