"""How the embedding ranking is fused with the lexical lists (``retrieval.fuse_sources``).

The lexical lists (main, statements, second look-up, CJK bigrams, a span's ...) are fused
into one ranking first; that ranking and the embedding ranking are then two sources of
equal weight. How many lexical lists speak for a turn varies with the language and the
question; it must not change what the embedding ranking counts against them.
"""

from __future__ import annotations

from datetime import date
from typing import cast

from agenttui.core.models import Message
from agenttui.core.recall.retrieval import (
    CANDIDATES,
    FEEDBACK_WEIGHT,
    SEMANTIC_WEIGHT,
    STATEMENT_WEIGHT,
    RecallRequest,
    RecallResult,
    _message_lists,
    fuse_sources,
    rrf,
)
from agenttui.core.recall.semantic import backfill

KEYWORD, MEANING, BOTH, OTHER = 1, 2, 3, 4


def _order(lists: list[tuple[list[int], float]]) -> list[int]:
    scores = cast("dict[int, float]", rrf(lists))
    return sorted(scores, key=lambda key: (-scores[key], -key))


def test_the_first_in_meaning_ranks_with_the_keyword_first_however_many_lists_hold_it():
    for lexical in (
        [([KEYWORD], 1.0)],
        [([KEYWORD], 1.0), ([KEYWORD], STATEMENT_WEIGHT), ([KEYWORD], FEEDBACK_WEIGHT)],
    ):
        fused = rrf(fuse_sources(lexical, [MEANING]))
        assert fused[MEANING] == fused[KEYWORD]


def test_more_lexical_lists_agreeing_do_not_push_the_embedding_ranking_down():
    one = [([KEYWORD, OTHER, BOTH], 1.0)]
    three = [*one, ([KEYWORD, OTHER, BOTH], STATEMENT_WEIGHT), ([KEYWORD, OTHER], FEEDBACK_WEIGHT)]
    semantic = [MEANING, BOTH]
    assert _order(fuse_sources(one, semantic)) == _order(fuse_sources(three, semantic))
    # a turn both sources rank comes before what only one of them ranks as high
    assert _order(fuse_sources(three, [BOTH, MEANING]))[0] == BOTH


def test_without_an_embedding_ranking_the_lexical_lists_are_fused_as_they_are():
    lexical = [([KEYWORD, OTHER], 1.0), ([OTHER], STATEMENT_WEIGHT)]
    assert fuse_sources(lexical, []) == [([KEYWORD, OTHER], 1.0), ([OTHER], STATEMENT_WEIGHT)]


def test_recall_fuses_the_lexical_ranking_and_the_embedding_ranking_as_two_sources(fake_openai, services):
    question = "which dish do I cook on sundays?"
    history = services.history
    cid = history.create_conversation("chat").id
    stored = history.append_many(
        cid,
        [
            Message("assistant", "you cook on sundays when it rains"),
            Message("user", "nice"),
            Message("user", "lasagna, layered with spinach"),
            Message("assistant", "the ferry leaves at noon"),
        ],
    )
    fake_openai.embed_as(question, like="lasagna, layered with spinach")
    services.settings.recall.semantic = True
    assert backfill(services).complete
    ranker = services.semantic_ranker()
    assert ranker.start_ranking(question, CANDIDATES).result(timeout=60)[0] == stored[2].id
    request = RecallRequest(question, sources=("message",), semantic=ranker)

    _, lists = _message_lists(history, request, date.today(), RecallResult())

    (words, lexical_weight), (ranked, weight) = lists
    assert lexical_weight == 1.0 and weight == SEMANTIC_WEIGHT
    assert ranked[0] == stored[2].id and stored[0].id in words
