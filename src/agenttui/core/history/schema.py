"""The history database schema and its migrations (docs/storage.md#history-database).

The schema version lives in ``PRAGMA user_version`` (0 = empty file). Each
migration is an ordered tuple of single SQL statements -- not a script --
because ``executescript`` would commit behind our back; we run them inside
one ``BEGIN IMMEDIATE`` transaction together with the ``user_version`` bump,
so a crash mid-migration leaves the old version intact and the next open
simply retries. The version is re-read after taking the write lock, so two
app instances opening an old file at once migrate it exactly once.

Never edit a released migration: append a new one.

Design notes on the tables:

* ``messages.id`` is ``AUTOINCREMENT`` so ids are never reused after a
  delete: a search hit or a memory item's origin can never point at a
  different, later message.
* ``messages_fts`` is an FTS5 *external-content* table over
  ``messages.content`` (the text is stored once), kept in sync by triggers,
  so every write path -- ``append``, bulk loads, deletes through the
  foreign-key cascade -- updates the index in the same transaction.
  ``remove_diacritics 2`` lets "viet" find "Việt".
* Times are ISO 8601 UTC strings with microseconds: they sort as text, so
  ``conversations(archived, updated)`` serves "newest first" straight from
  the index.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from agenttui.core.recall.cjk import CJK_GLOB, index_text


@dataclass(frozen=True)
class Migration:
    version: int
    description: str
    statements: tuple[str, ...]


_V1 = (
    """
    CREATE TABLE conversations (
        id       TEXT PRIMARY KEY,
        title    TEXT NOT NULL DEFAULT '',
        created  TEXT NOT NULL,
        updated  TEXT NOT NULL,
        model    TEXT,
        archived INTEGER NOT NULL DEFAULT 0
    )
    """,
    "CREATE INDEX conversations_by_updated ON conversations(archived, updated)",
    """
    CREATE TABLE messages (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        role            TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
        content         TEXT,
        tool_calls      TEXT,            -- JSON list of {id, name, arguments}, NULL if none
        tool_call_id    TEXT,
        name            TEXT,
        image_b64       TEXT,
        image_mime      TEXT,
        turn_id         TEXT,
        created         TEXT NOT NULL,
        tokens          INTEGER NOT NULL DEFAULT 0,
        incomplete      INTEGER NOT NULL DEFAULT 0
    )
    """,
    "CREATE INDEX messages_by_conversation ON messages(conversation_id, id)",
    """
    CREATE VIRTUAL TABLE messages_fts USING fts5(
        content,
        content='messages',
        content_rowid='id',
        tokenize='unicode61 remove_diacritics 2'
    )
    """,
    """
    CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
    END
    """,
    """
    CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        INSERT INTO messages_fts(messages_fts, rowid, content)
        VALUES ('delete', old.id, old.content);
    END
    """,
    """
    CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages BEGIN
        INSERT INTO messages_fts(messages_fts, rowid, content)
        VALUES ('delete', old.id, old.content);
        INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
    END
    """,
)

# A per-conversation message counter, maintained by the append path in the
# same transaction, so the history pane lists thousands of conversations with
# their sizes without a COUNT(*) per row.
_V2 = (
    "ALTER TABLE conversations ADD COLUMN message_count INTEGER NOT NULL DEFAULT 0",
    """
    UPDATE conversations SET message_count =
        (SELECT COUNT(*) FROM messages WHERE messages.conversation_id = conversations.id)
    """,
)

# Recall: the index is rebuilt with the ``porter`` stemmer in front of
# ``unicode61`` ("signed" finds "sign", "migrations" finds "migration"), and
# messages are indexed by date for questions about a span of days. The triggers of
# v1 name the table, not its tokenizer, and keep working on the new one.
# ``rebuild`` re-reads every row from ``messages`` (C speed: ~2 s per 100,000).
_V3 = (
    "DROP TABLE messages_fts",
    """
    CREATE VIRTUAL TABLE messages_fts USING fts5(
        content,
        content='messages',
        content_rowid='id',
        tokenize='porter unicode61 remove_diacritics 2'
    )
    """,
    "INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')",
    # "what did I do last week": a profile's messages by date, across conversations
    "CREATE INDEX messages_by_created ON messages(created)",
)

# Semantic recall (core/recall/embeddings.py): one vector per user/assistant text message,
# float32 little-endian and unit length, tagged with the model that made it. ``bits``
# holds the vector's sign bits (dim/8 bytes): the ranking scans them through the
# covering index alone (~100 bytes an entry at 768 dims instead of ~3 KB rows) and
# reads whole vectors only for its few hundred best candidates. Deleting a message
# deletes its vector (cascade); editing its text drops the stale vector.
_V4 = (
    """
    CREATE TABLE embeddings (
        message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
        model      TEXT NOT NULL,
        dim        INTEGER NOT NULL,
        bits       BLOB NOT NULL,
        vector     BLOB NOT NULL
    )
    """,
    "CREATE INDEX embeddings_scan ON embeddings(model, dim, message_id, bits)",
    """
    CREATE TRIGGER embeddings_stale AFTER UPDATE OF content ON messages BEGIN
        DELETE FROM embeddings WHERE message_id = new.id;
    END
    """,
)

# Replies as the provider left them (schema v5): ``meta`` is a JSON object, NULL for
# ordinary messages, holding ``incomplete_reason`` (why a kept reply is incomplete,
# in words), ``provider`` (assistant-message fields a provider needs back unchanged,
# e.g. DeepSeek's ``reasoning_content`` on tool-call messages), ``reasoning`` (the
# model's thinking, only with ``[history] save_reasoning``) and ``cut_tool_calls``
# (tool calls cut off mid-arguments: kept, never sent or run). Per-call provider
# fields (Gemini's thought signature) ride in the ``tool_calls`` JSON as ``extra``.
# One ``ADD COLUMN``: no rewrite of the table, instant on any size.
_V5 = (
    "ALTER TABLE messages ADD COLUMN meta TEXT",
)

# Conversations as trees (schema v6): ``messages.parent_id`` is the message this one
# answers or follows (NULL: a root). Editing a question adds a sibling of it, regenerating
# a sibling of the reply; nothing is ever overwritten. ``conversations.active_leaf_id``
# is the last message of the branch shown and sent: the active branch is the path from
# the root to it, and new messages continue it. Every existing conversation becomes one
# branch: each message's parent is the one before it (by id) in its conversation, its
# active leaf its newest message. The parent is one probe of the (conversation_id, id)
# index per message (1.4 s at 200,000 messages; a LAG() window over a sorted pass with
# UPDATE ... FROM took 2.1 s in the same runs); the index on (conversation_id, parent_id)
# -- a message's siblings, a subtree's leaves -- is built after the UPDATE, so the update
# does not maintain it row by row. No foreign key
# on parent_id: messages are only ever deleted with their whole conversation.
#: Every conversation as one branch in id order (v6; bulk loads that bypass the store use it too).
LINK_AS_ONE_BRANCH = (
    """
    UPDATE messages SET parent_id = (
        SELECT MAX(p.id) FROM messages AS p
        WHERE p.conversation_id = messages.conversation_id AND p.id < messages.id)
    """,
    """
    UPDATE conversations SET active_leaf_id =
        (SELECT MAX(id) FROM messages WHERE messages.conversation_id = conversations.id)
    """,
)
_V6 = (
    "ALTER TABLE messages ADD COLUMN parent_id INTEGER",
    "ALTER TABLE conversations ADD COLUMN active_leaf_id INTEGER",
    *LINK_AS_ONE_BRANCH,
    "CREATE INDEX messages_by_parent ON messages(conversation_id, parent_id)",
)

# A conversation with at least one message that has a sibling (an edit, a regeneration, an
# imported tree) is ``branched``: only those pay for working out which messages are off the
# active branch (recall leaves them out, every step of a turn); the flag is set by the
# store's insert path in the same transaction, never cleared (branches are never deleted
# apart from their conversation). One ADD COLUMN, and one pass over the index of v6.
_V7 = (
    "ALTER TABLE conversations ADD COLUMN branched INTEGER NOT NULL DEFAULT 0",
    """
    UPDATE conversations SET branched = 1 WHERE id IN (
        SELECT conversation_id FROM messages GROUP BY conversation_id, parent_id HAVING COUNT(*) > 1)
    """,
)

# Chinese, Japanese and Korean (core/recall/cjk.py): to ``unicode61`` a clause written without
# spaces is one token, so a question never shares one with its answer. ``messages_cjk`` holds
# each user/assistant message's CJK characters one token apiece (runs kept apart), and recall
# searches it by character bigrams as phrases. It stores that text itself (not external
# content: the characters are not the message's text). The store's insert path adds a row for
# every message holding CJK (in Python: a trigger calling a Python function would fail in any
# other connection, the sqlite3 shell's included); deleting a message deletes its row here.
# Existing messages are read in once, through ``CJK_UNITS_FUNCTION`` registered by ``migrate``.
# Every statement may run again (a file whose version was set back by hand).
CJK_UNITS_FUNCTION = "agenttui_cjk_units"
_V8 = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS messages_cjk USING fts5(units, tokenize='unicode61')",
    """
    CREATE TRIGGER IF NOT EXISTS messages_cjk_delete AFTER DELETE ON messages BEGIN
        DELETE FROM messages_cjk WHERE rowid = old.id;
    END
    """,
    # the store never edits a message's text (an edit is a sibling); a hand edit drops its row
    """
    CREATE TRIGGER IF NOT EXISTS messages_cjk_update AFTER UPDATE OF content ON messages BEGIN
        DELETE FROM messages_cjk WHERE rowid = old.id;
    END
    """,
    f"""
    INSERT INTO messages_cjk(rowid, units)
    SELECT id, {CJK_UNITS_FUNCTION}(content) FROM messages
    WHERE role IN ('user', 'assistant') AND tool_calls IS NULL AND content GLOB '{CJK_GLOB}'
      AND id NOT IN (SELECT rowid FROM messages_cjk)
    """,
)

# Usage and cost (core/usage/): one row per assistant reply that has them -- the model that
# answered, the provider's token counts (or our estimate, flagged), the cost in USD from the
# offline price table (NULL: the table does not know the model). A table of its own, not
# columns of ``messages``: columns added to ``messages`` sit behind the text, whose overflow
# pages a scan would have to follow. ``conversation_id`` and ``created`` are copied from the
# message. Replies from before v9 have no row: nothing is made up for them.
#
# ``agenttui usage`` must answer in well under 100 ms over 200,000 replies; a GROUP BY over
# every row took 0.6-0.9 s (bench/bench_usage.py). So triggers keep two running sums in the
# same transaction as each insert or delete (a conversation's delete cascades here):
# ``usage_daily`` per UTC day and model (a year of daily use: a few thousand rows) and
# ``usage_by_conversation``. Only ``--since`` reads ``message_usage`` itself, for the part of
# its first day after the given time (through ``message_usage_by_created``). Rows are
# inserted once (never INSERT OR REPLACE: its implicit delete fires no trigger). A reply is
# stored before it is priced (loading the price table costs ~1 s of CPU, kept off the turn's
# way); pricing it later UPDATEs ``cost``, and ``message_usage_priced`` moves the sums.
# ``endpoint`` is the base URL that answered: it picks the provider's price.
_USAGE_SUMS = """
        replies           INTEGER NOT NULL DEFAULT 0,
        prompt_tokens     INTEGER NOT NULL DEFAULT 0,
        completion_tokens INTEGER NOT NULL DEFAULT 0,
        cached_tokens     INTEGER NOT NULL DEFAULT 0,
        reasoning_tokens  INTEGER NOT NULL DEFAULT 0,
        estimated         INTEGER NOT NULL DEFAULT 0,
        unpriced          INTEGER NOT NULL DEFAULT 0,
        cost              REAL NOT NULL DEFAULT 0
