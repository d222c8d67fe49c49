"""The message window: whole tool groups, count/token limits, collapsing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agenttui.core.context.window import group_messages, select_window
from agenttui.core.models import Message, ToolCall
from agenttui.core.tokens import message_tokens

_ids = iter(range(1, 10**9))


def user(text: str, turn: str | None = None) -> Message:
    return Message(role="user", content=text, id=next(_ids), turn_id=turn)


def reply(text: str, turn: str | None = None) -> Message:
    return Message(role="assistant", content=text, id=next(_ids), turn_id=turn)


def tool_group(turn: str | None, n: int = 1, text: str | None = None) -> list[Message]:
    calls = [ToolCall(id=f"call-{next(_ids)}", name="recall", arguments="{}") for _ in range(n)]
    head = Message(role="assistant", content=text, tool_calls=calls, id=next(_ids), turn_id=turn)
    results = [Message(role="tool", content=f"result {c.id}", tool_call_id=c.id, name="recall",
                       id=next(_ids), turn_id=turn) for c in calls]
    return [head, *results]


def turn(k: int, tools: int = 0, results: int = 1) -> list[Message]:
    tid = f"t{k}"
    out = [user(f"question {k}", tid)]
    for _ in range(tools):
        out += tool_group(tid, results)
    out.append(reply(f"answer {k}", tid))
    return out


def assert_valid(window: list[Message]) -> None:
    """What the API demands: no orphan results, no call without all its results."""
    i = 0
    while i < len(window):
        message = window[i]
        assert message.role != "tool", f"orphaned tool result at {i}"
        if message.tool_calls:
            wanted = [c.id for c in message.tool_calls]
            got = [m.tool_call_id for m in window[i + 1 : i + 1 + len(wanted)]]
            assert sorted(got) == sorted(wanted), "tool_calls without all their results"
            assert all(m.role == "tool" for m in window[i + 1 : i + 1 + len(wanted)])
            i += 1 + len(wanted)
        else:
            i += 1


# ----------------------------------------------------------------- by count
def test_count_window_takes_the_latest_messages():
    history = [m for k in range(40) for m in turn(k)]
    window = select_window(history, count=30)
    assert window == history[-30:]


def test_count_zero_and_budget_zero_mean_no_limit():
    history = [m for k in range(40) for m in turn(k)]
    assert select_window(history, count=0, token_budget=0) == history


def test_a_group_at_the_boundary_is_left_out_whole():
    history = [user("q"), *tool_group(None, n=3), reply("a")]
    # 6 messages; count 3 would split the 4-message tool group -> it is left out
    window = select_window(history, count=3, collapse_tool_steps=False)
    assert window == [history[-1]]
    assert_valid(window)


def test_window_never_starts_with_an_orphaned_tool_result():
    group = tool_group(None, n=2)
    history = [group[1], group[2], reply("after")]  # the call itself was cut off
    window = select_window(history, count=30, collapse_tool_steps=False)
    assert [m.role for m in window] == ["assistant"]


def test_a_call_missing_a_result_loses_its_calls_but_keeps_its_text():
    head, first, _second = tool_group(None, n=2, text="let me check")
    window = select_window([user("q"), head, first, reply("done")], collapse_tool_steps=False)
    assert_valid(window)
    assert [m.content for m in window] == ["q", "let me check", "done"]
    assert not window[1].tool_calls


# ----------------------------------------------------------------- by tokens
def test_token_budget_keeps_the_newest_messages_that_fit():
    history = [m for k in range(50) for m in turn(k)]
    per = message_tokens(history[-1])
    budget = per * 10
    window = select_window(history, count=0, token_budget=budget)
    assert sum(message_tokens(m) for m in window) <= budget
    assert window == history[-len(window):]
    assert len(window) >= 6  # not absurdly small


def test_token_budget_uses_stored_estimates():
    history = [Message(role="user", content="x", id=k, tokens=100) for k in range(10)]
    assert len(select_window(history, count=0, token_budget=350)) == 3


# ----------------------------------------------------------------- collapsing
def test_older_turns_tool_steps_are_collapsed_final_text_kept():
    history = turn(1, tools=2) + turn(2, tools=1)
    window = select_window(history, count=30, collapse_tool_steps=True, current_turn_id="t3")
    assert [m.content for m in window] == ["question 1", "answer 1", "question 2", "answer 2"]


def test_current_turn_tool_steps_are_kept():
    history = turn(1, tools=2) + [user("question 2", "t2"), *tool_group("t2", n=2)]
    window = select_window(history, count=30, collapse_tool_steps=True, current_turn_id="t2")
    assert [m.role for m in window] == ["user", "assistant", "user", "assistant", "tool", "tool"]
    assert_valid(window)


def test_without_turn_ids_steps_after_the_last_user_message_are_current():
    history = [user("q1"), *tool_group(None), reply("a1"), user("q2"), *tool_group(None)]
    window = select_window(history, count=30, collapse_tool_steps=True)
    assert [m.role for m in window] == ["user", "assistant", "user", "assistant", "tool"]


def test_collapse_off_keeps_every_step():
    history = turn(1, tools=2)
    assert select_window(history, count=30, collapse_tool_steps=False) == history


def test_the_current_turn_is_kept_whole_even_over_the_count():
    history = turn(1) + [user("question 2", "t2"), *tool_group("t2", n=5), *tool_group("t2", n=5)]
    window = select_window(history, count=4, current_turn_id="t2")
    assert window[0].content == "question 2"
    assert len(window) == 13
    assert_valid(window)


# ----------------------------------------------------------------- property
@st.composite
def histories(draw):
    messages: list[Message] = []
    for k in range(draw(st.integers(0, 12))):
        tid = f"t{k}" if draw(st.booleans()) else None
        messages.append(user(f"q{k} " * draw(st.integers(1, 30)), tid))
        for _ in range(draw(st.integers(0, 3))):
            group = tool_group(tid, n=draw(st.integers(1, 4)),
                               text=draw(st.sampled_from([None, "", "checking"])))
            if draw(st.integers(0, 9)) == 0:  # a crash lost one result
                group.pop(draw(st.integers(1, len(group) - 1)))
            messages.extend(group)
        if draw(st.booleans()):
            messages.append(reply(f"a{k} " * draw(st.integers(1, 30)), tid))
    cut = draw(st.integers(0, len(messages)))  # a page boundary anywhere
    return messages[cut:]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    history=histories(),
    count=st.integers(0, 40),
    budget=st.sampled_from([0, 20, 60, 200, 1000]),
    collapse=st.booleans(),
    current=st.sampled_from([None, "t0", "t5", "t11"]),
)
def test_window_never_splits_a_tool_group(history, count, budget, collapse, current):
    window = select_window(history, count=count, token_budget=budget,
                           collapse_tool_steps=collapse, current_turn_id=current)
    assert_valid(window)
    if not collapse:  # a contiguous tail of the (repaired) history
        repaired = [m.id for g in group_messages(history) for m in g]
        ids = [m.id for m in window]
        assert ids == repaired[len(repaired) - len(ids):]
    # limits hold, except for the one mandatory newest group when it alone is over
    if current is None and len(group_messages(window)) > 1:
        if count:
            assert len(window) <= count
        if budget:
            assert sum(message_tokens(m) for m in window) <= budget
