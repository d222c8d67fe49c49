"""Which conversation ``agenttui ask`` continues: one rule for the turn and for ``--dry-run``.

Before, the real turn and the dry run each wrote "the given one, else the latest
unless --new" themselves, so a flag added to one could be missed by the other.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agenttui.bootstrap import Services
    from agenttui.core.models import Conversation


class ConversationNotFound(Exception):
    """``--conversation`` named no single conversation (the reason is already on stderr)."""


def continued_conversation(services: Services, args: argparse.Namespace) -> Conversation | None:
    """The conversation to continue, or ``None`` to start a new one.

    ``--conversation ID`` (an id or a unique prefix, archived ones too) wins;
    otherwise the profile's most recently updated conversation, unless ``--new``
    or ``--incognito`` asks for a fresh one.
    """
    ident = getattr(args, "conversation", None)
    if ident is not None:
        from agenttui.cli.history_cmd import _find

        found: Conversation | None = _find(services, ident)  # prints why when it is None
        if found is None:
            raise ConversationNotFound(ident)
        return found
    if getattr(args, "new", False) or getattr(args, "incognito", False):
        return None
    return services.history.latest_conversation()


def turn_model(services: Services, args: argparse.Namespace, conversation: Conversation | None) -> str | None:
    """The model of the turn: ``--model``, else ``AGENTTUI_MODEL`` (both chosen for this run),
    else the one a continued conversation records (the model its last turn used, as the Chat
    pane continues it and as ``llm -c`` does), else ``None``: the default (the profile's, the
    settings')."""
    chosen = getattr(args, "model", None) or services.environ.get("AGENTTUI_MODEL")
    return chosen or (conversation.model if conversation is not None else None)
