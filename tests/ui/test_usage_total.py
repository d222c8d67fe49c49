"""The running usage total widget: hidden until a reply with usage is stored, then
``Σ … tok · $…`` for the replies stored since it was mounted. Real SQLite, Textual Pilot."""

from __future__ import annotations

from datetime import timedelta

from textual.app import App, ComposeResult

from agenttui.core.history.store import HistoryStore
from agenttui.core.models import Message, utcnow
from agenttui.core.usage.message_usage import MessageUsage
from agenttui.ui.widgets.usage_total import UsageTotal, compact_tokens
from tests.ui.helpers import wait_until


def _reply(model: str, prompt: int, completion: int, cost: float | None, **kw) -> Message:
    return Message("assistant", "r", usage=MessageUsage(model=model, prompt_tokens=prompt,
                                                        completion_tokens=completion, cost=cost, **kw))


async def test_total_appears_and_follows_new_replies(tmp_path):
    store = HistoryStore(tmp_path / "h.sqlite3")
    cid = store.create_conversation("c").id
    earlier = _reply("gpt-4o", 5_000, 5_000, 1.0)
    earlier.created = utcnow() - timedelta(hours=1)
    store.append(cid, earlier)  # before the session: not counted

    class Host(App):
        def compose(self) -> ComposeResult:
            yield UsageTotal(store, id="total")

    app = Host()
    async with app.run_test() as pilot:
        total = app.query_one(UsageTotal)
        total.refresh_total()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not total.display  # nothing this session yet
        store.append(cid, _reply("gpt-4o-mini", 1_000, 234, 0.0021))
        await wait_until(pilot, lambda: total.display, timeout=30)
        assert str(total.render()) == "Σ 1.2k tok · $0.0021"
        store.append(cid, _reply("local-llama", 100, 10, None, estimated=True))
        await wait_until(pilot, lambda: "+" in str(total.render()), timeout=30)
        assert str(total.render()) == "Σ ~1.3k tok · $0.0021+"
    store.close()


def test_compact_tokens():
    assert [compact_tokens(n) for n in (999, 1_000, 12_345, 2_500_000)] == ["999", "1.0k", "12.3k", "2.5M"]
