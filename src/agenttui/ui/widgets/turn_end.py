"""How a turn ends in the chat: finished, failed, stopped with Esc, asked again with ctrl+r.

:class:`TurnEnd` is a helper the Chat pane holds (``chat.turn_end``); the pane's
event handler hands it the turn's last event, and the App's Esc and ctrl+r
reach :meth:`TurnEnd.stop` and :meth:`TurnEnd.retry` through the pane.

Esc cancels and shows it at once with one marker: the loop takes a moment to
wind down (it closes the stream, saves what came); meanwhile the reply is
marked cancelled (or, before any reply text, one notice says so), no more
text is shown and Esc leaves the footer. ctrl+r asks the last message again
after a failed or cancelled reply, and regenerates a finished one (the new
answer is a sibling, the old one kept).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from agenttui.agent import events as ev
from agenttui.ui.host import app_parts
from agenttui.ui.widgets.chat_part import ChatPart

if TYPE_CHECKING:

    from agenttui.agent.chat_session import ChatSession
    from agenttui.agent.turn import Turn, TurnController
    from agenttui.ui.widgets.branch_actions import BranchActions
    from agenttui.ui.widgets.context_meter import ContextMeter
    from agenttui.ui.widgets.message_view import AssistantMessage
    from agenttui.ui.widgets.turn_view import TurnView


class EndingChat(ChatPart, Protocol):
    """What a turn's end reads and changes of the Chat pane."""

    turns: TurnController
    turn_view: TurnView
    branches: BranchActions
    meter: ContextMeter
    session: ChatSession


    def call_later(self, callback: Any, *args: Any, **kwargs: Any) -> bool: ...
    async def send(self, text: str, *, show: bool = True) -> None: ...
    async def turn_over(self) -> None: ...
    def archive_session(self, cid: str) -> Any: ...


