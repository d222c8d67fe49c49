"""The audit filter's labels name their key; "all items (0)" and
"suspicious (1)" read as counts. The counts stay on the summary line."""

from __future__ import annotations

import re

import pytest
from textual.widgets import Select

from tests.ui.audit.test_audit import audit_open
from tests.ui.helpers import wait_until


def _shown(select: Select) -> str:
    """The text the closed Select shows (its current label or its prompt)."""
    from textual.widgets._select import SelectCurrent

    return str(select.query_one(SelectCurrent).query_one("#label").render())


@pytest.mark.slow
async def test_filter_labels_say_key_not_count(services):
    async with audit_open(services) as (_items, _app, pilot, screen):
        select = screen.query_one("#audit-filter", Select)
        labels = [str(prompt) for prompt, _value in select._options]
        assert labels and labels[0] == "", labels  # the blank entry (every item): shown as the prompt
        assert not any(re.search(r"\(\d+\)", label) for label in labels), labels  # reads as a count
        assert _shown(select) == "all items · key 0"
        for n, label in enumerate(labels[1:], 1):  # [0] is the blank "all items" entry
            assert label.endswith(f"key {n}"), label
        await pilot.press("3")  # the digit picks the filter, and the label says so
        await wait_until(pilot, lambda: _shown(select) == "duplicate · key 3")
        assert screen.flag == "duplicate"
        summary = str(screen.query_one("#audit-summary").render())
        assert re.search(r"\d", summary), summary  # the counts are told where they read as counts
