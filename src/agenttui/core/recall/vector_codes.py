"""The newest vectors as int8 codes, kept in memory, so the exact pass reads few from SQLite.

Ranking's exact pass (:mod:`agenttui.core.recall.embeddings`) scores a pool of
~2,500 candidates; reading all their float vectors from SQLite cost ~15 ms a
ranking (one B-tree look-up and one bytes object a row). Each kept vector is
here as ``dim`` int8 codes and a scale (``x ~ scale * code``), plus the norm of
what the codes miss (``residual``, rounded up), so for a unit query ``q``

    |x.q - scale * code.q| <= residual * |q|   (Cauchy-Schwarz)

and the float32 sum's own rounding is bounded too (:func:`error_bounds`). The
pass ranks the pool by these bounds in memory and reads from SQLite only the
vectors that could still be among the best ``limit`` (their upper bound reaches
the ``limit``-th best lower bound): the exact cosine of those decides the
order, so the result is the one the full exact pass gives, rounding included.

Memory: ``dim + 8`` bytes a vector, at most ``CODE_BYTES`` in all -- the
newest 100,000 at 384 dims (39 MB); at more dimensions fewer of the newest are
coded, and a pool row without codes is read from SQLite as before.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

CODE_BYTES = 40_000_000  # the codes' memory at most (100,000 vectors of 384 dims)
_F32_EPS = float(np.finfo(np.float32).eps)


def capacity(dim: int) -> int:
    """How many of the newest vectors of ``dim`` dimensions get codes."""
    return CODE_BYTES // (dim + 8)


@dataclass
class VectorCodes:
    """Codes of some vectors, row for row (module doc)."""

    codes: npt.NDArray[np.int8]
    scales: npt.NDArray[np.float32]
    residuals: npt.NDArray[np.float32]

    @classmethod
    def empty(cls, dim: int) -> VectorCodes:
        return cls(np.empty((0, dim), dtype=np.int8), np.empty(0, dtype=np.float32),
                   np.empty(0, dtype=np.float32))

    @classmethod
    def of(cls, vectors: npt.NDArray[np.float32]) -> VectorCodes:
        """Codes of float32 ``vectors`` (one a row)."""
        if not len(vectors):
            return cls.empty(vectors.shape[1])
        # float32 throughout (a first load codes 100,000 vectors); the residual's bound
        # below covers float32's own rounding of it
        peak = np.abs(vectors).max(axis=1)
        scales = np.where(peak > 0, peak, np.float32(1)).astype(np.float32) / np.float32(127)
        work = vectors / scales[:, None]
        np.rint(work, out=work)
        np.clip(work, -127, 127, out=work)
        codes = work.astype(np.int8)
        work *= scales[:, None]
        np.subtract(vectors, work, out=work)
        missed = np.sqrt(np.einsum("ij,ij->i", work, work)).astype(np.float64)
        dim = vectors.shape[1]
        # |float32 residual - exact| <= eps * peak per coordinate (the product's and the
        # difference's rounding); the float32 sum of squares and root: <= 2 (dim + 2) eps relative
        bound = (missed * (1 + 2 * (dim + 2) * _F32_EPS) + 2 * _F32_EPS * peak.astype(np.float64) * np.sqrt(dim))
        residuals = np.nextafter(bound.astype(np.float32), np.float32(np.inf))
        return cls(codes, scales, residuals)

    def __len__(self) -> int:
        return len(self.scales)

    def take(self, rows: npt.NDArray[np.intp]) -> VectorCodes:
        return VectorCodes(self.codes[rows], self.scales[rows], self.residuals[rows])

    def join(self, older: VectorCodes, keep: int) -> VectorCodes:
        """These rows, then ``older``'s, the first ``keep`` of them."""
        return VectorCodes(np.concatenate([self.codes, older.codes])[:keep],
                           np.concatenate([self.scales, older.scales])[:keep],
                           np.concatenate([self.residuals, older.residuals])[:keep])


def error_bounds(codes: VectorCodes, query: npt.NDArray[np.float32]
                 ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(lower, upper) bounds of each coded vector's exact dot product with ``query``."""
    q64 = query.astype(np.float64)
    # einsum, not @: a BLAS product starts its thread pool (see embeddings.rank_messages)
    sums = np.einsum("ij,j->i", codes.codes.astype(np.float32), query)
    approx = sums.astype(np.float64) * codes.scales
    # the float32 sum's rounding: at most dim+1 roundings of terms no larger than 127 |q_j|
    dim = len(query)
    rounding = (2 * (dim + 1) * _F32_EPS * 127.0 * float(np.abs(q64).sum())) * codes.scales.astype(np.float64)
    error = codes.residuals.astype(np.float64) * (float(np.sqrt(np.square(q64).sum())) * (1 + 1e-9)) + rounding
    error += 1e-12  # the exact pass's own float64 rounding, ~dim * 1e-16
    return approx - error, approx + error


def could_be_best(lower: npt.NDArray[np.float64], upper: npt.NDArray[np.float64],
                  limit: int) -> npt.NDArray[np.bool_]:
    """Which rows may be among the ``limit`` best (ties included): those whose upper bound
    reaches the ``limit``-th best lower bound."""
    if len(lower) <= limit:
        return np.ones(len(lower), dtype=bool)
    floor = np.partition(lower, len(lower) - limit)[len(lower) - limit]
    result: npt.NDArray[np.bool_] = upper >= floor
    return result