"""
_USAGE_ADD = """
        VALUES ({key}, 1, new.prompt_tokens, new.completion_tokens, new.cached_tokens,
                new.reasoning_tokens, new.estimated, new.cost IS NULL, COALESCE(new.cost, 0))
        ON CONFLICT({columns}) DO UPDATE SET
            replies = replies + 1,
            prompt_tokens = prompt_tokens + excluded.prompt_tokens,
            completion_tokens = completion_tokens + excluded.completion_tokens,
            cached_tokens = cached_tokens + excluded.cached_tokens,
            reasoning_tokens = reasoning_tokens + excluded.reasoning_tokens,
            estimated = estimated + excluded.estimated,
            unpriced = unpriced + excluded.unpriced,
            cost = cost + excluded.cost;"""
_USAGE_REMOVE = """
        UPDATE {table} SET
            replies = replies - 1,
            prompt_tokens = prompt_tokens - old.prompt_tokens,
            completion_tokens = completion_tokens - old.completion_tokens,
            cached_tokens = cached_tokens - old.cached_tokens,
            reasoning_tokens = reasoning_tokens - old.reasoning_tokens,
            estimated = estimated - old.estimated,
            unpriced = unpriced - (old.cost IS NULL),
            cost = cost - COALESCE(old.cost, 0)
        WHERE {where};
        DELETE FROM {table} WHERE {where} AND replies <= 0;"""
_USAGE_PRICED = """
        UPDATE {table} SET
            unpriced = unpriced - (old.cost IS NULL) + (new.cost IS NULL),
            cost = cost - COALESCE(old.cost, 0) + COALESCE(new.cost, 0)
        WHERE {where};"""
_DAY_WHERE = "day = substr(old.created, 1, 10) AND model = old.model"
_CONVERSATION_WHERE = "conversation_id = old.conversation_id"
_V9 = (
    """
    CREATE TABLE IF NOT EXISTS message_usage (
        message_id        INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
        conversation_id   TEXT NOT NULL,
        created           TEXT NOT NULL,
        model             TEXT NOT NULL DEFAULT '',
        prompt_tokens     INTEGER NOT NULL DEFAULT 0,
        completion_tokens INTEGER NOT NULL DEFAULT 0,
        cached_tokens     INTEGER NOT NULL DEFAULT 0,
        reasoning_tokens  INTEGER NOT NULL DEFAULT 0,
        estimated         INTEGER NOT NULL DEFAULT 0,
        cost              REAL,
        priced_as         TEXT,
        endpoint          TEXT
    )
    """,
    "CREATE INDEX IF NOT EXISTS message_usage_by_created ON message_usage(created)",
    # replies whose price is still to be looked up (priced_as NULL; '' = looked up, unknown)
    "CREATE INDEX IF NOT EXISTS message_usage_unpriced ON message_usage(message_id) WHERE priced_as IS NULL",
    f"""
    CREATE TABLE IF NOT EXISTS usage_daily (
        day TEXT NOT NULL, model TEXT NOT NULL, {_USAGE_SUMS},
        PRIMARY KEY (day, model)
    ) WITHOUT ROWID
    """,
    f"""
    CREATE TABLE IF NOT EXISTS usage_by_conversation (
        conversation_id TEXT PRIMARY KEY, {_USAGE_SUMS}
    ) WITHOUT ROWID
    """,
    f"""
    CREATE TRIGGER IF NOT EXISTS message_usage_add AFTER INSERT ON message_usage BEGIN
        INSERT INTO usage_daily (day, model, replies, prompt_tokens, completion_tokens,
            cached_tokens, reasoning_tokens, estimated, unpriced, cost)
        {_USAGE_ADD.format(key="substr(new.created, 1, 10), new.model", columns="day, model")}
        INSERT INTO usage_by_conversation (conversation_id, replies, prompt_tokens,
            completion_tokens, cached_tokens, reasoning_tokens, estimated, unpriced, cost)
        {_USAGE_ADD.format(key="new.conversation_id", columns="conversation_id")}
    END
    """,
    f"""
    CREATE TRIGGER IF NOT EXISTS message_usage_priced AFTER UPDATE OF cost ON message_usage BEGIN
        {_USAGE_PRICED.format(table="usage_daily", where=_DAY_WHERE)}
        {_USAGE_PRICED.format(table="usage_by_conversation", where=_CONVERSATION_WHERE)}
    END
    """,
    f"""
    CREATE TRIGGER IF NOT EXISTS message_usage_remove AFTER DELETE ON message_usage BEGIN
        {_USAGE_REMOVE.format(table="usage_daily", where=_DAY_WHERE)}
        {_USAGE_REMOVE.format(table="usage_by_conversation", where=_CONVERSATION_WHERE)}
    END
    """,
)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "conversations, messages, FTS5 index and its triggers", _V1),
    Migration(2, "conversations.message_count", _V2),
    Migration(3, "stemmed (porter) FTS5 index", _V3),
    Migration(4, "embeddings for semantic recall", _V4),
    Migration(5, "messages.meta: incomplete reason, provider fields, reasoning", _V5),
    Migration(6, "message trees: messages.parent_id, conversations.active_leaf_id", _V6),
    Migration(7, "conversations.branched", _V7),
    Migration(8, "messages_cjk: CJK characters indexed for bigram search", _V8),
    Migration(9, "message_usage: model, tokens and cost per reply", _V9),
)
SCHEMA_VERSION = MIGRATIONS[-1].version


class SchemaTooNewError(Exception):
    """The file was written by a newer agenttui; we do not touch it."""


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def check_not_too_new(conn: sqlite3.Connection) -> int:
    """The file's version; raises SchemaTooNewError (before anything is written)."""
    version = schema_version(conn)
    if version > SCHEMA_VERSION:
        raise SchemaTooNewError(
            f"history database was written by a newer agenttui (schema version {version}; "
            f"this one knows up to {SCHEMA_VERSION}) -- upgrade agenttui to open it"
        )
    return version


def migrate(conn: sqlite3.Connection, target: int | None = None) -> tuple[int, int]:
    """Bring the database up to ``target`` (default: the latest); returns (before, after).

    ``conn`` must be in autocommit mode (``isolation_level=None``). Every
    pending migration runs in one transaction: all of them or none.
    """
    if target is None:
        target = SCHEMA_VERSION
    before = check_not_too_new(conn)
    if before >= target:
        return before, before
    conn.create_function(CJK_UNITS_FUNCTION, 1, index_text, deterministic=True)  # v8's backfill
    conn.execute("BEGIN IMMEDIATE")
    try:
        current = schema_version(conn)  # another process may have migrated meanwhile
        for migration in MIGRATIONS:
            if current < migration.version <= target:
                for statement in migration.statements:
                    conn.execute(statement)
                current = migration.version
        conn.execute(f"PRAGMA user_version = {int(current)}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # some errors (disk full) already rolled back
            conn.execute("ROLLBACK")
        raise
    return before, current
