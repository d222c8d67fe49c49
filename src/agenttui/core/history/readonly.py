"""A history store that cannot change the data dir (for ``agenttui ask --dry-run``).

:class:`ReadOnlyHistoryStore` is a :class:`~agenttui.core.history.store.HistoryStore`
whose every query works and every write fails, and whose open and close leave
each file byte for byte as it was. The plain store's open may create the file,
migrate it, move a corrupt one aside; its close runs ``PRAGMA optimize``
(which may ANALYZE, i.e. write). Here instead:

* no database file: an empty in-memory database with the current schema (as a
  fresh profile would have), nothing created on disk;
* the file is opened read-write but ``PRAGMA query_only`` is on, so no SQL can
  write. Read-write rather than ``mode=ro`` on purpose: a read-only
  connection to a WAL database leaves ``-wal``/``-shm`` files behind, while
  the last read-write connection removes them on close (the main file is not
  touched: nothing is in the WAL to checkpoint);
* a file from an older agenttui (schema below the current one) is not
  migrated: :class:`HistoryError` says to run any other command first; a
  corrupt one is reported, not moved aside;
* ``close`` skips ``PRAGMA optimize``.
"""

from __future__ import annotations

import sqlite3

from agenttui.core.history.schema import SCHEMA_VERSION, SchemaTooNewError, check_not_too_new, migrate
from agenttui.core.history.store import HistoryError, HistoryStore


class ReadOnlyHistoryStore(HistoryStore):
    """See the module doc."""

    def _open(self) -> sqlite3.Connection:
        if not self.db_path.exists():
            conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            migrate(conn)
            conn.execute("PRAGMA query_only = ON")
            return conn
        # mode=rw: never create the file, should it vanish after the check above
        uri = self.db_path.resolve().as_uri() + "?mode=rw"
        conn = sqlite3.connect(uri, uri=True, timeout=self.busy_timeout,
                               isolation_level=None, check_same_thread=False)
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
            conn.execute("PRAGMA query_only = ON")
            version = check_not_too_new(conn)
            if version < SCHEMA_VERSION:
                raise HistoryError(
                    f"history database {self.db_path} is from an older agenttui (schema version "
                    f"{version}, now {SCHEMA_VERSION}); run any other command once (e.g. "
                    "`agenttui history list`) to upgrade it, then try again")
        except SchemaTooNewError as exc:
            conn.close()
            raise HistoryError(str(exc)) from exc
        except BaseException:
            conn.close()
            raise
        return conn

    def _quarantine(self, detail: str) -> None:
        raise HistoryError(f"history database {self.db_path} could not be read ({detail}); "
                           "left as it is")

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
