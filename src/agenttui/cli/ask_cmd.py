"""``agenttui ask TEXT``: one agent turn from the command line (docs/cli.md).

The reply streams to stdout (control sequences made inert,
:func:`agenttui.core.visible_text.inert_text`, newlines and tabs kept, every
other control/escape/bidi character shown as an escape); everything
else -- tool calls, approvals, memory changes, warnings -- goes to stderr so
``agenttui ask "…" > reply.txt`` captures just the reply.

* Continues the profile's most recently updated conversation; ``--new``
  starts one; ``--conversation ID`` (or a unique prefix of it, as ``history
  show`` takes) continues that one, archived or not. An unknown or ambiguous
  id is refused before anything is sent or written (exit 1, the id named).
* ``--incognito`` chats in a fresh conversation that is never saved
  (:mod:`agenttui.cli.ask_incognito`): memory is read, nothing is written.
* Tools that need approval (the shell) are denied unless ``--yes``; each
  denial is printed with the exact command (hidden characters as escapes)
  and its risk.
* The endpoint comes from ``OPENAI_BASE_URL`` / the profile's ``base_url``,
  the model from ``--model`` / ``AGENTTUI_MODEL`` / the profile, the key from
  ``OPENAI_API_KEY`` or the keyring. Local servers that need no key (Ollama,
  llama.cpp) still need some value: ``export OPENAI_API_KEY=anything``.
* Exit 0 on a reply (also when a step/time limit cut it short: a warning
  says so), 1 when the endpoint fails, no key is configured or the provider
  did not finish the reply (cut at the token limit, stopped by a content
  filter, a stream that just ended: the reason on stderr, what arrived kept
  in history marked incomplete), 130 on Ctrl-C (the partial reply is kept
  in history, marked incomplete).
* A reasoning model's thinking is not printed; ``thinking…`` on stderr says
  it is at work rather than stalled.
* Piped input joins TEXT (``git diff | agenttui ask "review this"``: the
  prompt, a blank line, the piped text) or is the message when there is no
  TEXT or TEXT is ``-``; capped, never cut (:mod:`agenttui.cli.ask_stdin`).
* ``--dry-run [--json]`` prints the request instead of sending it, and
  writes nothing (see :mod:`agenttui.cli.ask_dry_run`). ``--now ISO-DATETIME``
  builds it as if it were that moment: recall reads "yesterday" and "last
  week" from that day, the system prompt gives that date (evaluating a
  history from another year with its own time words).
"""

from __future__ import annotations

import argparse
import sys

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing before the command runs
if TYPE_CHECKING:
    from datetime import datetime

    from agenttui.agent.events import AgentEvent, TurnFailed, TurnFinished
    from agenttui.bootstrap import Services


def register(subparsers: argparse._SubParsersAction) -> None:
    from agenttui.cli.ask_stdin import MAX_STDIN_LABEL

    parser = subparsers.add_parser(
        "ask", help="one turn against the current conversation; the reply streams to stdout",
        description="One turn against the current conversation; the reply streams to stdout.",
        epilog=f"Piped input (`git diff | agenttui ask \"review this\"`, or `< file`) is sent after "
               f"TEXT and a blank line; with no TEXT (or TEXT '-') it is the whole message. stdin "
               f"that is a terminal is not read. At most {MAX_STDIN_LABEL} is read: more, or binary "
               f"input, is refused and nothing is sent.")
    parser.add_argument("text", metavar="TEXT", nargs="?", default=None,
                        help="your message; piped input follows it ('-' or none: the message is stdin)")
    parser.add_argument("--new", action="store_true", help="start a new conversation")
    parser.add_argument("--conversation", metavar="ID", default=None,
                        help="continue this conversation (an id or a unique prefix, see `history list`)")
    parser.add_argument("--incognito", action="store_true",
                        help="a fresh conversation that is never saved: memory is read, nothing is written")
    parser.add_argument("--yes", action="store_true",
                        help="approve tools that need approval (shell commands)")
    parser.add_argument("--image", metavar="PATH", default=None, help="attach an image (png, jpg, gif, webp)")
    parser.add_argument("--model", metavar="M", default=None, help="model for this turn")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the request this turn would send; send and save nothing")
    parser.add_argument("--json", action="store_true",
                        help="with --dry-run: the request as JSON {model, messages, tools}")
    parser.add_argument("--now", metavar="ISO-DATETIME", type=_moment, default=None,
                        help="with --dry-run: build the prompt as if it were this moment "
                             "(recall's 'yesterday', the system prompt's date), e.g. 2023-06-20T18:00+07:00")
    parser.set_defaults(handler=run)


