"""A slash command running in the Chat pane, and what is typed while it runs.

:class:`SlashRunner` is a part the Chat pane holds (``chat.commands``). A command runs
as a worker, so the pane keeps answering while it works: awaited in the Enter handler,
a command that waits (``/remember`` on another process's memory lock, up to 30 s;
``/compact`` on the model) held every later Enter in the pane's message queue, where
the text was shown nowhere and was gone if the app quit.

What is sent meanwhile (messages and other commands) is *held* (the UI-free
:attr:`agenttui.agent.turn.TurnController.held`, shown above the prompt) and handled in
order when the command is over, as if typed then: a question after ``/remember`` sees
the note, a message after ``/incognito`` is incognito. A command that opens a dialog is
over when the dialog is answered: a message after ``/model`` goes with the model picked.

A conversation opened meanwhile (ctrl+n, History) sends held messages back to the prompt,
unless the command itself opened it (``/new``, ``/incognito``, its dialog's answer): what
was typed after those is meant for the conversation they open. :meth:`SlashRunner.opened_by_command`
tells the two apart.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Protocol

from agenttui.ui.inert import inert_line
from agenttui.ui.slash.context import SlashContext
from agenttui.ui.slash.dispatch import run_slash_command
from agenttui.ui.slash.table import BY_NAME, parse
from agenttui.ui.widgets.queued_line import back_to_prompt

if TYPE_CHECKING:
    from textual.screen import Screen

    from agenttui.ui.widgets.prompt_input import PromptInput

COMMAND_GROUP = "slash-command"  # the worker a slash command runs in (one at a time)
# True in the slash command's worker task only (a copy of the context): a conversation it
# opens (/new, /incognito) is where what was typed after it goes
_IN_COMMAND: ContextVar[bool] = ContextVar("agenttui_in_slash_command", default=False)


class CommandChat(SlashContext, Protocol):
    """What running a slash command reads and changes of the Chat pane (the command's context)."""

    @property
    def prompt(self) -> PromptInput: ...

    def show_queued(self) -> None: ...
    async def submit(self, text: str) -> None: ...
    def call_later(self, callback: Any, *args: Any, **kwargs: Any) -> bool: ...


class SlashRunner:
    def __init__(self, chat: CommandChat) -> None:
        self._chat = chat
        self._working = False  # the command's own work runs (not its dialog)
        self._answer_pending = False  # its dialog was answered; the answer is being handled
        self._quit_after: Callable[[], object] | None = None  # ctrl+q meanwhile (quit_after)
        self._holds: list[str] = []  # what holds input besides a command (hold_during), by name

    @property
    def running(self) -> bool:
        """A command runs, or something else holds what is sent (:meth:`hold_during`)."""
        return self._chat.turns.command is not None or bool(self._holds)

    @property
    def label(self) -> str | None:
        """What held text waits for: the command's name (``remember`` for /remember), or None."""
        return self._chat.turns.command or (self._holds[-1] if self._holds else None)

    def hold_input(self, name: str) -> Callable[[], None]:
        """From now on what is sent is held, as behind a command, until the function returned
        is called; then it is handled in order (``name`` says what it waits for: "sent when
        /profile ends").

        A profile switch runs in a worker of its own, past the command or dialog that asked
        for it: a message typed right after ``/profile work`` was sent while the stores were
        being swapped, stored in the new profile unanswered, and covered by that profile's
        latest conversation. What the switch opens is where held text goes, as with ``/new``.
        """
        self._holds.append(name)

        def release() -> None:
            self._holds.remove(name)
            if not self.running and self._chat.turns.held:
                self._chat.call_later(self._release_held)

        return release

    def run(self, text: str) -> None:
        """Run the slash command ``text`` now, or after the one still running (Enter, the palette)."""
        chat, turns = self._chat, self._chat.turns
        if turns.command is not None:
            self.hold(text)
            return
        parsed = parse(text)
        if parsed is not None and parsed[0] not in BY_NAME:  # "/etc/hosts has…": a message, often a paste
            chat.notify(
                f"Unknown command /{inert_line(parsed[0], 40)}: your text is back in the prompt "
                "(// at its start sends it as a message). /help lists the commands.",
                severity="error",
            )
            back_to_prompt([text], chat.prompt)
            return
        turns.command = parsed[0] if parsed else text
        chat.run_worker(self._command(text), group=COMMAND_GROUP, name=f"/{turns.command}")

    def hold(self, text: str) -> None:
        """``text`` sent while a command runs: handled when it is over, in order."""
        self._chat.turns.held.append(text)
        self._chat.show_queued()

    def opened_by_command(self) -> bool:
        """A conversation opening now is the running command's doing (or its dialog's answer)."""
        return _IN_COMMAND.get() or self._answer_pending or bool(self._holds)

    def quit_after(self, quit_now: Callable[[], object]) -> bool:
        """ctrl+q while a command works: ``quit_now`` when it ends (True), or at once (False).

        ``/remember`` waiting on another process's memory lock writes in a thread that
        cannot be stopped: quitting there ended the app and left the terminal blank
        until the thread was done (up to 30 s), and the user could not tell it from a
        hang. Now the app stays, says what it waits for, and goes when the note is kept.
        Asked again while it waits (or while the command only waits on its own dialog): at once.
        """
        if not self._working or self._quit_after is not None:
            return False
        self._quit_after = quit_now
        name = inert_line(self._chat.turns.command or "", 30)
        self._chat.notify(f"agenttui quits when /{name} ends (ctrl+q again: now).", title="Quitting")
        return True

    def still_working(self) -> str | None:
        """The line the terminal shows when the app quits while a command still works, or None.

        ``/remember`` writes in a thread that the quit cannot stop (another agenttui may hold
        the memory lock): the process ends only when it is done, and a blank terminal for up
        to the lock's timeout looked like a hang.
        """
        if not self._working:
            return None
        name = inert_line(self._chat.turns.command or "", 30)
        return (
            f"agenttui: /{name} was still working when you quit; a write it began ends first "
            "(it waits while another agenttui holds the memory lock)."
        )

    async def _command(self, text: str) -> None:
        chat = self._chat
        before = list(chat.app.screen_stack)
        quit_now: Callable[[], object] | None = None
        _IN_COMMAND.set(True)  # this worker's task only: what it opens is the command's doing
        try:
            self._working = True
            try:
                await run_slash_command(chat, text)
            finally:
                self._working = False
                quit_now, self._quit_after = self._quit_after, None
            if quit_now is None:
                await self._until_answered([s for s in chat.app.screen_stack if s not in before])
        finally:  # a failed command too; cancelled (the app ends), the call is dropped with the pane
            chat.turns.command = None
            chat.show_queued()
            if quit_now is not None:  # ctrl+q while it worked: the app ends now; what was held is dropped
                chat.call_later(quit_now)
            elif chat.turns.held and not self._holds:  # (else when the hold ends)
                chat.call_later(self._release_held)  # after the dialog's answer is handled: it clears the flag
            else:
                self._answer_pending = False

    async def _until_answered(self, opened: list[Screen[object]]) -> None:
        """Until the dialogs the command opened are closed: it is not over before its answer.

        Leaving incognito asks whether to save: a message typed after ``/incognito`` is
        for the saved chat, so it waits for the answer, not sent into the incognito chat
        that the answer then drops.
        """
        app = self._chat.app
        closed = asyncio.Event()

        def check(_screen: object = None) -> None:
            if not any(screen in app.screen_stack for screen in opened):
                closed.set()

        check()
        if closed.is_set():
            return
        self._answer_pending = True  # until the held text is released, after the answer's handling
        # the screen's result callback is queued (call_next) before it is popped, so the
        # command's own handling of the answer runs before what was held behind it
        subscriber = self._chat.chat_log  # a node of the pane: the subscription goes with it
        app.screen_change_signal.subscribe(subscriber, check, immediate=True)
        try:
            await closed.wait()
        finally:
            app.screen_change_signal.unsubscribe(subscriber)

    async def _release_held(self) -> None:
        """Each text held behind the command, as if typed now; a command among them holds the rest."""
        chat, turns = self._chat, self._chat.turns
        self._answer_pending = False
        held, turns.held = turns.held, []
        submit: Callable[[str], Awaitable[None]] = chat.submit
        for index, text in enumerate(held):
            if self.running:
                turns.held[:0] = held[index:]
                break
            await submit(text)
        chat.show_queued()
