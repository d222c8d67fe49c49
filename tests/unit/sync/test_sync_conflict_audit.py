"""A note edited on two machines before either synced: the memory audit of each machine
that saw both versions flags it as a conflict, naming both machines, the version kept and
the other one; an edit after the sync settles it."""

from __future__ import annotations

import json

import pytest

from agenttui.core.audit.findings import audit
from agenttui.core.models import MemoryItem

pytestmark = pytest.mark.slow


def _audit(machine) -> dict[str, dict]:
    result = machine.run("memory", "audit", "--json")
    assert result.code == 0, result.err
    return {f["item"]["text"]: f for f in json.loads(result.out)}


def test_the_audit_shows_a_note_edited_on_two_machines_as_a_conflict(machines, tmp_path):
    a, b = machines("a", "b")
    folder = str(tmp_path / "Sync")
    for m in (a, b):
        assert m.join("folder", folder).code == 0
    note_id = a.memory().add_note("dentist on Monday").item.id
    a.memory().add_note("an untouched note")
    a.sync()
    b.sync()
    a.memory().edit(note_id, text="dentist on Tuesday")
    b.memory().edit(note_id, text="dentist on Friday")
    a.sync()
    b.sync()
    a.sync()

    winner = a.notes()
    assert winner == b.notes()
    kept = "dentist on Tuesday" if "dentist on Tuesday" in winner else "dentist on Friday"
    other = ({"dentist on Tuesday", "dentist on Friday"} - {kept}).pop()
    kept_on = "a" if kept == "dentist on Tuesday" else "b"
    for m in (a, b):
        findings = _audit(m)
        flagged = findings[kept]
        assert "conflict" in flagged["flags"], (m.name, flagged)
        reason = flagged["reasons"]["conflict"]
        assert reason.startswith(("Edited on a and b;", "Edited on b and a;")), reason
        assert f"kept {kept_on}'s version" in reason and other in reason, reason
        assert "an untouched note" not in findings  # clean items are not listed

    # the user settles it: an edit after the sync clears the flag on this machine
    a.memory().edit(note_id, text="dentist on Wednesday")
    a.sync()
    assert "dentist on Wednesday" not in _audit(a)


def test_a_sync_conflict_joins_a_fact_clash_in_one_flag():
    note = MemoryItem.from_dict({"id": "n1", "kind": "note", "text": "likes tea", "scope": "user"})
    one = MemoryItem.from_dict({"id": "f1", "kind": "fact", "key": "city", "value": "Oslo", "scope": "user"})
    two = MemoryItem.from_dict({"id": "f2", "kind": "fact", "key": "city", "value": "Bergen", "scope": "user"})
    plain = audit([note, one, two])
    assert [f.flags for f in plain] == [[], ["conflict"], ["conflict"]]
    found = audit([note, one, two], sync_conflicts={"n1": "Edited on a and b; kept a's version, other version: "
                                                          "'likes coffee'.",
                                                    "f1": "Edited on b and c."})
    assert found[0].flags == ["conflict"] and "likes coffee" in found[0].reasons["conflict"]
    assert found[1].flags == ["conflict"]  # once, with both reasons
    assert "Bergen" in found[1].reasons["conflict"] and "Edited on b and c." in found[1].reasons["conflict"]
