"""Three machines, one target (a bare git repository over file://, or a folder): what one
machine adds, forgets or edits reaches the others, and every machine ends the same."""

from __future__ import annotations

import json

import pytest

from agenttui.core.models import Message

pytestmark = pytest.mark.slow


def _setup(machines, target):
    kind, location, _root = target
    a, b, c = machines("a", "b", "c")
    for m in (a, b, c):
        result = m.join(kind, location)
        assert result.code == 0, result.err
    return a, b, c


def _conversation_with_a_branch(machine):
    with machine.history() as store:
        conv = store.create_conversation("Trip planning")
        question = store.append(conv.id, Message(role="user", content="Where should we go in May?"))
        store.append(conv.id, Message(role="assistant", content="Lisbon is warm in May."))
        # an edited question: a sibling of the first one, with its own reply
        store.append(conv.id, Message(role="user", content="Where should we go in June?", parent_id=0))
        store.append(conv.id, Message(role="assistant", content="Oslo has long days in June."))
        assert store.has_branches(conv.id) and question.id is not None


def test_notes_and_conversations_added_on_one_machine_reach_the_others(machines, target):
    a, b, c = _setup(machines, target)
    assert a.memory().add_note("prefers metric units").status in ("added", "updated")
    a.memory().set_fact("editor", "helix")
    _conversation_with_a_branch(a)
    c.memory().add_note("works on the billing service", scope="profile")

    first = a.sync()
    assert "sent" in first.out
    c.sync()
    b.sync()
    a.sync()
    c.sync()

    expected_notes = ["editor = helix", "prefers metric units", "works on the billing service"]
    expected_history = a.conversations()
    assert set(expected_history) == {"Trip planning"}
    for m in (a, b, c):
        assert m.notes() == expected_notes, m.name
        assert m.conversations() == expected_history, m.name  # the tree too: parents by content

    again = b.sync()
    assert again.out.startswith("sent 0 changes, received 0")  # applying is idempotent: nothing comes back


def test_a_note_forgotten_on_one_machine_is_gone_on_the_others(machines, target):
    a, b, c = _setup(machines, target)
    a.memory().add_note("uses zsh")
    a.memory().add_note("likes short answers")
    a.sync()
    b.sync()
    c.sync()
    store = b.memory()
    doomed = [i.id for i in store.items() if i.text == "uses zsh"]
    assert store.remove(doomed)
    b.sync()
    a.sync()
    c.sync()
    for m in (a, b, c):
        assert m.notes() == ["likes short answers"], m.name


def test_the_same_note_edited_on_two_machines_ends_in_one_winner_everywhere(machines, target):
    a, b, c = _setup(machines, target)
    note_id = a.memory().add_note("meeting on Tuesday").item.id
    a.sync()
    b.sync()
    c.sync()
    assert a.memory().edit(note_id, text="meeting on Wednesday").status in ("added", "updated")
    assert b.memory().edit(note_id, text="meeting on Thursday").status in ("added", "updated")
    a.sync()
    b.sync()
    a.sync()
    c.sync()

    finals = {m.name: m.notes() for m in (a, b, c)}
    assert len({tuple(v) for v in finals.values()}) == 1, finals
    winner = finals["a"][0]
    assert winner in ("meeting on Wednesday", "meeting on Thursday")
    loser = ({"meeting on Wednesday", "meeting on Thursday"} - {winner}).pop()
    for m in (a, b):  # the machines that saw both versions keep the losing one
        status = json.loads(m.run("sync", "status", "--json").out)
        assert any(loser in conflict["loser"] for conflict in status["conflicts"]), (m.name, status)


def test_the_target_holds_neither_the_words_nor_a_secret(machines, target, tmp_path):
    import subprocess

    from agenttui.core.memory import file as memory_file

    kind, _location, root = target
    a, b, _c = _setup(machines, target)
    secret = "ghp_" + "Zq8xR2mVt5Lw9Kc3Yb7Np1Hd6Fs4Gj0Ea2Ux"
    a.memory().add_note("my cat is called quokkazanzibar")
    with a.history() as store:
        conv = store.create_conversation("quokkazanzibar plans")
        store.append(conv.id, Message(role="user", content="tell me about quokkazanzibar"))
    # a hand edit of the memory file puts a secret where the write gate would have refused it
    path = a.paths.user_memory_file
    data = memory_file.read(path, "user").data
    data.items[0].text = f"my cat is called quokkazanzibar, token {secret}"
    memory_file.write(path, data)
    a.sync()
    b.sync()

    for word in ("quokkazanzibar", secret, "ghp_"):
        found = subprocess.run(["grep", "-r", "-l", word, str(root)], capture_output=True, text=True)
        assert found.returncode == 1, (word, found.stdout)
    if kind == "git":
        revs = subprocess.run(["git", "-C", str(root), "rev-list", "--all"], capture_output=True, text=True,
                              check=True).stdout.split()
        assert revs
        grep = subprocess.run(["git", "-C", str(root), "grep", "-I", "-e", "quokkazanzibar", "-e", "ghp_", *revs],
                              capture_output=True, text=True)
        assert grep.returncode == 1, grep.stdout
    notes = b.notes()
    assert any("quokkazanzibar" in n and "[REDACTED:" in n for n in notes), notes  # it arrived, redacted
    assert not any(secret in n for n in notes)
