"""Property-based fuzzing of every file agenttui reads.

config.toml, profile.toml, themes, memory JSON, the history database and
backup archives, each fed arbitrary bytes and arbitrary well-formed
documents of the right shape (so the fuzz reaches the validators, not just
the parsers). Two properties throughout:

* never a traceback: reading either works or fails with an error the
  policy explains (:func:`agenttui.core.errors.explain` is not None);
* never a silent loss: a file that could not be used is still there byte
  for byte (in place or moved aside to ``NAME.corrupt-<time>``) and a
  sentence says so.

Hypothesis runs without deadlines (no timing in unit tests) and with a
moderate example count; ``HYPOTHESIS_PROFILE=fuzz`` runs many more.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import shutil
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from agenttui.core.config.paths import Paths
from agenttui.core.errors import explain

settings.register_profile("default-faults", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz", max_examples=2_000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings.get_profile("fuzz" if os.environ.get("HYPOTHESIS_PROFILE") == "fuzz" else "default-faults")


@contextmanager
def fresh_paths() -> Iterator[Paths]:
    """A new AGENTTUI_HOME per example (pytest's tmp_path is per test, not per example)."""
    root = Path(tempfile.mkdtemp(prefix="agenttui-fuzz-"))
    try:
        yield Paths(config_dir=root / "config", data_dir=root / "data")
    finally:
        shutil.rmtree(root, ignore_errors=True)


def kept_somewhere(path: Path, original: bytes) -> bool:
    """``original`` is still on disk: at ``path`` or in one of its moved-aside copies."""
    candidates = [path] + sorted(path.parent.glob(path.name + ".*"))
    return any(p.is_file() and p.read_bytes() == original for p in candidates)


def expected(exc: BaseException) -> bool:
    return explain(exc) is not None


# -- TOML-shaped values ---------------------------------------------------------------
SCALARS = (st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=40))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=12), inner, max_size=4), max_leaves=12)


def _setting_names() -> dict[str, list[str]]:
    from agenttui.core.config.settings import Settings

    sections: dict[str, list[str]] = {"": []}
    for f in dataclasses.fields(Settings):
        default = getattr(Settings(), f.name)
        if dataclasses.is_dataclass(default):
            sections[f.name] = [g.name for g in dataclasses.fields(default)]
        else:
            sections[""].append(f.name)
    return sections


SECTIONS = _setting_names()


@st.composite
def config_documents(draw) -> dict:
    """A TOML document over the real section and key names (plus strangers)."""
    doc: dict = {}
    for section, keys in SECTIONS.items():
        if not draw(st.booleans()):
            continue
        chosen = draw(st.lists(st.sampled_from(keys) | st.text(min_size=1, max_size=10), max_size=5))
        table = {key: draw(VALUES) for key in chosen}
        if section:
            doc[section] = table if draw(st.integers(0, 9)) else draw(VALUES)  # sometimes not a table
        else:
            doc.update(table)
    return doc


def _toml(doc: dict) -> bytes | None:
    import tomli_w

    try:
        return tomli_w.dumps(doc).encode()
    except (TypeError, ValueError):  # e.g. a list mixing tables and scalars tomli_w cannot write
        return None


# -- config.toml -------------------------------------------------------------------------
def _load_config(paths: Paths, raw: bytes):
    from agenttui.core.config.file import load_settings

    paths.config_file.parent.mkdir(parents=True, exist_ok=True)
    paths.config_file.write_bytes(raw)
    loaded = load_settings(paths)  # must not raise
    assert all(isinstance(w, str) and w for w in loaded.warnings)
    assert paths.config_file.read_bytes() == raw  # reading never rewrites the user's file
    return loaded


@FUZZ
@given(st.binary(max_size=400))
def test_config_any_bytes(raw):
    with fresh_paths() as paths:
        loaded = _load_config(paths, raw)
        if loaded.error is not None:
            assert str(paths.config_file) in str(loaded.error)


@pytest.mark.slow
@FUZZ
@given(config_documents())
def test_config_any_document(doc):
    raw = _toml(doc)
    assume(raw is not None)
    from agenttui.core.config.settings import Settings

    with fresh_paths() as paths:
        loaded = _load_config(paths, raw)
        assert loaded.error is None  # valid TOML: values are judged one by one
        defaults, said = Settings(), " ".join(loaded.warnings)
        for section, table in doc.items():  # never silent: a value not used is named in a warning
            if section in SECTIONS and section and isinstance(table, dict):
                for key, value in table.items():
                    if key in SECTIONS[section]:
                        got = getattr(getattr(loaded.settings, section), key)
                        if not _same(got, value):
                            assert key in said, (section, key, value, got, loaded.warnings)
                            assert got == getattr(getattr(defaults, section), key)


