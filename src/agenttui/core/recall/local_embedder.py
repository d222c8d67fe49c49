"""Embeddings on this machine, no endpoint: ``[recall] semantic = "local"``.

A static model: one vector per WordPiece token of all-MiniLM-L6-v2
(Apache-2.0), distilled by ``scripts/distill_static_embeddings.py`` (model2vec's
method) into ``data/static_minilm.npz``, shipped in the package. A text's
vector is the mean of its tokens' rows: no network, no model run, thousands of
turns a second on one core. It needs NumPy, which the
``agenttui[local-embeddings]`` extra brings; README "Offline semantic ranking"
compares it with the transformer models that were measured against it.

The table is read on first use (~0.2 s plus NumPy's import), which is always in
a background thread: the app's embedding worker, or a ranking's own daemon
thread (:mod:`agenttui.core.recall.semantic`). A ranking that finds it not
loaded yet starts the load and ranks nothing, so that turn is lexical.

Same interface as :class:`~agenttui.core.recall.embedding_client.EmbeddingClient`.
"""

from __future__ import annotations

import importlib.util
import threading
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from agenttui.core.recall.embedding_client import MAX_INPUT_CHARS

if TYPE_CHECKING:
    from agenttui.core.recall.wordpiece import WordPiece

DATA = Path(__file__).parent / "data" / "static_minilm.npz"
#: The name vectors are stored under: another table (or model) counts as not embedded.
LOCAL_MODEL = "local:static-minilm-l6-v2-256"
EXTRA = "agenttui[local-embeddings]"


class Embedder(Protocol):
    """What semantic recall asks of an embedder: the endpoint's client or :class:`LocalEmbedder`."""

    model: str
    worked: bool  # one request has succeeded (shapes what a 400 means)

    def embed(self, texts: Sequence[str], *, timeout: float | None = None) -> list[array[float]]: ...

    def close(self) -> None: ...


def unavailable_reason(path: Path = DATA) -> str | None:
    """Why the local embedder cannot run here, or None. Cheap: nothing is imported."""
    if importlib.util.find_spec("numpy") is None:
        return f"local embeddings need NumPy: pip install '{EXTRA}'"
    if not path.is_file():
        return f"the local embedding table is missing ({path.name})"
    return None


class LocalEmbedder:
    """Embeds texts with the shipped static table (module doc)."""

    def __init__(self, path: Path = DATA, *, max_chars: int = MAX_INPUT_CHARS) -> None:
        self.model = LOCAL_MODEL
        self.path = path
        self.max_chars = max(1, int(max_chars))
        self.worked = False
        self._lock = threading.Lock()
        self._loading = False
        self._loaded = threading.Event()
        self._table: tuple[Any, Any, WordPiece] | None = None  # (int8 rows, scales, tokenizer)

    @property
    def ready(self) -> bool:
        return self._table is not None

    def wait_ready(self, timeout: float) -> bool:
        """Start the load if needed and wait for it at most ``timeout`` s; True when loaded."""
        self.start_loading()
        return self._loaded.wait(timeout)

    def start_loading(self) -> None:
        """Load the table in a daemon thread unless it is loaded or loading."""
        with self._lock:
            if self._table is not None or self._loading:
                return
            self._loading = True
        threading.Thread(target=self._load_quietly, name="local-embeddings-load", daemon=True).start()

    def _load_quietly(self) -> None:
        try:
            self.load()
        except Exception:  # the next embed() raises it where it is reported
            with self._lock:
                self._loading = False

    def load(self) -> None:
        """Read the table (blocking; call it off the UI thread)."""
        if self._table is not None:
            return
        import numpy as np  # lazy: the extra's dependency, never imported at start-up

        from agenttui.core.recall.wordpiece import WordPiece, vocab_ids

        with np.load(self.path, allow_pickle=False) as data:
            rows, scales, tokens = data["vectors"], data["scales"], data["tokens"]
        table = (rows, scales.astype(np.float32), WordPiece(vocab_ids(str(t) for t in tokens)))
        with self._lock:
            if self._table is None:
                self._table = table
            self._loading = False
        self._loaded.set()

    def embed(self, texts: Sequence[str], *, timeout: float | None = None) -> list[array[float]]:
        """One vector per text, in order (``timeout`` is the endpoint client's; nothing waits here)."""
        import numpy as np

        self.load()
        assert self._table is not None
        rows, scales, tokenizer = self._table
        vectors: list[array[float]] = []
        for text in texts:
            ids = tokenizer.ids(text[: self.max_chars])
            if ids:
                picked = np.asarray(ids, dtype=np.int64)
                mean = (rows[picked].astype(np.float32) * scales[picked, None]).mean(axis=0)
                norm = float(np.linalg.norm(mean))
                vector = array("f", (mean / norm if norm > 0 else mean).astype(np.float32).tobytes())
            else:  # nothing the vocabulary knows: a zero vector matches nothing
                vector = array("f", bytes(4 * rows.shape[1]))
            vectors.append(vector)
        self.worked = True
        return vectors

    def close(self) -> None:
        pass