def _moment(text: str) -> datetime:
    """``--now``: an ISO 8601 date or date and time; without an offset it is local time."""
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not an ISO date or date and time: {text!r} (e.g. 2023-06-20 or 2023-06-20T18:00+07:00)") from None
    return moment.astimezone()  # a naive moment is local time; aware ones keep their instant


def run(args: argparse.Namespace) -> int:
    from agenttui.cli.ask_stdin import StdinRefused, ask_message
    from agenttui.cli.common import PROG, fail, open_services, warn

    try:
        text = ask_message(args.text)
    except StdinRefused as exc:
        return fail(str(exc))
    if not text.strip():
        return fail('nothing to ask; usage: agenttui ask "What did we decide about X?" '
                    '(or pipe the text: git diff | agenttui ask "review this")', code=2)
    if args.json and not args.dry_run:
        return fail("--json goes with --dry-run (agenttui ask --dry-run --json TEXT)", code=2)
    if args.now is not None and not args.dry_run:  # a real turn is stored at the real time
        return fail("--now goes with --dry-run (agenttui ask --dry-run --now 2023-06-20T18:00 TEXT)", code=2)
    if args.conversation is not None and (args.new or args.incognito):
        other = "--new" if args.new else "--incognito"
        return fail(f"--conversation and {other} exclude each other: {other} starts a fresh "
                    "conversation", code=2)
    if args.incognito and args.dry_run:
        return fail("--dry-run already sends and saves nothing; drop --incognito", code=2)
    if args.dry_run:
        from agenttui.cli.ask_dry_run import run_dry_run

        return run_dry_run(args, text)
    _preload_openai()
    if args.image:
        from agenttui.agent.images import ImageError, load_image

        try:
            load_image(args.image)
        except ImageError as exc:
            return fail(str(exc))
    services = open_services(args)
    if services is None:
        return 1
    try:
        key = services.api_key()
        if not key.value:
            from agenttui.agent.no_key import no_key_message  # short and plain

            return fail(no_key_message(key.problem))
        import asyncio

        if args.incognito:
            from agenttui.core.incognito import end_incognito, incognito_services

            twin = incognito_services(services)
            try:
                for notice in twin.history.notices:
                    warn(notice)
                return asyncio.run(_ask(twin, args, text, key.value))
            finally:
                end_incognito(twin, services)
                print(f"{PROG}: incognito: nothing was saved", file=sys.stderr)
        return asyncio.run(_ask(services, args, text, key.value))
    finally:
        services.close()


def _preload_openai() -> None:
    """Import ``openai`` (~0.4 s) in a thread while the services load (mostly I/O).

    The loop imports it lazily on the first request; by then the module is
    (nearly) ready, so the first token is not delayed by the import. A failed
    import here is ignored: the loop's own import reports it properly.
    """
    import contextlib
    import importlib
    import threading

    def load() -> None:
        with contextlib.suppress(Exception):  # see docstring
            importlib.import_module("openai")

    threading.Thread(target=load, name="preload-openai", daemon=True).start()


async def _ask(services: Services, args: argparse.Namespace, text: str, api_key: str) -> int:
    import asyncio

    from agenttui.agent.loop import aclose_client, client_for
    from agenttui.agent.turn import TurnController
    from agenttui.cli.ask_conversation import ConversationNotFound, continued_conversation, turn_model
    from agenttui.cli.common import warn
    from agenttui.core.recall.semantic import rank_before_turn
    from agenttui.mcp.ask_tools import start_for_ask, stop_for_ask

    # Semantic recall's ranking of the message, while the rest gets ready; the turn then
    # finds it kept, as the dry run does (core/recall/semantic.rank_before_turn: bounded).
    ranking = asyncio.ensure_future(asyncio.to_thread(rank_before_turn, services, text))
    try:
        conversation = continued_conversation(services, args)
    except ConversationNotFound:
        return 1
    model = turn_model(services, args, conversation)
    if conversation is None:
        conversation = services.history.create_conversation(model=model or services.model)
    elif model and conversation.model != model:  # as /model: the conversation says which one
        services.history.set_model(conversation.id, model)
    turns = TurnController()
    turn = turns.start(text, image=args.image, conversation_known=True)
    printer = _Printer(args.yes)
    await start_for_ask(services, warn)  # MCP servers, if any: their tools in the first request
    await ranking
    try:
        # The key was looked up above: the loop need not ask the keyring again.
        async for event in turns.events(services, conversation.id, turn, model=model,
                                        client=client_for(services, api_key)):
            turns.observe(event)
            printer.show(event)
    finally:
        await aclose_client(services)
        await stop_for_ask(services)  # no MCP server process outlives the command
    if args.incognito:  # its store is in memory: no recovery file either
        return printer.code
    from agenttui.cli.unsaved import save_or_rescue

    return save_or_rescue(services) or printer.code  # never exit 0 holding unsaved messages