def _same(got, value) -> bool:
    """The setting holds the value given (True is not 1 here; NaN is never the same)."""
    if isinstance(got, bool) or isinstance(value, bool):
        return got is value
    if isinstance(got, list | tuple) and isinstance(value, list | tuple):
        return len(got) == len(value) and all(_same(a, b) for a, b in zip(got, value, strict=True))
    try:
        return bool(got == value)
    except Exception:  # noqa: BLE001 -- incomparable means not the same
        return False


# -- profile.toml ------------------------------------------------------------------------
@pytest.mark.slow
@FUZZ
@given(st.binary(max_size=300) | config_documents().map(_toml).filter(bool))
def test_profile_file_any_content(raw):
    from agenttui.core.config.profiles import ProfileStore

    with fresh_paths() as paths:
        store = ProfileStore(paths)
        store.create("work")
        path = paths.profile_file("work")
        path.write_bytes(raw)
        profile = store.get("work")  # must not raise
        assert profile is not None and profile.name == "work"
        assert kept_somewhere(path, raw)
        if not path.exists():  # moved aside: said
            assert any(str(path) in p for p in store.problems)


# -- themes ------------------------------------------------------------------------------
THEME_KEYS = ["name", "primary", "secondary", "accent", "foreground", "background", "surface",
              "panel", "boost", "warning", "error", "success", "dark", "variables"]


@pytest.mark.slow
@FUZZ
@given(st.binary(max_size=300)
       | st.dictionaries(st.sampled_from(THEME_KEYS) | st.text(max_size=8), VALUES, max_size=8)
       .map(_toml).filter(bool))
def test_theme_file_any_content(raw):
    from agenttui.ui.themes import load_themes

    with fresh_paths() as paths:
        folder = paths.user_themes_dir
        folder.mkdir(parents=True)
        (folder / "mine.toml").write_bytes(raw)
        loaded = load_themes(folder)  # must not raise
        assert loaded.themes  # the built-ins are still there
        assert (folder / "mine.toml").read_bytes() == raw


# -- memory JSON ----------------------------------------------------------------------
ITEM_KEYS = ["id", "kind", "scope", "text", "key", "value", "source", "confidence", "created",
             "updated", "expires", "last_used", "use_count", "pinned", "origin"]
JSON_SCALARS = (st.none() | st.booleans() | st.integers() | st.text(max_size=30)
                | st.floats(allow_nan=True, allow_infinity=True)
                | st.sampled_from(["note", "fact", "user", "explicit", "2026-01-02T03:04:05+00:00"]))
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)
ITEMS = st.dictionaries(st.sampled_from(ITEM_KEYS), JSON_VALUES, max_size=10)


@st.composite
def memory_documents(draw) -> bytes:
    doc = {"schema": draw(st.sampled_from([1, 1, 1, 2, "1", None])), "scope": "user",
           "items": draw(st.lists(ITEMS | JSON_VALUES, max_size=4)),
           "archive": draw(st.lists(ITEMS, max_size=2) | JSON_VALUES)}
    for key in draw(st.lists(st.sampled_from(list(doc)), max_size=2)):
        doc.pop(key, None)
    return json.dumps(doc, allow_nan=True).encode()


@pytest.mark.slow
@FUZZ
@given(st.binary(max_size=300) | memory_documents())
def test_memory_file_any_content(raw):
    from agenttui.core.memory.store import MemoryStore

    with fresh_paths() as paths:
        path = paths.user_memory_file
        path.parent.mkdir(parents=True)
        path.write_bytes(raw)
        store = MemoryStore(paths, "default")
        items = store.items("all")  # must not raise
        problems = store.problems
        assert kept_somewhere(path, raw)  # never a silent loss
        if path.exists() and path.read_bytes() != raw:
            assert any(str(path) in p for p in problems)  # rewritten: said
        store.add_note("memory still works after this file", source="explicit")
        assert len(store.items("all")) == len(items) + 1


# -- the history database ---------------------------------------------------------------
def _valid_database(path: Path) -> bytes:
    from agenttui.core.history.store import HistoryStore
    from agenttui.core.models import Message

    with HistoryStore(path) as store:
        cid = store.create_conversation(title="tea").id
        for n in range(3):
            store.append(cid, Message(role="user", content=f"I drink tea, cup {n}"))
    return path.read_bytes()


