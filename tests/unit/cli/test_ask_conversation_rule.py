"""The one rule for which conversation ``ask`` (and ``ask --dry-run``) continues."""

from __future__ import annotations

from argparse import Namespace

import pytest

from agenttui.cli.ask_conversation import ConversationNotFound, continued_conversation
from agenttui.core.models import Message


def args(**given) -> Namespace:
    return Namespace(**{"conversation": None, "new": False, "incognito": False, **given})


def test_latest_unless_new_or_incognito_or_named(services, capsys):
    history = services.history
    assert continued_conversation(services, args()) is None  # nothing yet: start one
    older = history.create_conversation("older")
    history.append(older.id, Message(role="user", content="first"))
    newer = history.create_conversation("newer")
    history.append(newer.id, Message(role="user", content="second"))
    assert continued_conversation(services, args()).id == newer.id
    assert continued_conversation(services, args(new=True)) is None
    assert continued_conversation(services, args(incognito=True)) is None
    assert continued_conversation(services, args(conversation=older.id[:8])).id == older.id
    history.archive(older.id)  # archived ones can be continued by id too
    assert continued_conversation(services, args(conversation=older.id)).id == older.id
    with pytest.raises(ConversationNotFound):
        continued_conversation(services, args(conversation="zzzz-no-such"))
    assert "no conversation 'zzzz-no-such'" in capsys.readouterr().err
