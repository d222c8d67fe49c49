"""Deletions of a profile, a theme and a project memory file reach two other machines and win
over the edits the deleting machine had already seen, whatever order a third machine receives
the two in; nothing comes back on a later sync."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow


def _write(path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _seed_device(machine, device: str) -> None:
    """Fix the device id ``sync init`` keeps (random otherwise): a sync applies the other
    devices' logs in the order of their ids, and this test needs a's before c's on b."""
    from agenttui.sync.state import SyncState

    state = SyncState(machine.paths.data_dir / "sync" / "state.sqlite3")
    try:
        state.put("device", device)
    finally:
        state.close()


def _trashed(machine, name: str) -> list[str]:
    trash = machine.paths.trash_dir
    return [p.read_text(encoding="utf-8") for p in trash.rglob(name) if p.is_file()] if trash.is_dir() else []


def test_deletions_seen_after_an_edit_win_over_it_on_all_three_machines(machines, target):
    from agenttui.core.config.profiles import ProfileStore

    kind, location, _root = target
    a, b, c = machines("a", "b", "c")
    _seed_device(a, "0a0a0a0a0a0a0a0a")
    _seed_device(c, "0c0c0c0c0c0c0c0c")
    for m in (a, b, c):
        assert m.join(kind, location).code == 0
    ProfileStore(a.paths).create("work")
    _write(a.paths.project_dir("work") / "decisions.md", "# Decisions\n")
    _write(a.paths.user_themes_dir / "dusk.toml", 'name = "dusk"\n')
    _write(a.paths.project_dir("default") / "context.md", "# Context\n")
    for m in (a, b, c):
        m.sync()
    for m in (b, c):
        assert ProfileStore(m.paths).get("work") is not None, m.name
        assert (m.paths.user_themes_dir / "dusk.toml").exists(), m.name

    # c edits; a sees the edits, then deletes everything; b has seen neither when it syncs
    (c.paths.user_themes_dir / "dusk.toml").write_text('name = "dusk"\nprimary = "#aa66cc"\n', encoding="utf-8")
    (c.paths.project_dir("default") / "context.md").write_text("# Context\nedited on c\n", encoding="utf-8")
    (c.paths.project_dir("work") / "decisions.md").write_text("# Decisions\nedited on c\n", encoding="utf-8")
    c.sync()
    a.sync()
    assert "edited on c" in (a.paths.project_dir("default") / "context.md").read_text(encoding="utf-8")
    (a.paths.user_themes_dir / "dusk.toml").unlink()
    (a.paths.project_dir("default") / "context.md").unlink()
    ProfileStore(a.paths).delete("work")
    a.sync()
    b.sync()  # a's deletions (whose base is c's edits) come before c's edits here
    c.sync()

    for m in (a, b, c):
        assert not (m.paths.user_themes_dir / "dusk.toml").exists(), m.name
        assert not (m.paths.project_dir("default") / "context.md").exists(), m.name
        assert "work" not in ProfileStore(m.paths).names(), m.name
    # nothing is lost: each deleted copy went to the machine's trash first
    assert _trashed(b, "dusk.toml") == ['name = "dusk"\n']  # b never had c's edit
    assert any("edited on c" in t for t in _trashed(c, "context.md"))
    assert [p for p in c.paths.trash_dir.iterdir() if p.name.startswith("work-")]
    # and it stays so: every machine agrees, nothing is sent back
    for m in (a, b, c, a, b):
        again = m.sync()
        assert again.out.startswith("sent 0 changes, received 0"), (m.name, again.out)
