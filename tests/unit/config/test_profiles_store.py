"""Profiles: create, list, bind, resolve, delete."""

from __future__ import annotations

import pytest

from agenttui.core.config.paths import InvalidProfileName
from agenttui.core.config.profiles import Profile, ProfileError, ProfileExists, ProfileNotFound, ProfileStore
from agenttui.core.config.settings import Settings


def test_default_is_always_listed(paths):
    store = ProfileStore(paths)
    assert [p.name for p in store.list()] == ["default"]
    assert store.get("default") == Profile(name="default")
    assert store.get("nope") is None
    assert not paths.data_dir.exists()  # listing creates nothing


def test_create_list_and_duplicate(paths, tmp_path):
    store = ProfileStore(paths)
    store.create("work", bind=tmp_path)
    store.create("alpha")
    assert [p.name for p in store.list()] == ["default", "alpha", "work"]
    assert store.get("work").paths == [tmp_path.resolve()]
    with pytest.raises(ProfileExists):
        store.create("work")
    with pytest.raises(InvalidProfileName):
        store.create("../escape")


def test_resolve_nearest_binding_wins(paths, tmp_path):
    outer = tmp_path / "repo"
    inner = outer / "packages" / "api"
    (inner / "src").mkdir(parents=True)
    store = ProfileStore(paths)
    store.create("repo", bind=outer)
    store.create("api", bind=inner)
    assert store.resolve(inner / "src").name == "api"
    assert store.resolve(inner).name == "api"
    assert store.resolve(outer / "packages").name == "repo"
    assert store.resolve(tmp_path).name == "default"


def test_resolve_follows_symlinks(paths, tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    store = ProfileStore(paths)
    store.create("proj", bind=link)
    assert store.resolve(real).name == "proj"
    assert store.resolve(link).name == "proj"


def test_override_wins_and_unknown_override_lists_profiles(paths, tmp_path):
    store = ProfileStore(paths)
    store.create("bound", bind=tmp_path)
    store.create("other")
    assert store.resolve(tmp_path, "other").name == "other"
    assert store.resolve(tmp_path, "default").name == "default"
    with pytest.raises(ProfileNotFound, match="default, bound, other"):
        store.resolve(tmp_path, "typo")


def test_a_directory_binds_to_one_profile(paths, tmp_path):
    store = ProfileStore(paths)
    store.create("a", bind=tmp_path)
    store.create("b")
    with pytest.raises(ProfileError, match="already bound"):
        store.bind("b", tmp_path)
    store.bind("a", tmp_path)  # idempotent
    assert store.get("a").paths == [tmp_path.resolve()]


def test_delete_moves_to_trash(paths):
    store = ProfileStore(paths)
    store.create("gone")
    marker = paths.profile_dir("gone") / "memory.json"
    marker.write_text("{}")
    trashed = store.delete("gone")
    assert trashed.parent == paths.trash_dir and trashed.name.startswith("gone-")
    assert (trashed / "memory.json").read_text() == "{}"
    assert store.get("gone") is None
    with pytest.raises(ProfileNotFound):
        store.delete("gone")


def test_deleting_default_trashes_its_data_and_it_comes_back_empty(paths):
    store = ProfileStore(paths)
    paths.profile_dir("default").mkdir(parents=True)
    (paths.profile_dir("default") / "memory.json").write_text("{}")
    trashed = store.delete("default")
    assert (trashed / "memory.json").exists()
    assert store.get("default") == Profile(name="default")


def test_corrupt_profile_file_is_quarantined_and_reported(paths, tmp_path):
    store = ProfileStore(paths)
    store.create("broken")
    paths.profile_file("broken").write_text("paths = [\n")
    profile = store.get("broken")
    assert profile == Profile(name="broken")
    assert not paths.profile_file("broken").exists()
    moved = list(paths.profile_dir("broken").glob("profile.toml.corrupt-*"))
    assert len(moved) == 1 and moved[0].read_text() == "paths = [\n"
    assert any(str(moved[0]) in p for p in store.problems)
    assert store.resolve(tmp_path).name == "default"


def test_apply_overrides_is_a_deep_copy(paths):
    base = Settings()
    profile = Profile(name="p", model="local", temperature=0.1, tools=["remember"],
                      memory={"max_notes": 5, "inject_notes": "bad"})
    applied = profile.apply(base)
    assert applied.model == "local" and applied.temperature == 0.1
    assert applied.agent.tools == ["remember"]
    assert applied.memory.max_notes == 5 and applied.memory.inject_notes == Settings().memory.inject_notes
    assert base.model == Settings().model and base.memory.max_notes == Settings().memory.max_notes
    assert base.agent.tools == Settings().agent.tools


def test_overrides_round_trip_through_profile_toml(paths):
    store = ProfileStore(paths)
    store.create("p")
    store.save(Profile(name="p", model="m", soul="be brief", memory={"max_notes": 7}))
    loaded = store.get("p")
    assert (loaded.model, loaded.soul, loaded.memory) == ("m", "be brief", {"max_notes": 7})
