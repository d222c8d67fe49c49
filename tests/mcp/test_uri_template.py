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
