"""Tool approval (docs/agent.md#tools): the exact command, its risk, approve once or deny.

The command is shown exactly as it will run: every control
character, escape sequence (an OSC's hidden payload included), bidi control
and invisible character is shown as a ``\\x1b``/``\\u202e`` escape in reverse
video (:func:`agenttui.core.visible_text.exact_parts`), never stripped, and a
note under the command says so; the risk line counts the lines and, when the
command does not fit, how many rows are below the fold (so a payload after
blank lines or a run of spaces is not missed). Literal Content, never markup.
High risk is drawn in the error colour and focus starts on Deny, so a stray
Enter never runs a destructive command; Approve (button and "y") answers only
``APPROVE_AFTER_S`` after the dialog opens, so keys the user was typing when it
appeared (a "y", a space on the focused button) never approve anything; text typed into the
dialog (someone writing their next message, eyes on the prompt) holds Approve back again for
``APPROVE_AFTER_S`` after each key and leaves the focus on Deny, so the "y" of "my" or the Enter
ending their message is no answer. Dismisses with True only on Approve;
the chat pane resolves the loop's future with the answer. A turn that ends without the answer
(a profile switch stops it, its time limit) withdraws the question: the dialog closes once it is
on top, instead of asking, for good, about a command nothing will run.
"""

from __future__ import annotations

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from agenttui.agent.events import ApprovalRequested
from agenttui.core.visible_text import exact_line, exact_parts
from agenttui.ui.one_shot import OneShot, set_timer


def command_content(parts: list[tuple[str, bool]]) -> Content:
    """The command as literal Content; escapes in reverse video so they stand out."""
    return Content.assemble(*((piece, "reverse bold") if is_escape else piece for piece, is_escape in parts))


#: Seconds after the dialog opens before Approve answers (a browser waits 1 s before its install
#: button does, for the same reason: keys already being typed must not answer it).
APPROVE_AFTER_S = 0.6


class ApprovalScreen(ModalScreen[bool]):
    DEFAULT_CSS = """
    ApprovalScreen { align: center middle; }
    ApprovalScreen #approval-dialog {
        width: 80%; max-width: 100; height: auto; max-height: 90%;
        border: thick $warning; background: $surface; padding: 1 2;
    }
    ApprovalScreen.-high #approval-dialog { border: thick $error; }
    ApprovalScreen #approval-command-box {
        background: $panel; margin: 1 0; height: auto; max-height: 12;
    }
    ApprovalScreen #approval-command { padding: 0 1; height: auto; }
    ApprovalScreen #approval-hidden { color: $text-error; text-style: bold; }
    ApprovalScreen #approval-risk { text-style: bold; color: $text-warning; }
    ApprovalScreen.-high #approval-risk { color: $text-error; }
    ApprovalScreen.-low #approval-risk { color: $text-success; }
    ApprovalScreen #approval-buttons { height: auto; align-horizontal: right; }
    ApprovalScreen Button { margin-left: 2; }
    """
    BINDINGS = [
        Binding("escape", "deny", "Deny", id="approval.deny"),
        Binding("y", "approve", "Approve once", id="approval.approve", show=False),
        Binding("n", "deny", "Deny", id="approval.deny_key", show=False),
    ]

    def __init__(self, request: ApprovalRequested) -> None:
        super().__init__(classes=f"-{request.risk}")
        self.request = request
        self._approval_timer: OneShot | None = None
        self._typed_into = False  # text was typed here: Approve never takes the focus
        # the loop cancels the future when its turn ends unanswered; an answer sets a result
        request.future.add_done_callback(lambda future: future.cancelled() and self.call_later(self._withdraw))

    def compose(self) -> ComposeResult:
        request = self.request
        with Vertical(id="approval-dialog"):
            yield Static(Content.assemble(("Allow tool ", "bold"), (exact_line(request.call.name, 60), "bold"),
                                          ("?", "bold")), id="approval-title")
            parts = exact_parts(request.summary)
            with VerticalScroll(id="approval-command-box"):  # scrolls: nothing is cut off
                yield Static(command_content(parts), id="approval-command")
            escaped = sum(1 for _, is_escape in parts if is_escape)
            if escaped:
                yield Static(Content(
                    f"⚠ {escaped} hidden or control character{'s' if escaped != 1 else ''} shown as "
                    "highlighted \\x.. / \\u.... escapes: they are part of what runs"), id="approval-hidden")
            yield Static(Content(self._risk_line()), id="approval-risk")
            with Horizontal(id="approval-buttons"):
                yield Button("Approve once", id="approve", variant="warning" if request.risk == "high" else "primary")
                yield Button("Deny", id="deny", variant="default")

    def _risk_line(self, overflow_rows: int = 0) -> str:
        lines = self.request.summary.count("\n") + 1
        extent = f" · {lines} lines" if lines > 1 else ""
        if overflow_rows:  # long lines wrap too: measured after layout, not guessed
            extent += f" · {overflow_rows} more rows below: scroll to read all"
        return f"Risk: {self.request.risk}{extent}"

    def on_mount(self) -> None:
        # Keys typed before the dialog could be read are not an answer: the user may be typing
        # their next message while a reply streams ("yes, and …" would approve with its "y", a
        # space press the focused Approve). So Approve is off for APPROVE_AFTER_S; Deny is not.
        self.query_one("#approve", Button).disabled = True
        self.query_one("#deny", Button).focus()
        self._approval_timer = set_timer(self, APPROVE_AFTER_S, self._allow_approval)  # fires under load too
        box = self.query_one("#approval-command-box", VerticalScroll)
        self.watch(box, "virtual_size", self._note_overflow)  # known once the command is laid out

    def _withdraw(self) -> None:
        """The turn no longer waits for this answer: close, unless another screen is on top
        (closing would pop that one); then when this one is shown again (``on_screen_resume``)."""
        if self.is_current:
            self.dismiss(False)

    def on_screen_resume(self) -> None:
        if self.request.future.cancelled():
            self.dismiss(False)

    def on_key(self, event: events.Key) -> None:
        """A printable key that is none of the dialog's own: text typed at it (see the module doc)."""
        if event.key not in ("y", "n") and event.character is not None and event.character.isprintable():
            self._typed_into = True
            self._hold_approval()

    def _hold_approval(self) -> None:
        deny = self.query_one("#deny", Button)
        if self.focused is not deny:
            deny.focus()
        self.query_one("#approve", Button).disabled = True
        if self._approval_timer is not None:
            self._approval_timer.stop()
        self._approval_timer = set_timer(self, APPROVE_AFTER_S, self._allow_approval)

    def _allow_approval(self) -> None:
        approve = self.query_one("#approve", Button)
        approve.disabled = False
        if self.request.risk != "high" and not self._typed_into and self.focused is self.query_one("#deny", Button):
            approve.focus()  # High risk: Deny first. Otherwise Approve is one Enter away, as expected.

    def _note_overflow(self) -> None:
        """Say so when the command does not fit: a payload after many blank lines or
        thousands of spaces must not sit unseen below the fold."""
        box = self.query_one("#approval-command-box", VerticalScroll)
        hidden = max(0, box.virtual_size.height - box.scrollable_content_region.height)
        self.query_one("#approval-risk", Static).update(Content(self._risk_line(hidden)))

    @on(Button.Pressed, "#approve")
    def action_approve(self) -> None:
        if self.query_one("#approve", Button).disabled:
            return  # "y" typed before the dialog could be read (on_mount)
        self.dismiss(True)

    @on(Button.Pressed, "#deny")
    def action_deny(self) -> None:
        self.dismiss(False)
