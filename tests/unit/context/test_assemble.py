"""assemble(): the request the loop sends, built from the real stores."""

from __future__ import annotations

from agenttui.core.context.assemble import IMAGE_PLACEHOLDER, INTERRUPTED_MARK, assemble, delimit_tool_output
from agenttui.core.models import Message, ToolCall
from agenttui.core.recall.retrieval import RecallRequest, recall


def add(services, cid, role, content, **extra) -> Message:
    return services.history.append(cid, Message(role=role, content=content, **extra))


def chat(services, cid, n: int) -> None:
    for k in range(n):
        add(services, cid, "user", f"question number {k}")
        add(services, cid, "assistant", f"answer number {k}")


def test_system_prompt_window_and_current_message(services):
    services.memory.add_note("prefers answers in Indonesian")
    services.memory.set_fact("editor", "helix")
    services.project.write_context("Migrating the billing service to Postgres.")
    services.project.append_decision("Use pgbouncer", "Connection limits.")
    cid = services.history.create_conversation().id
    chat(services, cid, 25)
    current = add(services, cid, "user", "what next?")

    built = assemble(services, cid, current)

    system = built.messages[0]
    assert system["role"] == "system"
    assert "prefers answers in Indonesian" in system["content"]
    assert "editor = helix" in system["content"]
    assert "Migrating the billing service to Postgres." in system["content"]
    assert "Use pgbouncer" in system["content"]
    assert built.system_prompt == system["content"]
    assert len(built.injected_ids) == 2
    # 30 messages of window (count default) + the current one
    assert len(built.messages) == 1 + 30 + 1
    assert built.messages[-1] == {"role": "user", "content": "what next?"}
    assert built.messages[1]["content"] == "question number 10"
    assert built.tokens > 0


def test_injected_items_get_their_use_recorded(services):
    result = services.memory.add_note("likes tea")
    cid = services.history.create_conversation().id
    current = add(services, cid, "user", "hello")
    assemble(services, cid, current)
    item = services.memory.get(result.item.id)
    assert item.use_count == 1 and item.last_used is not None
    assemble(services, cid, current, mark_used=False)
    assert services.memory.get(result.item.id).use_count == 1


def test_token_budget_window(services):
    services.settings.history.window_tokens = 60
    cid = services.history.create_conversation().id
    chat(services, cid, 30)
    current = add(services, cid, "user", "and now?")
    built = assemble(services, cid, current)
    turns = built.messages[1:]
    assert 2 <= len(turns) < 20
    assert turns[-1]["content"] == "and now?"


def test_current_turn_tool_steps_follow_the_user_message_and_old_ones_collapse(services):
    cid = services.history.create_conversation().id
    add(services, cid, "user", "old question", turn_id="t1")
    add(services, cid, "assistant", None, turn_id="t1",
        tool_calls=[ToolCall("c1", "recall", "{}")])
    add(services, cid, "tool", "old result", tool_call_id="c1", name="recall", turn_id="t1")
    add(services, cid, "assistant", "old answer", turn_id="t1")
    current = add(services, cid, "user", "new question", turn_id="t2")
    add(services, cid, "assistant", None, turn_id="t2",
        tool_calls=[ToolCall("c2", "recall", "{}")])
    add(services, cid, "tool", "new result", tool_call_id="c2", name="recall", turn_id="t2")

    built = assemble(services, cid, current)
    roles = [(m["role"], m.get("content")) for m in built.messages[1:]]
    assert roles == [
        ("user", "old question"), ("assistant", "old answer"),
        ("user", "new question"), ("assistant", None), ("tool", delimit_tool_output("recall", "new result")),
    ]
    assert built.messages[-2]["tool_calls"][0]["id"] == "c2"


def test_unsaved_current_message_is_still_sent(services):
    cid = services.history.create_conversation().id
    chat(services, cid, 2)
    built = assemble(services, cid, Message(role="user", content="not stored"))
    assert built.messages[-1]["content"] == "not stored"
    assert [m["content"] for m in built.messages[1:-1]] == [
        "question number 0", "answer number 0", "question number 1", "answer number 1"]


def test_only_the_current_message_carries_its_image(services):
    cid = services.history.create_conversation().id
    add(services, cid, "user", "old picture", image_b64="AAAA", image_mime="image/png")
    add(services, cid, "assistant", "nice")
    current = Message(role="user", content="new picture", image_b64="BBBB", image_mime="image/png")
    current = services.history.append(cid, current)
    built = assemble(services, cid, current)
    assert built.messages[1]["content"] == f"old picture\n{IMAGE_PLACEHOLDER}"
    parts = built.messages[-1]["content"]
    assert parts[1]["image_url"]["url"] == "data:image/png;base64,BBBB"


def test_partial_replies_are_marked_interrupted(services):
    cid = services.history.create_conversation().id
    add(services, cid, "user", "tell me a story")
    add(services, cid, "assistant", "Once upon a", incomplete=True)
    current = add(services, cid, "user", "go on")
    built = assemble(services, cid, current)
    assert built.messages[2]["content"] == f"Once upon a\n{INTERRUPTED_MARK}"


def test_recalled_older_messages_are_quoted_once_and_never_the_current(services):
    services.settings.history.window_messages = 4
    cid = services.history.create_conversation().id
    add(services, cid, "user", "my cat is called Miso")
    add(services, cid, "assistant", "Miso is a lovely name for a cat")
    chat(services, cid, 10)
    add(services, cid, "user", "remember Miso the cat?")  # in the window
    add(services, cid, "assistant", "yes")
    current = add(services, cid, "user", "what is my cat called, Miso?")

    built = assemble(services, cid, current)
    recalled = built.messages[1]
    assert recalled["role"] == "system" and "<recalled>" in recalled["content"]
    assert "user: my cat is called Miso" in recalled["content"]
    assert "assistant: Miso is a lovely name" in recalled["content"]
    assert "remember Miso the cat?" not in recalled["content"]  # already in the window
    assert "what is my cat called" not in recalled["content"]  # the current message
    # left-over budget brings the older turns after them too, never the window's
    assert [t.text for s in built.recalled for t in s.turns][:2] == [
        "my cat is called Miso", "Miso is a lovely name for a cat"]


def test_recall_skips_excluded_ids_later_messages_and_tool_traffic(services):
    cid = services.history.create_conversation().id
    first = add(services, cid, "user", "the deploy key rotation happens monthly")
    add(services, cid, "assistant", None, tool_calls=[ToolCall("c1", "recall", '{"q":"rotation"}')])
    add(services, cid, "tool", "rotation notes", tool_call_id="c1", name="recall")
    second = add(services, cid, "assistant", "rotation is monthly, yes")

    def found(**options):
        result = recall(RecallRequest(query="rotation", neighbours=False, **options),
                        history=services.history)
        return sorted(s.message_id for s in result.snippets)

    assert found() == [first.id, second.id]  # the tool call and its result are never recalled
    assert found(exclude_message_ids=frozenset({second.id})) == [first.id]
    assert found(before_id=first.id) == []