class _Printer:
    """Renders a turn's events: the reply on stdout, everything else on stderr (module doc)."""

    def __init__(self, approve: bool) -> None:
        from agenttui.core.visible_text import InertStream

        self.approve = approve
        self.reply_text = InertStream()  # the reply on stdout: newlines and tabs kept, no escape acts
        self.wrote = ""
        self.code = 0
        self.thinking = False  # "thinking…" said for this stretch of reasoning (a silence, not a stall)

    def show(self, event: AgentEvent) -> None:
        from typing import assert_never

        from agenttui.agent import events as ev
        from agenttui.cli.common import exact, fail, inert, warn
        from agenttui.core.visible_text import exact_line

        out = sys.stdout
        match event:
            case ev.TurnStarted():
                pass
            case ev.ReasoningDelta():
                if not self.thinking:  # the reasoning itself is not printed: stdout is the reply
                    print("thinking…", file=sys.stderr, flush=True)
                    self.thinking = True
            case ev.TextDelta():
                self.thinking = False
                out.write(self.reply_text.feed(event.text))
                out.flush()
                self.wrote = event.text or self.wrote
            case ev.ApprovalRequested():
                event.future.set_result(self.approve)
                verb = "approved" if self.approve else "denied (rerun with --yes to allow)"
                # exactly what runs: hidden parts (an OSC payload, bidi controls) shown as escapes
                warn(f"{verb} [{event.risk} risk] {exact_line(event.call.name, 80)}: {exact(event.summary)}")
            case ev.ToolCallStarted():
                print(f"[tool] {exact_line(event.call.name, 80)} {exact_line(event.call.arguments, 200)}",
                      file=sys.stderr)
            case ev.ToolCallFinished():
                if not event.ok and not event.denied:
                    print(f"[tool] {exact_line(event.call.name, 80)} failed: {inert(event.output[:300])}",
                          file=sys.stderr)
            case ev.MemoryChanged():
                _report_memory(event, warn, inert)
            case ev.PersistWarning():
                pass  # the loop retries at turn end; save_or_rescue (in _ask) reports what is left
            case ev.RequestFallback():  # once per endpoint and model
                warn(event.text)
            case ev.RetryScheduled():
                warn(f"{event.reason} Retrying in {event.delay:.1f} s (retry {event.attempt}).")
            case ev.TurnFinished() | ev.TurnFailed():
                self._end(event)
                if isinstance(event, ev.TurnFailed):
                    kept = " (the partial reply is kept in history)" if event.partial else ""
                    self.code = fail(event.error + kept)
                elif event.stop_reason != "success":
                    warn(f"the turn stopped early: {event.stop_reason}")
            case _:
                assert_never(event)

    def _end(self, event: TurnFinished | TurnFailed) -> None:
        """The reply's last bytes and a newline; what the model did not see, said plainly."""
        from agenttui.cli.common import warn

        out = sys.stdout
        out.write(self.reply_text.flush())
        if self.wrote and not self.wrote.endswith("\n"):
            out.write("\n")
            out.flush()
        figures = event.trace.context
        if figures is not None and figures.not_sent > 0:
            more = "+" if figures.not_sent_more else ""
            warn(f"older turns not sent: {figures.not_sent}{more} (the prompt's budget is "
                 f"{figures.budget} tokens; /compact in the app summarises them)")


def _report_memory(event, warn, inert) -> None:
    from agenttui.core.errors import clip  # a model's 5 MB note is not echoed in full

    text = inert(clip(event.text or "", 300))
    if event.action == "written":
        warn(f"remembered: {text}")
    elif event.action == "blocked":
        warn(f"memory write blocked: {text} ({inert(clip(event.result.reason or '', 300))})")
    elif event.action == "pending":
        warn(f"memory proposal waiting for your yes (see `agenttui memory list`): {text}")
    elif event.action == "offered":
        warn(f"that sounded like a correction; to remember it: agenttui memory add {text!r}")
