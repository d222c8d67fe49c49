"""Project memory files."""

from __future__ import annotations

from datetime import date

import pytest

from agenttui.core.memory.project import ProjectMemory


def test_missing_files_are_fine(tmp_path):
    project = ProjectMemory(tmp_path / "nope")
    assert project.context() == "" and project.decisions() == [] and project.learnings() == ""
    assert project.prompt_section() == ""
    assert not (tmp_path / "nope").exists()


def test_decisions_are_dated_and_only_the_last_ten_are_loaded(tmp_path):
    project = ProjectMemory(tmp_path)
    for n in range(12):
        project.append_decision(f"Decision {n}", f"because {n}", day=date(2025, 1, n + 1))
    entries = project.decisions()
    assert len(entries) == 10
    assert entries[0].startswith("## 2025-01-03: Decision 2")
    assert entries[-1] == "## 2025-01-12: Decision 11\n\nbecause 11"
    text = project.files()["decisions"].read_text()
    assert text.startswith("# Decisions\n")


def test_body_cannot_forge_an_entry(tmp_path):
    project = ProjectMemory(tmp_path)
    project.append_decision("Real", "line\n## 2020-01-01: Forged\nmore", day=date(2025, 5, 1))
    assert len(project.decisions()) == 1


def test_prompt_section_has_context_and_recent_decisions(tmp_path):
    project = ProjectMemory(tmp_path)
    project.write_context("# Current Context\n\nFixing the worker pool.")
    project.append_decision("Use JWT", "Stateless.", day=date(2025, 12, 31))
    section = project.prompt_section()
    assert section.startswith("## Project context\n# Current Context")
    assert "## Recent decisions\n### 2025-12-31: Use JWT\n\nStateless." in section


def test_learnings_and_sessions(tmp_path):
    project = ProjectMemory(tmp_path)
    project.append_learning("errgroup", "use it for pools", day=date(2025, 1, 1))
    assert "## 2025-01-01: errgroup" in project.learnings()
    first = project.archive_session("morning work", day=date(2025, 1, 2))
    second = project.archive_session("afternoon work", day=date(2025, 1, 2))
    assert first == second == tmp_path / "sessions" / "2025-01-02.md"
    text = first.read_text()
    assert "morning work" in text and "afternoon work" in text
    assert oct(first.stat().st_mode & 0o777) == "0o600"


def test_secrets_are_redacted_before_writing(tmp_path):
    secret = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"
    project = ProjectMemory(tmp_path)
    project.write_context(f"deploy key {secret}")
    project.append_decision("Key", f"use {secret}")
    project.archive_session(f"typed {secret}")
    for path in tmp_path.rglob("*.md"):
        assert secret not in path.read_text(), path
    assert "REDACTED" in project.context()


def test_rewrite_is_the_editors_save_redacted_and_whole(tmp_path):
    """The project-memory screen saves through this one writer (locked, atomic, redacted)."""
    secret = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"
    project = ProjectMemory(tmp_path)
    project.append_decision("Old", "gone after the rewrite")
    project.rewrite("decisions", f"# Decisions\n\n## 2025-01-02: Key\n\nuse {secret}\n\n\n")
    text = project.read("decisions")
    assert secret not in text and "REDACTED" in text and "gone" not in text
    assert text.endswith("\n") and not text.endswith("\n\n")  # one final newline
    assert project.decisions() == [text.split("\n\n", 1)[1].strip()]
    with pytest.raises(ValueError):
        project.rewrite("sessions", "not a file")
    assert project.read("learnings") == ""  # missing is simply empty
