"""The parsers behind ``agenttui history import`` / ``memory import``: the corners the CLI tests skip."""

from __future__ import annotations

import pytest

from agenttui.core.history.importer import (
    ImportFormatError,
    chatgpt_path,
    detect_format,
    parse_agenttui_document,
    parse_chatgpt_conversation,
)
from agenttui.core.memory.importer import parse_json_notes, parse_text_notes


def _node(node_id, parent, children, role="user", text="", create_time=None):
    message = None if role is None else {
        "id": node_id, "author": {"role": role}, "create_time": create_time,
        "content": {"content_type": "text", "parts": [text]}, "recipient": "all", "metadata": {}}
    return {"id": node_id, "message": message, "parent": parent, "children": children}


def _tree():
    return {
        "root": _node("root", None, ["q"], role=None),
        "q": _node("q", "root", ["old", "new"], text="question", create_time=10.0),
        "old": _node("old", "q", [], role="assistant", text="first answer", create_time=11.0),
        "new": _node("new", "q", [], role="assistant", text="regenerated answer", create_time=12.0),
    }


def test_path_to_current_node_and_latest_branch_without_one():
    mapping = _tree()
    assert [n["id"] for n in chatgpt_path(mapping, "old")] == ["root", "q", "old"]
    assert [n["id"] for n in chatgpt_path(mapping, None)] == ["root", "q", "new"]
    assert [n["id"] for n in chatgpt_path(mapping, "gone")] == ["root", "q", "new"]


def test_a_parent_cycle_ends_the_walk():
    mapping = {"a": _node("a", "b", ["b"], text="one"), "b": _node("b", "a", ["a"], text="two")}
    assert [n["id"] for n in chatgpt_path(mapping, "a")] == ["b", "a"]
    with pytest.raises(ImportFormatError, match="no root"):
        chatgpt_path(mapping, None)


def test_chatgpt_ids_are_stable_and_differ_by_source():
    conv = {"id": "abc", "title": "t", "create_time": 5.0, "mapping": _tree(), "current_node": "new"}
    first = parse_chatgpt_conversation(conv)
    assert parse_chatgpt_conversation(dict(conv)).conversation.id == first.conversation.id
    assert parse_chatgpt_conversation({**conv, "id": "abd"}).conversation.id != first.conversation.id
    # the whole tree: both answers under the question, the current one active
    assert [m.content for m in first.messages] == ["question", "first answer", "regenerated answer"]
    assert (first.parents, first.active) == ([None, 0, 0], 2)
    without_id = {k: v for k, v in conv.items() if k != "id"}
    assert parse_chatgpt_conversation(without_id).conversation.id == \
        parse_chatgpt_conversation(dict(without_id)).conversation.id


def test_agenttui_foreign_id_is_hashed_ours_is_kept():
    doc = {"format": "agenttui.conversation", "version": 1, "messages": [],
           "conversation": {"id": "a" * 32, "title": "x", "created": "2025-01-01T00:00:00+00:00"}}
    assert parse_agenttui_document(doc).conversation.id == "a" * 32
    doc["conversation"]["id"] = "not-ours"
    hashed = parse_agenttui_document(doc).conversation.id
    assert hashed != "not-ours" and len(hashed) == 32 and hashed == parse_agenttui_document(doc).conversation.id


def test_detection():
    assert detect_format([{"mapping": {}}]) == "chatgpt"
    assert detect_format({"format": "agenttui.conversation"}) == "agenttui"
    assert detect_format([1, {"format": "agenttui.conversation"}]) == "agenttui"
    with pytest.raises(ImportFormatError):
        detect_format({"messages": []})


def test_text_notes_skip_headings_rules_fences_and_join_wrapped_bullets():
    notes = parse_text_notes("# H\n- [x] done thing\n  wrapped\n```\n+ plus\n#tag note\n\n2) two\n")
    assert [(n.label, n.text) for n in notes] == [
        ("line 2", "done thing wrapped"), ("line 5", "plus"), ("line 6", "#tag note"), ("line 8", "two")]


def test_json_notes_shapes():
    notes = parse_json_notes({"schema": 1, "items": [
        "plain", {"key": "editor", "value": "vim", "scope": "profile"}, 7, {"kind": "note", "text": " "},
        {"kind": "note", "text": "old", "expires": "2001-01-01T00:00:00+00:00"}]})
    assert [(n.kind, n.display, n.scope, n.problem) for n in notes] == [
        ("note", "plain", None, None), ("fact", "editor = vim", "profile", None),
        ("note", "7", None, "not a note (a JSON int)"), ("note", "", None, "the note is empty"),
        ("note", "old", None, "expired on 2001-01-01")]
