"""The app keeps recall's postings (bm25_postings.py) from its start-up preparation on, for every
profile it switches to; a one-shot command never builds them, and ranks the same."""

from __future__ import annotations

import threading

from agenttui.agent.prepare import prepare_prompt
from agenttui.core.context.assemble import assemble
from agenttui.core.models import Message


def built_aside() -> None:
    """Wait for the background builds (the condition, not a time)."""
    for thread in threading.enumerate():
        if thread.name == "bm25-postings":
            thread.join()


def fill(services, texts: list[str]) -> None:
    cid = services.history.create_conversation("facts").id
    services.history.append_many(cid, [Message("user" if k % 2 == 0 else "assistant", text)
                                       for k, text in enumerate(texts)])


def test_start_up_preparation_keeps_the_postings_and_so_does_a_profile_switched_to(services):
    fill(services, ["my sister Kopi lives in Bandung", "the mango tree in the garden", "ok"] * 5)
    assert not services.history.ranking_index_ready  # nothing builds them before the app asks
    prepare_prompt(services)
    built_aside()
    assert services.history.ranking_index_ready
    services.profiles.create("work")
    services.switch_profile("work")
    fill(services, ["the work laptop is a ThinkPad", "deploys happen on Fridays"] * 3)
    services.switch_profile("default")
    services.switch_profile("work")
    work = services.history  # a store of its own, built aside as soon as it opens
    built_aside()
    assert work.ranking_index_ready


def test_the_prompt_is_the_same_with_and_without_the_postings(services):
    fill(services, [f"note {k}: the garden has {k} mango trees and my sister visits on day {k}"
                    for k in range(40)] + ["where is the garden?", "Kopi is my sister's cat"] * 3)
    question = "how many mango trees did my sister count in the garden?"
    cid = services.history.create_conversation("ask").id
    without = assemble(services, cid, question, mark_used=False)
    services.history.keep_ranking_index()
    assert services.history.ranking_index_ready
    with_postings = assemble(services, cid, question, mark_used=False)
    assert with_postings.messages == without.messages and with_postings.recalled
