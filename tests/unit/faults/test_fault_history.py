"""The history database under faults.

Real SQLite throughout: a database that cannot grow (``PRAGMA
max_page_count``) answers SQLITE_FULL exactly as a full disk does; a second
connection holding the write lock makes SQLITE_BUSY; a newer ``user_version``
and a dropped table are what a newer agenttui or a bad hand edit leave.
"""

from __future__ import annotations

import errno
import sqlite3

import pytest

from agenttui.cli import main
from agenttui.core.errors import explain
from agenttui.core.history.store import HistoryError, HistoryStore, HistoryWriteError
from agenttui.core.models import Message
from tests.unit.faults.conftest import WORDS, fail_os

SECRET = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"  # a GitHub token shape (redaction corpus)


@pytest.fixture
def db_path(paths):
    return paths.history_db("default")


def cannot_grow(monkeypatch):
    """Every new SQLite connection gets ``max_page_count`` = its current size."""
    real = sqlite3.connect

    def connect(*args, **kwargs):
        conn = real(*args, **kwargs)
        conn.execute("PRAGMA max_page_count = 1")  # clamps to the current page count
        return conn

    monkeypatch.setattr(sqlite3, "connect", connect)


def test_a_full_database_is_explained_and_the_store_keeps_working(db_path, monkeypatch):
    store = HistoryStore(db_path)
    cid = store.create_conversation().id
    store.close()
    with monkeypatch.context() as patch:
        cannot_grow(patch)
        full = HistoryStore(db_path)
        with pytest.raises(HistoryWriteError) as caught:
            full.append(cid, Message(role="user", content="x" * 50_000))
        full.close()
    message = explain(caught.value)
    assert message and "disk is full" in message.lower() and str(db_path) in message
    again = HistoryStore(db_path)  # room again: the same append works, nothing half-written
    assert again.count_messages(cid) == 0
    again.append(cid, Message(role="user", content="x" * 50_000))
    assert again.count_messages(cid) == 1
    again.close()


def test_a_locked_database_says_another_process_holds_it(db_path):
    with HistoryStore(db_path) as store:
        store.create_conversation()
    holder = sqlite3.connect(str(db_path), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        store = HistoryStore(db_path, busy_timeout=0.1)
        with pytest.raises(HistoryError) as caught:
            store.create_conversation()
        store.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    message = explain(caught.value)
    assert message and "locked" in message and "Another agenttui process" in message


@pytest.mark.parametrize("code", [errno.EROFS, errno.EACCES], ids=["read-only", "permission"])
def test_a_database_that_cannot_be_opened_names_the_file(code, db_path, isolated_home, monkeypatch, capsys):
    with monkeypatch.context() as patch:
        fail_os(patch, code, isolated_home)
        assert main(["history", "list"]) == 1
    err = capsys.readouterr().err
    assert WORDS[code] in err.lower() and str(db_path) in err and "Traceback" not in err


def test_a_newer_database_is_refused_with_a_message_not_a_traceback(db_path, capsys):
    with HistoryStore(db_path) as store:
        store.create_conversation()
    conn = sqlite3.connect(str(db_path))
    conn.execute("PRAGMA user_version = 999")
    conn.commit()
    conn.close()
    before = db_path.read_bytes()
    assert main(["history", "list"]) == 1
    err = capsys.readouterr().err
    assert "newer agenttui" in err and "upgrade agenttui" in err and str(db_path) in err
    assert "Traceback" not in err
    assert db_path.read_bytes() == before  # not touched


def test_a_database_with_a_table_missing_is_reported_by_name(db_path, capsys):
    with HistoryStore(db_path) as store:
        store.create_conversation()
    conn = sqlite3.connect(str(db_path))
    conn.execute("DROP TABLE messages")
    conn.commit()
    conn.close()
    assert main(["history", "list"]) == 1
    err = capsys.readouterr().err
    assert "damaged" in err and "messages" in err and str(db_path) in err, err
    assert "agenttui backup restore" in err and "Traceback" not in err
    assert main(["history", "search", "tea"]) == 0  # recall carries on with memory and says why
    err = capsys.readouterr().err
    assert "warning: history could not be searched" in err and "damaged" in err
    assert db_path.exists()  # nothing moved or deleted behind the user's back


def test_a_corrupt_database_moved_aside_is_said_on_stderr(db_path, capsys):
    db_path.parent.mkdir(parents=True)
    db_path.write_bytes(b"this is not a database" * 100)
    assert main(["history", "list"]) == 0
    captured = capsys.readouterr()
    assert "no conversations yet" in captured.out
    assert "could not be read" in captured.err and "moved aside to" in captured.err
    moved = [p for p in db_path.parent.iterdir() if ".corrupt-" in p.name]
    assert len(moved) == 1 and moved[0].read_bytes() == b"this is not a database" * 100
    assert str(moved[0]) in captured.err


@pytest.mark.slow
def test_ask_never_exits_0_holding_unsaved_messages(fake_openai, services, monkeypatch, capsys):
    """The database cannot take the turn; exit 1 and the text in a recovery file."""
    cid = services.history.create_conversation().id
    services.close()
    fake_openai.reply("Noted: your tea preference.")
    question = f"I drink tea, remember that. my token is {SECRET} " + "filler " * 5_000
    with monkeypatch.context() as patch:
        cannot_grow(patch)
        code = main(["ask", question])
    captured = capsys.readouterr()
    assert code == 1, captured.err
    assert "Noted: your tea preference." in captured.out  # the reply was shown ...
    assert "could not be saved to history" in captured.err  # ... and the failure said
    assert "Traceback" not in captured.err
    recovery = [p for p in (services.paths.data_dir.parent / "recovery").iterdir()]
    assert len(recovery) == 1 and str(recovery[0]) in captured.err
    text = recovery[0].read_text()
    assert "I drink tea, remember that." in text and "Noted: your tea preference." in text
    assert SECRET not in text and "[REDACTED" in text  # redacted like history
    assert recovery[0].stat().st_mode & 0o777 == 0o600
    store = HistoryStore(services.paths.history_db("default"))
    assert store.count_messages(cid) == 0  # nothing half-saved either
    store.close()


def test_ask_exits_0_when_a_retry_saved_everything(fake_openai, services, capsys):
    fake_openai.reply("fine")
    assert main(["ask", "hello there"]) == 0
    captured = capsys.readouterr()
    assert "could not be saved" not in captured.err
    assert not (services.paths.data_dir.parent / "recovery").exists()
