"""``HistoryStore.first_neighbours`` answers what one step decides, exactly as ``neighbour`` would,
and leaves out what needs the walk (tool traffic between, another conversation)."""

from __future__ import annotations

from agenttui.core.models import Message, ToolCall


def test_the_batch_agrees_with_the_walk_and_leaves_the_rest_to_it(store):
    cid = store.create_conversation().id
    other = store.create_conversation().id
    q = store.append(cid, Message("user", "favourite colour?"))
    blue = store.append(cid, Message("assistant", "Blue."))
    tool_ask = store.append(cid, Message("assistant", None, tool_calls=[ToolCall("c1", "lookup", "{}")],
                                         parent_id=q.id))
    store.append(cid, Message("tool", "green", tool_call_id="c1"))
    green = store.append(cid, Message("assistant", "Green, it says."))
    later_q = store.append(cid, Message("user", "why green?"))
    elsewhere = store.append(other, Message("user", "hello there"))
    asks = [(m.id, cid, after) for m in (q, blue, green, later_q) for after in (False, True)]
    asks.append((elsewhere.id, cid, False))  # not in that conversation
    found = store.first_neighbours(asks)
    # the newest child of the question is the tool call: one step does not decide it
    assert (q.id, True) not in found
    assert (elsewhere.id, False) not in found
    assert found[(q.id, False)] is None  # the conversation's first message
    assert found[(later_q.id, True)] is None  # nothing after it
    assert found[(later_q.id, False)].id == green.id
    assert (green.id, False) not in found  # its parent is the tool result: walked
    assert tool_ask.parent_id == q.id
    for (mid, after), message in found.items():
        walked = store.neighbour(mid, cid, after=after)
        assert (message.id if message else None) == (walked.id if walked else None), (mid, after)
    assert store.neighbour(q.id, cid, after=True).id == green.id  # the walk, past the tool
