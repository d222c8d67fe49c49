"""A plain streamed reply: persisted (redacted), prompt built from memory + project."""

from __future__ import annotations

import base64

from agenttui.agent.events import TextDelta, TurnFinished, TurnStarted
from agenttui.agent.loop import run_turn
from agenttui.agent.prompt_capture import last_prompt
from agenttui.core.models import Message

from .conftest import collect, final, of_type

GITHUB_TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


async def test_streamed_reply_is_persisted_and_redacted(services, conversation, fake_openai):
    fake_openai.reply("Hello there, nice to meet you.")
    events = await collect(run_turn(services, conversation.id, f"my token is {GITHUB_TOKEN} hi"))

    assert isinstance(events[0], TurnStarted)
    assert "".join(e.text for e in of_type(events, TextDelta)) == "Hello there, nice to meet you."
    done = final(events)
    assert isinstance(done, TurnFinished) and done.stop_reason == "success"
    assert done.reply.content == "Hello there, nice to meet you."
    assert done.trace.llm_calls == 1 and done.trace.completion_tokens > 0

    stored = services.history.messages(conversation.id)
    assert [m.role for m in stored] == ["user", "assistant"]
    assert GITHUB_TOKEN not in stored[0].content and "[REDACTED" in stored[0].content
    assert stored[1].content == "Hello there, nice to meet you." and not stored[1].incomplete
    assert {m.turn_id for m in stored} == {done.trace.turn_id}
    body = fake_openai.chat_requests[-1]
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}


async def test_memory_and_project_context_reach_the_system_prompt(services, conversation, fake_openai):
    note = services.memory.add_note("User prefers green tea over coffee")
    fact = services.memory.set_fact("language", "id")
    assert note.ok and fact.ok
    services.project.write_context("Active focus: shipping the agent loop.")
    services.project.append_decision("Use SQLite", "WAL mode, FTS5 for search.")

    events = await collect(run_turn(services, conversation.id, "What tea do I like?"))
    done = final(events)

    system = fake_openai.last_system_prompt()
    assert "User prefers green tea over coffee" in system
    assert "language" in system and "id" in system
    assert "shipping the agent loop" in system and "Use SQLite" in system
    assert set(done.trace.memory_injected) >= {note.item.id, fact.item.id}
    used = {item.id: item for item in services.memory.items()}
    assert used[note.item.id].use_count == 1 and used[note.item.id].last_used is not None
    # the prompt inspector sees exactly what the server received
    captured = last_prompt(services)
    assert captured is not None and captured.messages == fake_openai.last_messages()
    assert captured.system_prompt == system


async def test_window_is_bounded_and_ends_with_the_new_message(services, conversation, fake_openai):
    services.settings.history.window_messages = 6
    for i in range(40):
        services.history.append(conversation.id, Message(role="user" if i % 2 == 0 else "assistant",
                                                          content=f"old message {i}"))
    await collect(run_turn(services, conversation.id, "the newest question"))
    sent = fake_openai.last_messages()
    assert sent[0]["role"] == "system"
    turns = [m for m in sent if m["role"] != "system"]
    assert len(turns) == 7  # 6 of the window + the new message
    assert turns[-1] == {"role": "user", "content": "the newest question"}
    assert "old message 0" not in str(sent)


async def test_an_image_is_stored_and_sent_as_an_image_part(services, conversation, fake_openai, tmp_path):
    png = tmp_path / "dot.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 32)
    await collect(run_turn(services, conversation.id, "what is this?", image_path=png))
    content = fake_openai.last_messages()[-1]["content"]
    assert content[0] == {"type": "text", "text": "what is this?"}
    url = content[1]["image_url"]["url"]
    assert url == "data:image/png;base64," + base64.b64encode(png.read_bytes()).decode()
    stored = services.history.messages(conversation.id)[0]
    assert stored.image_mime == "image/png" and stored.image_b64


async def test_unsupported_image_fails_clearly_without_persisting(services, conversation, tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("hi")
    events = await collect(run_turn(services, conversation.id, "look", image_path=bad))
    assert "unsupported image type" in final(events).error
    assert services.history.messages(conversation.id) == []


async def test_no_api_key_fails_clearly_and_keeps_the_message(services, conversation, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY")
    events = await collect(run_turn(services, conversation.id, "hello?"))
    failed = final(events)
    # no keyring in the test home: the one way that works here
    assert "OPENAI_API_KEY" in failed.error and "no keyring" in failed.error
    assert [m.content for m in services.history.messages(conversation.id)] == ["hello?"]


async def test_retry_of_answers_the_stored_message_again(services, conversation, fake_openai):
    fake_openai.drop(after="Half a")
    fake_openai.reply("A whole reply.")
    first = await collect(run_turn(services, conversation.id, "question one"))
    assert final(first).stop_reason == "llm_error"
    user_id = services.history.messages(conversation.id)[0].id
    again = await collect(run_turn(services, conversation.id, "", retry_of=user_id))
    assert final(again).reply.content == "A whole reply."
    sent = [m for m in fake_openai.last_messages() if m["role"] != "system"]
    assert sent == [{"role": "user", "content": "question one"}]  # the partial is not replayed
    branch = services.history.messages(conversation.id)
    assert [(m.role, m.incomplete) for m in branch] == [("user", False), ("assistant", False)]
    # the cut reply is kept as a sibling of the new one, not lost
    siblings = services.history.sibling_ids(conversation.id, branch[1].id)
    assert len(siblings) == 2 and services.history.get_message(siblings[0]).incomplete
