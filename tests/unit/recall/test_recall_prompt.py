"""Recall in the prompt: every conversation, any word, dates, neighbours, budgets, determinism."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from agenttui.core.context.assemble import assemble
from agenttui.core.context.model_limits import prompt_budget
from agenttui.core.memory import file as memory_file
from agenttui.core.memory.file import ScopeData
from agenttui.core.models import MemoryItem, Message, ToolCall
from agenttui.core.recall.retrieval import RecallRequest, recall

NOW = datetime(2026, 11, 23, 12, tzinfo=UTC)


def conversation(services, turns, *, start, archived=False, title=None):
    history = services.history
    cid = history.create_conversation(title).id
    history.append_many(cid, [Message(role=role, content=text, created=start + timedelta(minutes=k))
                              for k, (role, text) in enumerate(turns)])
    if archived:
        history.archive(cid)
    return cid


def recalled_text(built) -> str:
    blocks = [m["content"] for m in built.messages[1:] if m["role"] == "system"]
    return "\n".join(blocks)


def test_a_new_conversation_recalls_from_every_other_one_archived_included(services):
    conversation(services, [("user", "I signed the lease for a flat on Jalan Riau"),
                            ("assistant", "Congratulations on the new flat!")],
                 start=NOW - timedelta(days=200), archived=True)
    conversation(services, [("user", "What's a good pasta recipe?"),
                            ("assistant", "Try aglio e olio.")], start=NOW - timedelta(days=3))
    new = services.history.create_conversation().id

    built = assemble(services, new, "When did I sign the lease?", now=NOW, mark_used=False)

    text = recalled_text(built)
    day = (NOW - timedelta(days=200)).astimezone().strftime("%Y-%m-%d")
    assert f"[{day}]\nuser: I signed the lease" in text  # dated, under its conversation's heading
    assert text.count("[conversation “I signed the lease") == 1
    assert "user: I signed the lease for a flat on Jalan Riau" in text  # "sign" found "signed"
    # a statement stands alone in the ranked fill; its reply only comes with budget left over
    snippet = next(s for s in built.recalled if any("Jalan Riau" in t.text for t in s.turns))
    assert [t.matched for t in snippet.turns][:1] == [True]
    assert "pasta" not in text
    assert built.messages[0]["content"].count("Today is Monday, 23 November 2026.") == 1


def test_a_matched_question_brings_its_answer(services):
    conversation(services, [("user", "Which bakery sells the best sourdough near the office?"),
                            ("assistant", "Roti Nusantara on the corner, go before nine.")],
                 start=NOW - timedelta(days=40))
    new = services.history.create_conversation().id
    built = assemble(services, new, "the sourdough bakery, which one was it?", now=NOW, mark_used=False)
    text = recalled_text(built)
    assert text.index("user: Which bakery sells") < text.index("assistant: Roti Nusantara")


def test_a_matched_answer_brings_the_question_before_it(services):
    conversation(services, [("user", "which one should I pick?"),
                            ("assistant", "Take the Brompton folding bike, it fits the train.")],
                 start=NOW - timedelta(days=40))
    new = services.history.create_conversation().id
    built = assemble(services, new, "what bike did you recommend?", now=NOW, mark_used=False)
    text = recalled_text(built)
    assert text.index("user: which one should I pick?") < text.index("assistant: Take the Brompton")


def test_time_words_rank_their_span_first(services):
    for days, food in ((1, "rendang"), (9, "soto ayam"), (30, "nasi goreng")):
        conversation(services, [("user", f"I cooked {food} for dinner"), ("assistant", "Sounds tasty")],
                     start=NOW - timedelta(days=days))
    new = services.history.create_conversation().id
    built = assemble(services, new, "What did I cook yesterday?", now=NOW, mark_used=False)
    assert built.recalled[0].text == "I cooked rendang for dinner"


def test_the_week_before_an_event_is_found_through_the_event(services):
    moved = NOW - timedelta(days=100)
    conversation(services, [("user", "We finally moved to Bandung today!"), ("assistant", "Welcome!")], start=moved)
    conversation(services, [("user", "Hiked up Tangkuban Perahu this weekend"), ("assistant", "Nice")],
                 start=moved - timedelta(days=4))
    conversation(services, [("user", "Hiked the Rinjani trail"), ("assistant", "Wow")],
                 start=moved - timedelta(days=60))
    found = recall(RecallRequest(query="Where did I hike the week before I moved to Bandung?", now=NOW),
                   history=services.history)
    assert found.span is not None
    assert found.snippets[0].text == "Hiked up Tangkuban Perahu this weekend"


def test_notes_scale_the_relevant_ones_reach_the_prompt_among_2000(services):
    old = NOW - timedelta(days=400)
    items = [MemoryItem(kind="note", scope="user", text=f"grocery list item number {k} is on aisle {k % 17}",
                        created=NOW - timedelta(days=k % 90), updated=NOW - timedelta(days=k % 90))
             for k in range(1999)]
    needle = MemoryItem(kind="note", scope="user", text="My dentist is Dr. Budi at Klinik Sehat",
                        created=old, updated=old)
    memory_file.write(services.paths.user_memory_file, ScopeData(scope="user", items=[*items, needle]))
    new = services.history.create_conversation().id
    built = assemble(services, new, "Who is my dentist again?", now=NOW, mark_used=False)
    assert needle.id in built.injected_ids
    assert "Dr. Budi" in built.messages[0]["content"]
    assert len(built.injected_ids) <= services.settings.memory.inject_notes


@pytest.mark.slow
def test_normal_use_archives_no_note(services):
    for k in range(120):
        assert services.memory.add_note(f"note about topic {k} and thing {k * 7}").status == "added"
    assert len(services.memory.items("user")) == 120
    assert services.memory.archived() == []


def test_archived_notes_are_recalled(services):
    from agenttui.core.config.settings import MemorySettings
    from agenttui.core.memory.store import MemoryStore

    capped = MemoryStore(services.paths, services.profile_name, MemorySettings(max_notes=1))
    capped.add_note("The spare house key is under the blue flowerpot")
    capped.add_note("I like jazz")  # pushes the first one into the archive
    assert [i.text for i in services.memory.archived()] == ["The spare house key is under the blue flowerpot"]
    new = services.history.create_conversation().id
    built = assemble(services, new, "where is the spare key?", now=NOW, mark_used=False)
    assert "note, user scope, archived] The spare house key is under the blue flowerpot" in recalled_text(built)


def test_project_memory_is_recalled_with_its_date(services):
    services.project.append_decision("Use pgbouncer", "Postgres connection limits on the small plan.",
                                     day=(NOW - timedelta(days=90)).date())
    for k in range(12):  # push it out of the "last 10 decisions" of the system prompt
        services.project.append_decision(f"decision {k}", "unrelated", day=NOW.date())
    new = services.history.create_conversation().id
    built = assemble(services, new, "why did we add pgbouncer?", now=NOW, mark_used=False)
    day = (NOW - timedelta(days=90)).date().isoformat()
    assert f"[{day} · project decisions.md#1]" in recalled_text(built)


def test_recall_respects_its_budget_and_the_prompt_budget(services):
    start = NOW - timedelta(days=300)
    for k in range(60):
        conversation(services, [("user", f"question {k} about the kitchen renovation budget " + "detail " * 30),
                                ("assistant", "answer about tiles " * 20)], start=start + timedelta(days=k))
    services.settings.recall.history_tokens = 500
    services.settings.agent.prompt_token_budget = 3_000
    new = services.history.create_conversation().id
    built = assemble(services, new, "how much was the kitchen renovation budget?", now=NOW, mark_used=False)
    assert built.recalled  # something was recalled ...
    assert built.recall_tokens <= 500  # ... within its budget
    assert built.tokens <= prompt_budget(services.settings, services.model)


@pytest.mark.slow
@hsettings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    lengths=st.lists(st.integers(min_value=1, max_value=120), min_size=2, max_size=40),
    tool_every=st.integers(min_value=2, max_value=5),
    budget=st.integers(min_value=2_000, max_value=4_000),
    recall_tokens=st.integers(min_value=0, max_value=1_500),
)
def test_the_budget_is_never_exceeded_and_tool_groups_never_split(services, lengths, tool_every, budget,
                                                                  recall_tokens):
    services.settings.agent.prompt_token_budget = budget
    services.settings.recall.history_tokens = recall_tokens
    services.settings.history.window_messages = 200
    history = services.history
    cid = history.create_conversation().id
    for k, size in enumerate(lengths):
        history.append(cid, Message("user", f"about the garden shed {k} " + "word " * size, turn_id=f"t{k}"))
        if k % tool_every == 0:
            history.append(cid, Message("assistant", None, turn_id=f"t{k}",
                                        tool_calls=[ToolCall(f"c{k}", "recall", "{}"),
                                                    ToolCall(f"d{k}", "recall", "{}")]))
            history.append(cid, Message("tool", "result " * size, tool_call_id=f"c{k}", name="recall",
                                        turn_id=f"t{k}"))
            history.append(cid, Message("tool", "other", tool_call_id=f"d{k}", name="recall", turn_id=f"t{k}"))
        history.append(cid, Message("assistant", "sheds are " + "nice " * size, turn_id=f"t{k}"))
    current = history.append(cid, Message("user", "what about the garden shed?", turn_id="now"))

    built = assemble(services, cid, current, now=NOW, mark_used=False)

    assert built.tokens <= budget
    assert built.recall_tokens <= recall_tokens
    turns = built.messages[1:]
    for index, message in enumerate(turns):
        if message["role"] == "tool":  # its call is right before it, with every sibling result
            caller = next(m for m in reversed(turns[:index]) if m["role"] != "tool")
            assert message["tool_call_id"] in {c["id"] for c in caller.get("tool_calls", [])}
        if message.get("tool_calls"):
            answered = {m["tool_call_id"] for m in turns[index + 1:index + 1 + len(message["tool_calls"])]}
            assert answered == {c["id"] for c in message["tool_calls"]}


_DUMP = """
import json, sys
from datetime import datetime, UTC
from pathlib import Path
from agenttui.bootstrap import build_services
from agenttui.core.context.assemble import assemble
services = build_services(cwd=Path(sys.argv[1]))
built = assemble(services, sys.argv[2], sys.argv[3], now=datetime(2026, 11, 23, 12, tzinfo=UTC), mark_used=False)
sys.stdout.write(json.dumps(built.messages, ensure_ascii=False))
"""


@pytest.mark.slow
def test_the_prompt_is_byte_identical_under_any_hash_seed(services, tmp_path):
    start = NOW - timedelta(days=100)
    for k in range(30):
        conversation(services, [("user", f"the deploy of service {k} failed on staging with a timeout"),
                                ("assistant", f"restart worker {k} and check the load balancer")],
                     start=start + timedelta(days=k))
    for k in range(40):
        services.memory.add_note(f"service {k} belongs to team {k % 5}")
    services.project.append_learning("staging timeouts", "the load balancer drops idle connections")
    new = services.history.create_conversation().id
    question = "why did the deploy fail on staging last month, and which team owns it?"
    outputs = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", _DUMP, str(tmp_path / "work"), new, question],
                              env=env, capture_output=True, check=True, timeout=120)
        outputs.add(done.stdout)
    assert len(outputs) == 1
    messages = json.loads(outputs.pop())
    assert "<recalled>" in messages[1]["content"]  # the recall block is part of what was compared


def test_a_statement_is_found_among_many_questions_holding_every_word(services):
    # A hundred and twenty questions hold both "cat" and "name" and are shorter, so
    # plain bm25 ranks every one of them above the statement that answers; the
    # ranking among the user's own statements (no "?") still finds it.
    colours = ["white", "grey", "black", "red", "beige", "silver", "maroon", "teal", "cream", "brown",
               "orange", "golden"]
    tails = ["Be honest.", "No rush.", "Keep it short please.", "Ideally before Monday.", "Thanks!",
             "It's for my niece.", "Asking for a friend.", "Just curious.", "Quick one.", "Any idea?"]
    toys = ["string", "boxes", "laser", "feathers", "bells", "mice", "balls", "paper", "socks", "yarn"]
    for k, (colour, tail) in enumerate((c, t) for c in colours for t in tails):
        toy = toys[k % len(toys)]
        conversation(services, [("user", f"What's a good name for a cat that is all {colour} and loves {toy}? {tail}"),
                                ("assistant", f"For a {colour} cat fond of {toy}: a name after your favourite food.")],
                     start=NOW - timedelta(days=300 - k))
    conversation(services, [("user", "Our cat is called Kopi, a ginger tabby we adopted from a shelter "
                                     "two years ago when we moved into the house.")],
                 start=NOW - timedelta(days=400))
    new = services.history.create_conversation().id

    built = assemble(services, new, "What's my cat's name?", now=NOW, mark_used=False)

    assert "Our cat is called Kopi" in recalled_text(built)


_FIRST_TURN = """
import sys
from pathlib import Path
from agenttui.bootstrap import build_services
from agenttui.core.context.assemble import assemble
from agenttui.core.models import Message
services = build_services(cwd=Path(sys.argv[1]))
cid = services.history.create_conversation().id
stored = services.history.append(cid, Message("user", "which bakery had the best sourdough, and when?"))
assemble(services, cid, Message("user", stored.content, id=stored.id), mark_used=False)
from agenttui.core.recall import related as recall_related
print("lemminflect" in sys.modules, recall_related._table.cache_info().currsize)
"""


def test_a_new_profiles_first_turn_loads_no_word_tables(tmp_path):
    # Nothing to recall yet: the inflection and related-words tables (~0.35 s of CPU)
    # would only delay the first request after launch (issue "providers", first turn).
    env = {**os.environ, "AGENTTUI_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-c", _FIRST_TURN, str(tmp_path)], env=env,
                          capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.split() == ["False", "0"]
