"""A snippet's token estimate summed from its lines' counts is the estimate of its rendered text."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from agenttui.core.recall.retrieval import Snippet, Turn, render_snippet, snippet_tokens
from agenttui.core.recall.snippet_cost import joined_tokens
from agenttui.core.tokens import estimate_tokens

# ASCII letters, digits, symbols and whitespace, Latin with accents, CJK, emoji, odd spaces
_TEXT = st.text(st.sampled_from(list("ab Z9.,:;!?'\"-_()[]{}#@ \t\n") + list("éüñ中文字😀\u00a0\u3000\u2028")),
                max_size=40)


@settings(max_examples=300, deadline=None)
@given(st.lists(_TEXT, max_size=6))
def test_lines_add_up_to_the_estimate_of_their_joined_text(lines: list[str]) -> None:
    # each line is followed by a newline but the last: words never span the join
    assert joined_tokens(lines, max(0, len(lines) - 1)) == estimate_tokens("\n".join(lines))


@settings(max_examples=300, deadline=None)
@given(title=_TEXT, turns=st.lists(st.tuples(st.sampled_from(["user", "assistant", ""]), _TEXT,
                                                st.integers(0, 3)), min_size=1, max_size=5))
def test_a_message_snippet_costs_its_rendered_text(title: str, turns: list[tuple[str, str, int]]) -> None:
    start = datetime(2026, 3, 1, 12, tzinfo=UTC)
    quoted = tuple(Turn(k + 1, role, start + timedelta(days=days), " ".join(text.split()))
                   for k, (role, text, days) in enumerate(turns))
    snippet = Snippet(source="message", score=1.0, date=quoted[0].created, text=quoted[0].text,
                      conversation_title=title, conversation_id="c", message_id=1, turns=quoted)
    assert snippet_tokens(snippet) == estimate_tokens(render_snippet(snippet)) + 1


def test_other_snippets_are_priced_as_rendered() -> None:
    note = Snippet(source="note", score=1.0, date=datetime(2026, 3, 1, tzinfo=UTC), text="the cat is Kopi",
                   scope="user")
    assert snippet_tokens(note) == estimate_tokens(render_snippet(note)) + 1


def test_a_snippet_widened_by_copy_is_the_one_replace_gives() -> None:
    from dataclasses import fields, replace

    from agenttui.core.recall.retrieval import _with_turns

    start = datetime(2026, 3, 1, 12, tzinfo=UTC)
    turns = (Turn(1, "user", start, "before"), Turn(2, "assistant", start + timedelta(days=1), "matched", True))
    snippet = Snippet(source="message", score=0.5, date=turns[1].created, text="matched", highlight="«m»",
                      conversation_id="c", conversation_title="t", message_id=2, role="assistant",
                      turns=turns[1:], archived=True)
    wider = _with_turns(snippet, turns)
    expected = replace(snippet, turns=turns, date=turns[0].created)
    assert wider == expected and repr(wider) == repr(expected)
    assert [getattr(wider, f.name) for f in fields(Snippet)] == [getattr(expected, f.name) for f in fields(Snippet)]
    assert snippet.turns == turns[1:]  # the original stands
    # the copy skips __init__: it stays the same only while Snippet checks nothing there
    assert not hasattr(Snippet, "__post_init__") and not hasattr(Snippet, "__slots__")


@settings(max_examples=200, deadline=None)
@given(title=_TEXT, texts=st.lists(_TEXT, min_size=1, max_size=4), conversations=st.lists(
    st.sampled_from(["a", "b", "c"]), min_size=1, max_size=4), note=st.booleans())
def test_the_grouped_block_costs_what_the_fill_counts(title: str, texts: list[str], conversations: list[str],
                                                      note: bool) -> None:
    # the fill pays each conversation's heading once and each excerpt with its date for a head (the
    # last line's break is the closing tag's)
    from agenttui.core.context.assemble import render_recalled
    from agenttui.core.recall.retrieval import heading_tokens

    start = datetime(2026, 3, 1, 12, tzinfo=UTC)
    snippets = []
    for k, (text, cid) in enumerate(zip(texts, conversations, strict=False)):
        turn = Turn(k + 1, "user", start + timedelta(days=k), " ".join(text.split()) or "x")
        snippets.append(Snippet(source="message", score=1.0, date=turn.created, text=turn.text,
                                conversation_title=title + cid, conversation_id=cid, message_id=k + 1, turns=(turn,)))
    if note:
        snippets.append(Snippet(source="note", score=1.0, date=start + timedelta(days=1, hours=1),
                                text="the cat is Kopi", scope="user"))
    block = render_recalled(snippets)
    body = block.split("<recalled>\n", 1)[1].rsplit("\n</recalled>", 1)[0]
    first_of = {s.conversation_id: s for s in reversed(snippets) if s.source == "message"}
    counted = (sum(snippet_tokens(s, grouped=s.source == "message") for s in snippets)
               + sum(heading_tokens(s) for s in first_of.values()))
    # each part is rounded up on its own and counts its line break as a token: never less than the
    # block, at most two more a part
    parts = len(snippets) + len(first_of)
    assert 0 <= counted - (estimate_tokens(body) + 1) <= 2 * parts
