"""Received messages were redacted by their sender before they entered its change log; the
receiver does not pay for the built-in redaction again when its rules are the sender's, but
its own extra patterns (which the sender may not have) and other built-in rules (an older or
newer sender) still run over what it stores."""

from __future__ import annotations

import pytest

from agenttui.core.models import Message
from agenttui.sync.redaction_mark import FIELD, redacted_here, redaction_mark


def test_only_records_redacted_by_this_machines_rules_skip_redaction_here():
    mark = redaction_mark()
    assert len(mark) == 16 and mark == redaction_mark()
    same = [{"t": "msg", FIELD: mark}, {"t": "msg", FIELD: mark}]
    assert redacted_here(same, [])
    assert not redacted_here(same, [r"PLUTO-\d{4}"])  # this machine's own patterns run
    assert not redacted_here([*same, {"t": "msg", FIELD: "0123456789abcdef"}], [])  # other rules
    assert not redacted_here([*same, {"t": "msg"}], [])  # a sender that names no rules


@pytest.mark.slow
def test_the_receivers_own_patterns_redact_received_messages(machines, tmp_path):
    import subprocess

    bare = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    a, b = machines("a", "b")
    from agenttui.core.config.file import load_settings, save_settings

    settings = load_settings(b.paths).settings
    settings.redaction.extra_patterns = [r"PLUTO-\d{4}"]
    save_settings(b.paths, settings)
    assert a.join("git", bare.as_uri()).code == 0
    with a.history() as store:
        conv = store.create_conversation("Launch")
        store.append(conv.id, Message(role="user", content="the launch code is PLUTO-4242, keep it"))
        store.append(conv.id, Message(role="assistant", content="noted"))
    a.sync()
    assert b.join("git", bare.as_uri()).code == 0
    b.sync()
    received = [m for messages in b.conversations().values() for m in messages]
    assert ("assistant", "noted", "the launch code is [REDACTED:custom], keep it") in received
    assert not any("PLUTO-4242" in (content or "") for _role, content, _parent in received)
    # the sender's own copy is as it was: the pattern is only the receiver's
    assert any("PLUTO-4242" in (content or "") for messages in a.conversations().values()
               for _role, content, _parent in messages)
