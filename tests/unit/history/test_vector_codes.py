"""The exact pass reads few vectors, and ranks as reading the whole pool would.

``vector_codes`` bounds each pooled vector's cosine from its int8 codes; the
ranking then reads from the database only the vectors that may be among the
best. These tests hold it to the order the exact cosine of the whole pool
gives, on vectors made to crowd around the query (close scores are where a loose
bound would change the order), with the codes covering all, part or none of the
pool, after a vector is replaced and after a pooled message is deleted.
"""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from agenttui.core.models import Message
from agenttui.core.recall import sign_table, vector_codes
from agenttui.core.recall.embeddings import EmbeddingIndex
from agenttui.core.recall.vector_codes import VectorCodes, error_bounds

MODEL = "test-model"
DIM = 64


@pytest.mark.parametrize("dim", [8, 64, 384, 1536])
def test_the_bounds_hold_the_exact_dot_product(dim):
    rng = np.random.default_rng(dim)
    vectors = rng.standard_normal((500, dim)).astype(np.float32)
    vectors[:5] = 0.0
    vectors[5:10, 0] = 1.0  # one-hot: the whole vector is its peak
    vectors[10:20] *= 1e-20  # tiny: the scales are tiny too
    vectors[20:] /= np.linalg.norm(vectors[20:], axis=1, keepdims=True)
    for query in (vectors[30], rng.standard_normal(dim).astype(np.float32), np.sign(vectors[40])):
        query = (query / np.linalg.norm(query)).astype(np.float32)
        lower, upper = error_bounds(VectorCodes.of(vectors), query)
        exact = vectors.astype(np.float64) @ query.astype(np.float64)
        assert (lower <= exact).all() and (exact <= upper).all()
        assert (upper - lower)[20:].max() < 0.05  # and tight enough to leave most of a pool unread


def _crowd(services, count: int, seed: int = 7) -> tuple[list[int], np.ndarray, np.ndarray]:
    """``count`` messages whose vectors all lie near one direction; (ids, vectors, that direction)."""
    rng = np.random.default_rng(seed)
    centre = rng.standard_normal(DIM)
    vectors = centre + 0.35 * rng.standard_normal((count, DIM))
    cid = services.history.create_conversation("crowd").id
    stored = services.history.append_many(cid, [Message("user", f"m{n}") for n in range(count)])
    ids = [m.id for m in stored]
    index = EmbeddingIndex.for_history(services.history, MODEL)
    index.store(zip(ids, vectors.tolist(), strict=True))
    index.close()
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    return ids, unit.astype(np.float32), centre / np.linalg.norm(centre)


