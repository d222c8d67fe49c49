"""core/incognito.py: the in-memory conversation, read-only history and memory, saving on leave."""

from __future__ import annotations

import hashlib

import pytest

from agenttui.bootstrap import build_services
from agenttui.core.incognito import (
    IncognitoRefused,
    incognito_services,
    is_incognito,
    save_conversation,
)
from agenttui.core.models import Message


def _files(home):
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(home.rglob("*")) if p.is_file()}


@pytest.fixture
def real(paths, tmp_path):
    services = build_services(paths=paths, cwd=tmp_path)
    kept = services.history.create_conversation("Kraken")
    services.history.append(kept.id, Message(role="user", content="deploy kraken how?"))
    services.history.append(kept.id, Message(role="assistant", content="make ship-kraken"))
    services.memory.add_note("I prefer short answers")
    services.close()
    yield services, kept
    services.close()


def test_the_twin_reads_everything_and_writes_nothing(real, isolated_home):
    services, kept = real
    before = _files(isolated_home)
    twin = incognito_services(services)
    assert is_incognito(twin) and not is_incognito(services)
    chat = twin.history.create_conversation()
    key = "sk-proj-" + "Ab3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9"
    stored = twin.history.append(chat.id, Message(role="user", content=f"my key is {key}"))
    assert "sk-proj-" not in (stored.content or "")  # redacted as the real store would
    assert stored.id > max(m.id for m in twin.history.messages(kept.id))  # ids after the real ones
    assert [m.content for m in twin.history.messages(kept.id)] == ["deploy kraken how?", "make ship-kraken"]
    assert twin.history.get_conversation(chat.id) is not None
    assert [c.id for c in twin.history.list_conversations()] == [kept.id]  # not listed: unsaved
    with pytest.raises(IncognitoRefused):
        twin.history.append(kept.id, Message(role="user", content="x"))
    with pytest.raises(IncognitoRefused):
        twin.history.rename(kept.id, "y")
    first = twin.history.messages(chat.id)[0]
    forked = twin.history.fork(chat.id, first.id)  # a fork of an unsaved chat is unsaved too
    assert twin.history.owns(forked.id) and twin.history.messages(forked.id)
    with pytest.raises(IncognitoRefused):
        twin.history.fork(kept.id, twin.history.messages(kept.id)[0].id)
    note = twin.memory.items("all")[0]
    twin.memory.mark_used([note.id])  # silently not counted
    with pytest.raises(IncognitoRefused):
        twin.memory.add_note("remember this")
    with pytest.raises(IncognitoRefused):
        twin.memory.accept_proposal(note)  # an offer's "Remember" is a write too
    with pytest.raises(IncognitoRefused):
        twin.project.archive_session("a transcript")
    with pytest.raises(IncognitoRefused):
        twin.project.rewrite("context", "the editor's save")
    assert twin.project.prompt_section() == services.project.prompt_section()
    tools = twin.settings.agent.tools
    assert not {"remember", "forget", "update_context", "append_decision"} & set(tools)
    assert "search_history" in tools and twin.settings.memory.corrections == "off"
    assert "remember" in services.settings.agent.tools  # the real services are unchanged
    twin.history.discard()
    assert _files(isolated_home) == before


def test_save_copies_the_conversation_into_the_real_store(real):
    services, kept = real
    twin = incognito_services(services)
    chat = twin.history.create_conversation()
    twin.history.append(chat.id, Message(role="user", content="plan a trip to Bandung"))
    twin.history.append(chat.id, Message(role="assistant", content="Take the train."))
    saved = save_conversation(twin, chat.id, services.history)
    assert saved is not None and saved.id == chat.id and saved.title == "plan a trip to Bandung"
    assert [(m.role, m.content) for m in services.history.messages(chat.id)] == [
        ("user", "plan a trip to Bandung"), ("assistant", "Take the train.")]
    empty = twin.history.create_conversation()
    assert save_conversation(twin, empty.id, services.history) is None
    with pytest.raises(ValueError):
        save_conversation(twin, kept.id, services.history)
