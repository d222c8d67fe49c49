"""How many messages of the default profile have a vector (the CLI's semantic-recall tests)."""

from __future__ import annotations

import sqlite3


def embedded(paths) -> int:
    conn = sqlite3.connect(str(paths.history_db("default")))
    try:
        return conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0]
    finally:
        conn.close()