def _full_pass(index: EmbeddingIndex, query, limit: int, pool: int, deleted: int = 0) -> list[int]:
    """The ranking when the exact pass reads every pooled vector (what it did before codes)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vector_codes, "error_bounds", lambda codes, q: (np.full(len(codes), -np.inf),
                                                                      np.full(len(codes), np.inf)))
        ranked = index.rank_messages(query, limit, pool=pool)
    assert index.last_scan.read == index.last_scan.pooled - deleted  # every pooled vector read
    return ranked


def test_the_ranking_reads_few_vectors_and_orders_as_the_whole_pool_would(services):
    ids, vectors, centre = _crowd(services, 1500)
    index = EmbeddingIndex.for_history(services.history, MODEL)
    index.load_tables()  # as the app does at start-up: codes are kept from now on
    rng = np.random.default_rng(1)
    for query in [centre, vectors[3], vectors[700], *(centre + 0.2 * rng.standard_normal((5, DIM)))]:
        query = query.tolist()
        ranked = index.rank_messages(query, 40, pool=1000)
        assert index.last_scan.pooled == 1000 and index.last_scan.read < 500  # of 1,000
        assert ranked == _full_pass(index, query, 40, 1000)
    index.close()


def test_pool_rows_without_codes_are_read_and_ranked_with_the_rest(services, monkeypatch):
    ids, vectors, centre = _crowd(services, 800, seed=11)
    monkeypatch.setattr(sign_table, "capacity", lambda dim: 300)  # the newest 300 coded
    index = EmbeddingIndex.for_history(services.history, MODEL)
    index.load_tables()  # as the app does at start-up: codes are kept from now on
    query = centre.tolist()
    ranked = index.rank_messages(query, 20, pool=600)
    assert len(index._signs[DIM].codes) == 300
    assert 300 < index.last_scan.read < 600  # every uncoded pooled row, few coded ones
    assert ranked == _full_pass(index, query, 20, 600)
    monkeypatch.setattr(sign_table, "capacity", lambda dim: 0)  # none (codes made anew at a reload)
    index._signs[DIM].stale = True
    assert index.rank_messages(query, 20, pool=600) == ranked and index.last_scan.read == 600
    index.close()


def test_a_vector_stored_again_is_ranked_by_its_new_value_at_once(services):
    ids, vectors, centre = _crowd(services, 600, seed=5)
    index = EmbeddingIndex.for_history(services.history, MODEL)
    index.load_tables()  # as the app does at start-up: codes are kept from now on
    query = centre.tolist()
    before = index.rank_messages(query, 10, pool=500)
    last = ids[int(np.argmin(vectors @ centre))]  # the farthest: its old codes would rank it last
    assert last not in before
    index.store([(last, query)])  # an older message's vector replaced, by this index
    after = index.rank_messages(query, 10, pool=500)
    assert after[0] == last and after == _full_pass(index, query, 10, 500)
    index.close()


def test_a_deleted_candidate_is_dropped_and_the_rest_keep_their_order(services):
    ids, vectors, centre = _crowd(services, 600, seed=9)
    index = EmbeddingIndex.for_history(services.history, MODEL)
    index.load_tables()  # as the app does at start-up: codes are kept from now on
    query = centre.tolist()
    before = index.rank_messages(query, 20, pool=500)
    conn = sqlite3.connect(str(services.history.db_path), isolation_level=None)
    conn.execute("DELETE FROM embeddings WHERE message_id = ?", (before[0],))  # another process
    conn.close()
    after = index.rank_messages(query, 20, pool=500)  # the codes still hold it: its read misses
    assert before[0] not in after and after[:19] == before[1:]
    assert index.last_scan.read == 499  # all the others, once
    assert after == _full_pass(index, query, 20, 500, deleted=1)
    index.close()


def test_a_ranking_alone_makes_no_codes_and_reads_the_pool(services):
    """One ranking a process (``agenttui ask``): 0.7 s of codes would not pay for ~15 ms of reads."""
    ids, vectors, centre = _crowd(services, 600, seed=13)
    index = EmbeddingIndex.for_history(services.history, MODEL)
    query = centre.tolist()
    ranked = index.rank_messages(query, 20, pool=500)
    assert index._signs[DIM].codes is None and index.last_scan.read == 500
    assert index.load_tables() == 600  # from now on, codes: the same ranking from few reads
    assert index.rank_messages(query, 20, pool=500) == ranked and index.last_scan.read < 250
    index.close()


def test_new_vectors_get_codes_as_they_come(services):
    ids, vectors, centre = _crowd(services, 400, seed=3)
    index = EmbeddingIndex.for_history(services.history, MODEL)
    index.load_tables()  # as the app does at start-up: codes are kept from now on
    query = centre.tolist()
    index.rank_messages(query, 10, pool=300)
    newer, _, _ = _crowd(services, 50, seed=4)  # stored by another index: read at the next ranking
    ranked = index.rank_messages(query, 10, pool=300)
    table = index._signs[DIM]
    assert len(table.codes) == len(table.ids) == 450 and table.ids[0] == newer[-1]
    assert index.last_scan.steps == [50] and index.last_scan.read < 300
    assert ranked == _full_pass(index, query, 10, 300)
    index.close()
