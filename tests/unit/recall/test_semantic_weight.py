"""How much the embedding ranking counts in the fusion (``retrieval.SEMANTIC_WEIGHT``).

A first-person statement holding the question's words is first in two lexical lists (the
main one and the statements'). At equal weight the two outvoted the embedding ranking's
first; weighted as measured, the nearest turn in meaning comes first, and a turn that
three lexical lists agree on (the second look-up found it too) still does.
"""

from __future__ import annotations

from datetime import date

from agenttui.core.models import Message
from agenttui.core.recall.retrieval import (
    CANDIDATES,
    FEEDBACK_WEIGHT,
    SEMANTIC_WEIGHT,
    STATEMENT_WEIGHT,
    RecallRequest,
    RecallResult,
    _message_lists,
    rrf,
)
from agenttui.core.recall.semantic import backfill

KEYWORD, MEANING = "keyword hit", "meaning hit"


def test_the_first_in_meaning_outranks_the_first_of_two_keyword_lists_not_three():
    two = rrf([([KEYWORD], 1.0), ([KEYWORD], STATEMENT_WEIGHT), ([MEANING], SEMANTIC_WEIGHT)])
    assert two[MEANING] > two[KEYWORD]
    three = rrf([([KEYWORD], 1.0), ([KEYWORD], STATEMENT_WEIGHT), ([KEYWORD], FEEDBACK_WEIGHT),
                 ([MEANING], SEMANTIC_WEIGHT)])
    assert three[KEYWORD] > three[MEANING]


def test_recall_fuses_the_embedding_ranking_with_that_weight(fake_openai, services):
    question = "which dish do I cook on sundays?"
    history = services.history
    cid = history.create_conversation("chat").id
    stored = history.append_many(cid, [
        Message("assistant", "you cook on sundays when it rains"), Message("user", "nice"),
        Message("user", "lasagna, layered with spinach"), Message("assistant", "the ferry leaves at noon"),
    ])
    fake_openai.embed_as(question, like="lasagna, layered with spinach")
    services.settings.recall.semantic = True
    assert backfill(services).complete
    ranker = services.semantic_ranker()
    assert ranker.start_ranking(question, CANDIDATES).result(timeout=60)[0] == stored[2].id
    request = RecallRequest(question, sources=("message",), semantic=ranker)

    _, lists = _message_lists(history, request, date.today(), RecallResult())

    ranked, weight = lists[-1]
    assert ranked[0] == stored[2].id and weight == SEMANTIC_WEIGHT
