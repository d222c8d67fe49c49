"""A note another agent gives ``mcp serve`` twice waits for review once.

An agent that retries (a new session after a crash or a timeout, so "do not
propose it again in this conversation" no longer binds it) held the same note
twice: the Memory pane showed two identical ``+review`` rows to accept or
reject one by one.
"""

from __future__ import annotations

import pytest

from tests.mcp.test_mcp_serve import params, text_of


@pytest.mark.slow
async def test_the_same_note_from_two_sessions_is_held_once(paths, isolated_home):
    from mcp_types import Implementation

    from agenttui.bootstrap import build_services
    from mcp import Client

    said = []
    for text in ("The user deploys with make release", "the user deploys with  make release."):
        async with Client(params(isolated_home), client_info=Implementation(name="other-agent", version="1")) as client:
            added = await client.call_tool("memory_add", {"text": text})
            assert not added.is_error, text_of(added)
            said.append(text_of(added))
    services = build_services(paths)
    try:
        held = services.memory.reviews()
        assert [i.text for i in held] == ["The user deploys with make release"], held
        assert "already waiting for the user's review" in said[1]
        # a different note from the same agent is still held beside it
        other = services.memory.hold_for_review("The user deploys on Fridays only", "profile", "mcp")
        assert other.pending and len(services.memory.reviews()) == 2
    finally:
        services.close()