_TEMPLATE: list[bytes] = []


def _template() -> bytes:
    if not _TEMPLATE:
        with fresh_paths() as paths:
            _TEMPLATE.append(_valid_database(paths.history_db("default")))
    return _TEMPLATE[0]


def _use_history(path: Path) -> None:
    from agenttui.core.history.store import HistoryStore
    from agenttui.core.models import Message

    store = HistoryStore(path, busy_timeout=0.2)
    try:
        for call in (lambda: store.list_conversations(archived=None),
                     lambda: [store.messages(c.id) for c in store.list_conversations(archived=None)],
                     lambda: store.search("tea"),
                     lambda: store.append(store.create_conversation().id,
                                          Message(role="user", content="still works?"))):
            try:
                call()
            except Exception as exc:  # noqa: BLE001 -- the property: only explained failures
                assert expected(exc), repr(exc)
    finally:
        store.close()


@pytest.mark.slow
@FUZZ
@given(st.binary(max_size=2_000))
def test_history_database_any_bytes(raw):
    with fresh_paths() as paths:
        path = paths.history_db("default")
        path.parent.mkdir(parents=True)
        path.write_bytes(raw)
        _use_history(path)
        assert kept_somewhere(path, raw) or not raw  # SQLite may start an empty file itself


@pytest.mark.slow
@FUZZ
@given(st.lists(st.tuples(st.integers(min_value=0), st.integers(0, 255)), min_size=1, max_size=12))
def test_history_database_with_damaged_bytes(flips):
    data = bytearray(_template())
    for offset, value in flips:
        data[offset % len(data)] = value
    with fresh_paths() as paths:
        path = paths.history_db("default")
        path.parent.mkdir(parents=True)
        path.write_bytes(bytes(data))
        _use_history(path)
        assert kept_somewhere(path, bytes(data)) or path.exists()


# -- backup archives ------------------------------------------------------------------
MEMBER_NAMES = st.sampled_from([
    "manifest.json", "config/config.toml", "data/memory/user.json", "data/profiles/work/memory.json",
    "data/profiles/work/history.sqlite3", "config/themes/x.toml", "config/evil.sh", "../escape",
    "/abs", "data/../../x", "data/.hidden", "data/backups/old.tar.gz",
]) | st.text(min_size=1, max_size=20)


@st.composite
def archives(draw) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=draw(st.sampled_from(["w:gz", "w"]))) as tar:
        for name in draw(st.lists(MEMBER_NAMES, max_size=5)):
            info = tarfile.TarInfo(name)
            kind = draw(st.sampled_from([tarfile.REGTYPE, tarfile.REGTYPE, tarfile.DIRTYPE,
                                         tarfile.SYMTYPE]))
            info.type = kind
            body = b""
            if kind == tarfile.REGTYPE:
                body = (json.dumps({"format": "agenttui-backup", "version": draw(st.integers(0, 3)),
                                    "contents": []}).encode() if name == "manifest.json"
                        else draw(st.binary(max_size=60)))
                info.size = len(body)
            elif kind == tarfile.SYMTYPE:
                info.linkname = draw(st.sampled_from(["/etc/passwd", "../x", "config.toml"]))
            try:
                tar.addfile(info, io.BytesIO(body) if kind == tarfile.REGTYPE else None)
            except (ValueError, UnicodeError):
                continue
    return buffer.getvalue()


def _dot_member() -> bytes:
    """Found by this fuzzer: a member named "." (no path parts) crashed the path check."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        info = tarfile.TarInfo(".")
        info.type = tarfile.DIRTYPE
        tar.addfile(info)
    return buffer.getvalue()


@pytest.mark.slow
@FUZZ
@given(st.binary(max_size=400) | archives())
@example(raw=_dot_member())
def test_backup_archive_any_content(raw):
    from agenttui.core.backup.archive import BackupError, restore_backup
    from agenttui.core.memory.store import MemoryStore

    with fresh_paths() as paths:
        MemoryStore(paths, "default").add_note("the note before the restore", source="explicit")
        before = paths.user_memory_file.read_bytes()
        archive = paths.data_dir.parent / "in.tar.gz"
        archive.write_bytes(raw)
        try:
            restore_backup(paths, archive)
        except BackupError as exc:
            assert expected(exc) and str(exc)
            assert paths.user_memory_file.read_bytes() == before  # refused: nothing changed
        except Exception as exc:  # noqa: BLE001
            assert expected(exc), repr(exc)
        assert archive.read_bytes() == raw
        MemoryStore(paths, "default").items("all")  # whatever was restored still loads
