"""An app action remapped in config.toml to a key the prompt's text area binds itself (F6 selects
the line there, F7 all) did nothing with the prompt focused, and nothing said so: a key the user
chose for an app action wins over the prompt's own bindings (typing keeps its characters)."""

from __future__ import annotations

import pytest

from agenttui.ui.app import make_app
from tests.ui.helpers import chat, wait_until


def _in_memory(app) -> bool:
    return app.screen.query_one("#memory-pane").has_focus_within


@pytest.mark.slow
async def test_an_app_key_remapped_to_f6_works_in_the_prompt(paths, make_services):
    paths.config_dir.mkdir(parents=True)
    paths.config_file.write_text('[keys]\n"app.toggle_memory" = "f6"\n"app.open_settings" = "f7"\n'
                                 '"app.toggle_history" = "x"\n')
    app = make_app(make_services(), check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: app.focused is chat(app).prompt)
        chat(app).prompt.load_text("some draft")
        assert not _in_memory(app)
        await pilot.press("f6")  # toggle_memory from the chat: to the Memory pane
        await wait_until(pilot, lambda: _in_memory(app))
        assert chat(app).prompt.text == "some draft"  # the text area did not take it
        chat(app).prompt.focus()
        await pilot.press("x")  # a printable key stays the prompt's: it types
        await pilot.pause()
        assert chat(app).prompt.text.replace("x", "", 1) == "some draft" and app.focused is chat(app).prompt
        assert any("'app.toggle_history' = 'x'" in m and "only outside" in m for _, _, m in app.notices)
        assert not any("toggle_memory" in m for _, _, m in app.notices)
