"""The first ranking pass's Hamming distances, on NumPy 2's popcount and NumPy 1's table."""

from __future__ import annotations

import numpy as np
import pytest

from agenttui.core.recall import sign_table


def _expected(rows: np.ndarray, query: np.ndarray) -> list[int]:
    return [sum(bin(int(a) ^ int(b)).count("1") for a, b in zip(row, query, strict=True)) for row in rows]


@pytest.mark.parametrize("width", [48, 49, 192])  # 384 and 1,536 dims; one not a multiple of 64 bits
@pytest.mark.parametrize("numpy_1", [False, True])
def test_hamming_counts_every_differing_bit(width, numpy_1, monkeypatch):
    if numpy_1:
        monkeypatch.delattr(np, "bitwise_count", raising=False)
    rng = np.random.default_rng(width)
    rows = rng.integers(0, 256, (300, width), dtype=np.uint8)
    query = rng.integers(0, 256, width, dtype=np.uint8)
    assert sign_table.hamming(rows, query).tolist() == _expected(rows, query)
    assert sign_table.hamming(rows[::3], query).tolist() == _expected(rows[::3], query)  # a strided view


@pytest.mark.parametrize("width", [48, 256, 384])  # NumPy 1's sums run 31 words at a time: 32 and 48 words
@pytest.mark.parametrize("numpy_1", [False, True])
def test_hamming_counts_up_to_every_bit_without_overflow(width, numpy_1, monkeypatch):
    if numpy_1:
        monkeypatch.delattr(np, "bitwise_count", raising=False)
    rows = np.zeros((3, width), dtype=np.uint8)
    rows[0] = 0xFF
    rows[1, ::2] = 0xFF
    query = np.zeros(width, dtype=np.uint8)
    assert sign_table.hamming(rows, query).tolist() == [8 * width, 8 * ((width + 1) // 2), 0]
    assert sign_table.hamming(rows, np.full(width, 0xFF, dtype=np.uint8)).tolist() == [0, 4 * width, 8 * width]
