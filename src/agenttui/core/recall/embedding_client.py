"""``POST /v1/embeddings`` on the configured endpoint, through the ``openai`` package.

OpenAI, Ollama, vLLM, LM Studio, llama.cpp's server and others serve it.
Synchronous on purpose: the backfill runs in a worker thread and the query
embedding inside context assembly, which is synchronous too. ``openai`` is
imported on first use (it costs ~0.3 s), never at start-up.

Failures are sorted in two kinds (:func:`classify`):

* ``unavailable`` -- the endpoint has no embeddings for us: 404/405/501, a
  400 on the first request (unknown model, "does not support embeddings"),
  401/403, or nothing listening. Semantic recall is off for the session.
* ``transient`` -- 429, 5xx, a timeout, a dropped connection: try later.
"""

from __future__ import annotations

import base64
import sys
from array import array
from collections.abc import Sequence
from typing import Any, Literal

EMBED_BATCH = 64  # inputs per request
MAX_INPUT_CHARS = 2_000  # the gist; within the 512 tokens small local models take

Failure = Literal["unavailable", "transient"]


class EmbeddingError(Exception):
    """An embeddings request failed; ``kind`` says whether to try again later."""

    def __init__(self, message: str, kind: Failure, status: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.status = status  # the HTTP status, when there was one


def classify(error: BaseException, *, worked_before: bool = False) -> EmbeddingError:
    """An :class:`EmbeddingError` describing an ``openai`` exception (see the module doc)."""
    import openai

    if isinstance(error, EmbeddingError):
        return error
    if isinstance(error, openai.APITimeoutError):
        return EmbeddingError("the embeddings request timed out", "transient")
    if isinstance(error, openai.APIConnectionError):
        kind: Failure = "transient" if worked_before else "unavailable"
        return EmbeddingError(f"cannot reach the endpoint ({error})", kind)
    if isinstance(error, openai.APIStatusError):
        code = error.status_code
        detail = _detail(error)
        if code in (404, 405, 501):
            return EmbeddingError(f"the endpoint has no /v1/embeddings (HTTP {code})", "unavailable", code)
        if code in (401, 403):
            return EmbeddingError(f"embeddings refused (HTTP {code}: {detail})", "unavailable", code)
        if 400 <= code < 500 and code not in (408, 409, 429):
            kind = "transient" if worked_before else "unavailable"
            return EmbeddingError(f"embeddings rejected (HTTP {code}: {detail})", kind, code)
        return EmbeddingError(f"embeddings failed (HTTP {code}: {detail})", "transient", code)
    return EmbeddingError(f"embeddings failed ({type(error).__name__}: {error})", "transient")


def _detail(error: Any) -> str:
    body = getattr(error, "body", None)  # the JSON error object, or the whole body
    if isinstance(body, dict):
        inner = body.get("error")
        message = inner.get("message") if isinstance(inner, dict) else body.get("message")
        if message:
            return str(message)[:200]
    return str(getattr(error, "message", "") or error)[:200]


def _floats(raw: Any) -> array[float]:
    """One embedding: base64 float32 (asked for) or a JSON list (servers that ignore the ask)."""
    if isinstance(raw, str):
        vector = array("f", base64.b64decode(raw))
        if sys.byteorder == "big":  # the wire is little-endian
            vector.byteswap()
        return vector
    return array("f", raw)


class EmbeddingClient:
    """Embeds texts with ``model`` at ``base_url`` (None = the OpenAI API)."""

    def __init__(self, base_url: str | None, api_key: str, model: str, *,
                 timeout: float = 30.0, batch: int = EMBED_BATCH,
                 max_chars: int = MAX_INPUT_CHARS) -> None:
        import openai  # lazy: see the module doc

        self.model = model
        self.batch = max(1, int(batch))
        self.max_chars = max(1, int(max_chars))
        self.worked = False  # one request has succeeded (shapes what a 400 means)
        self._client = openai.OpenAI(base_url=base_url or None, api_key=api_key,
                                     timeout=timeout, max_retries=0)

    def embed(self, texts: Sequence[str], *, timeout: float | None = None) -> list[array[float]]:
        """One vector per text, in order; ``batch`` texts per request.

        Texts are cut to ``max_chars``. Raises :class:`EmbeddingError`.
        """
        vectors: list[array[float]] = []
        for start in range(0, len(texts), self.batch):
            chunk = [(t[: self.max_chars] if t.strip() else "-") for t in texts[start:start + self.batch]]
            vectors.extend(self._request(chunk, timeout))
        return vectors

    def _request(self, inputs: list[str], timeout: float | None) -> list[array[float]]:
        options: dict[str, Any] = {"model": self.model, "input": inputs, "encoding_format": "base64"}
        if timeout is not None:
            options["timeout"] = timeout
        try:
            response = self._client.embeddings.create(**options)
        except Exception as error:  # sorted into unavailable / transient
            raise classify(error, worked_before=self.worked) from error
        data = sorted(response.data or [], key=lambda item: item.index)
        if len(data) != len(inputs):
            raise EmbeddingError(f"the endpoint returned {len(data)} embeddings for {len(inputs)} "
                                 "texts", "unavailable" if not self.worked else "transient")
        vectors = [_floats(item.embedding) for item in data]
        if any(len(v) == 0 or len(v) != len(vectors[0]) for v in vectors):
            raise EmbeddingError("the endpoint returned empty or uneven embeddings", "unavailable")
        self.worked = True
        return vectors

    def close(self) -> None:
        self._client.close()
