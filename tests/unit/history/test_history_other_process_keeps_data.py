"""Another agenttui process never makes this one lose data (two real processes).

SQLite's locks are POSIX advisory locks, held per process and per file: when
this process closes *any* descriptor of the database file -- one opened outside
SQLite to read its header, to create it, to copy or hash it -- the kernel drops
every lock SQLite holds on it. Another process that then closes its last
connection believes it is the only one, checkpoints and deletes ``-wal`` and
``-shm``; this process goes on writing to a WAL nobody else sees (``/proc``
shows it as ``history.sqlite3-wal (deleted)``) and, at its own close, copies
those stale pages over what the other process wrote.

Here the app's services run in this process (incognito on and off, which opens
a second, read-only store on the same file while the first one is open) and
``agenttui history import FILE`` runs as a second process.
"""

from __future__ import annotations

import json

import pytest

from agenttui.bootstrap import build_services
from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message
from tests.other_processes import contents, deleted_sidecars, export_document, run_cli


def incognito_and_back(services) -> str:
    """/incognito, a message, /incognito (not saved): a read-only view opened beside ours."""
    twin = services.incognito_twin()
    secret = twin.history.create_conversation()
    twin.history.append(secret.id, Message(role="user", content="not saved"))
    twin.history.discard()
    return secret.id


def a_second_store_opened_and_closed(services) -> str:
    """Another store on the same file in this process (the data watcher's reopen, a CLI
    command's second look): opening it must not disturb the one already open."""
    other = HistoryStore(services.history.db_path)
    other.list_conversations()
    other.close()
    return "no conversation of its own"


@pytest.mark.slow
@pytest.mark.parametrize("beside", [incognito_and_back, a_second_store_opened_and_closed])
def test_an_import_in_another_process_loses_nothing(beside, paths, tmp_path):
    services = build_services(paths=paths, cwd=tmp_path)
    db = paths.history_db(services.profile_name)
    history = services.history
    chat = history.create_conversation("kept").id
    history.append(chat, Message(role="user", content="before"))
    secret = beside(services)
    history.append(chat, Message(role="user", content="after"))

    imported = {}
    for round_ in range(2):  # the second import reads a file the first one left as it was
        cid = f"{round_:032x}"
        source = tmp_path / f"import-{round_}.json"
        imported[cid] = [f"hello {round_}", f"hi {round_}"]
        source.write_text(json.dumps(export_document(cid, f"imported {round_}", imported[cid])))
        done = run_cli("history", "import", str(source))
        assert done.returncode == 0, done.stderr
        assert deleted_sidecars(db) == []  # our WAL is the one everybody uses
        for n in range(20):  # enough writes to touch the pages the import wrote
            history.append(chat, Message(role="user", content=f"after import {round_}: {n}"))
    services.close()

    found, verdict = contents(db)
    assert verdict == "ok"
    for cid, texts in imported.items():
        assert found.get(cid) == texts
    assert found.get(chat) == ["before", "after",
                               *(f"after import {r}: {n}" for r in range(2) for n in range(20))]
    assert secret not in found


def test_a_live_database_given_as_a_file_to_read_is_refused_unread(paths, tmp_path):
    """Importers read a user's file with plain ``open``: were it a database this process
    has open (the history itself, given by mistake), closing it would drop our locks."""
    from agenttui.core.files import sqlite_in_use
    from agenttui.core.history.importer import ImportFormatError, read_export
    from agenttui.core.memory.importer import MemoryImportError, read_notes_file

    store = HistoryStore(paths.history_db("default"))
    store.create_conversation("open")
    db = store.db_path
    try:
        assert sqlite_in_use(db) and sqlite_in_use(db.with_name(db.name + "-wal"))
        with pytest.raises(ImportFormatError, match="database in use"):
            read_export(db)
        with pytest.raises(MemoryImportError, match="database in use"):
            read_notes_file(db.with_name(db.name + "-shm"))
    finally:
        store.close()
    assert not sqlite_in_use(db)  # closed: -wal and -shm are gone, it is a file like any other
    plain = tmp_path / "notes-wal"
    plain.write_text("- a note\n")
    assert not sqlite_in_use(plain)