class TurnEnd:
    def __init__(self, chat: EndingChat) -> None:
        self._chat = chat

    async def _ended(self, event: ev.TurnFinished | ev.TurnFailed) -> AssistantMessage | None:
        """What both ends show: the reply closed, the "used" line, the context meter. The reply's view."""
        chat = self._chat
        view = chat.turn_view
        reply = view.reply
        stored = event.reply if isinstance(event, ev.TurnFinished) else event.partial
        await view.first_words_drawn()
        view.tools_ended()
        await chat.turn_over()
        await view.show_used(reply, stored, event.trace)
        if isinstance(event, ev.TurnFinished) and reply is not None and stored is not None \
                and reply.message_id is None:
            reply.message_id = stored.id
        if event.trace.context is not None:  # the header's meter, "older turns not sent"
            await chat.meter.show(event.trace.context)
        return reply

    async def finished(self, turn: Turn, event: ev.TurnFinished) -> None:
        chat = self._chat
        reply = await self._ended(event)
        saved = await chat.turn_view.show_as_saved(reply, event.reply)
        if event.stop_reason == "cancelled":
            if turn.stopped:  # marked when Esc was pressed: one marker
                self._cancel_shown(turn)
            elif not _left(turn):
                if reply is not None:
                    reply.mark_incomplete("cancelled")
                await self._cancelled_notice()
        elif turn.stopped:  # Esc came after the stream's end: the marker says what history kept
            self._stopped_too_late(turn, reply, event)
        if event.stop_reason not in ("success", "cancelled"):
            await chat.chat_log.notice(f"Stopped: {event.stop_reason.replace('_', ' ')}.", error=True)
        if saved:
            chat.turn_view.last_reply_text = saved
        # /end: only a turn that ran to its end (not stopped, not cut by a limit) archives the
        # session, and it archives its own conversation, whatever is open by then
        if turn.then_archive and event.stop_reason == "success" and turn.conversation_id is not None:
            chat.archive_session(turn.conversation_id)

    async def failed(self, turn: Turn, event: ev.TurnFailed) -> None:
        chat = self._chat
        reply = await self._ended(event)
        await chat.turn_view.show_as_saved(reply, event.partial)
        shown = turn.stopped and event.stop_reason == "cancelled"  # marked when Esc was pressed
        if reply is not None and event.partial is not None and not shown:
            reply.mark_incomplete(event.partial.incomplete_reason or event.stop_reason)
        if shown:
            self._cancel_shown(turn)
        elif event.stop_reason == "cancelled":
            if not _left(turn):
                await self._cancelled_notice()
        else:
            hint = f"  Press {self.retry_key()} to retry." if event.retryable else ""
            await chat.chat_log.notice(f"{event.error}{hint}", error=True)
            chat.session.turn_cut()  # the message is kept: it can be sent again

    def stop(self) -> None:
        """The user's Esc: cancel, and show it at once with one marker (the module doc)."""
        chat = self._chat
        if not chat.streaming and chat.branches.cancel_edit():  # Esc while editing an earlier question
            return
        if not chat.streaming or not chat.turns.stop():
            return
        chat.app.refresh_bindings()
        hint = f"{self.retry_key()} asks again"
        if chat.turn_view.reply is not None:
            chat.turn_view.reply.mark_incomplete(f"cancelled · {hint}")
        else:
            chat.call_later(chat.chat_log.notice, f"Cancelled. {hint}.")

    def _stopped_too_late(self, turn: Turn, reply: AssistantMessage | None, event: ev.TurnFinished) -> None:
        """Esc was pressed once the loop had read the whole reply and stored it: the cancelled
        marker Esc drew is replaced by what history holds (the whole reply arrived, so complete
        is the honest word), and a retry asked meanwhile regenerates it."""
        stored = event.reply
        if stored is not None and stored.incomplete:
            if reply is not None:
                reply.mark_incomplete(stored.incomplete_reason or event.stop_reason.replace("_", " "))
        else:
            if reply is not None:
                reply.mark_complete()
            self._chat.notify("Esc came after the reply's last word: it is kept whole.")
        if turn.retry_when_stopped:
            turn.retry_when_stopped = False
            self._chat.call_later(self.retry)

    def _cancel_shown(self, turn: Turn) -> None:
        """The turn Esc stopped has ended: the question can be asked again (now, if ctrl+r waited)."""
        chat = self._chat
        chat.session.turn_cut()
        if turn.retry_when_stopped:
            turn.retry_when_stopped = False
            chat.call_later(self.retry)

    def retry_key(self) -> str:
        return app_parts(self._chat.app).key_for("chat.retry")

    async def _cancelled_notice(self) -> None:
        chat = self._chat
        chat.session.turn_cut()  # the cut question can be asked again
        await chat.chat_log.notice(f"Cancelled. {self.retry_key()} asks again.")

    async def retry(self) -> None:
        """Ask the last message again after a failed or cancelled reply; after a finished one,
        regenerate it; with nothing to answer again, say what the key does."""
        chat = self._chat
        turn, kept = chat.turns.turn, chat.turns.kept
        if chat.streaming and turn is not None and turn.stopped:  # Esc was pressed: asked again
            turn.retry_when_stopped = True  # once it has wound down
        elif chat.streaming:
            chat.notify("A reply is still streaming: Esc stops it, then "
                        f"{self.retry_key()} asks again.", severity="warning")
        elif chat.session.can_retry and kept is not None:
            if kept.retry_of is not None:  # the stored question is answered again; the cut
                await chat.branches.regenerate(kept.retry_of, kept.text)  # reply is a sibling now
            else:  # cut before it was stored: sent afresh (it is shown already)
                await chat.send(kept.text, show=False)
        elif await chat.branches.regenerate_last():  # a finished reply: answered again, both kept
            pass
        else:
            chat.notify("Nothing to retry yet: it asks again after a reply that failed or was "
                        "cancelled, and regenerates a finished one.")


def _left(turn: Turn) -> bool:
    """The turn was cancelled by leaving its conversation (/new, another one opened, incognito
    left), not by Esc: its end comes once the chat shows where the user went, which its
    "Cancelled. ctrl+r asks again." is not about -- and there ctrl+r had nothing to ask again."""
    return turn.cancel.is_set() and not turn.stopped
