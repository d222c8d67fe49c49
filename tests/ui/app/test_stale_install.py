"""A lazily imported screen that vanished in an upgrade while the app runs
gives a "restart" notice and the app carries on; an import error with nothing changed on disk
stays a bug (crash log)."""

from __future__ import annotations

import importlib.abc
import sys

import pytest

from agenttui.core import stale_install
from agenttui.ui.app import make_app
from tests.ui.helpers import chat, wait_until

GONE = "agenttui.ui.screens.prompt_inspector"


class _Vanished(importlib.abc.MetaPathFinder):
    """The import system as after ``pip install -U`` removed the module's file."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname == GONE:
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return None


@pytest.fixture
def vanished(monkeypatch):
    monkeypatch.delitem(sys.modules, GONE, raising=False)
    monkeypatch.setattr(sys, "meta_path", [_Vanished(), *sys.meta_path])


@pytest.mark.slow
async def test_a_screen_gone_after_an_upgrade_says_restart_and_the_app_carries_on(services, vanished,
                                                                                 monkeypatch):
    # the package directory counts as changed after start-up (as pip's rewrite leaves it)
    monkeypatch.setattr(stale_install, "STARTED", 0.0)
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None)
        await pilot.press("f4")  # the prompt inspector, imported lazily
        await wait_until(pilot, lambda: any(n[1] == "Restart agenttui" for n in app.notices))
        notice = next(n for n in app.notices if n[1] == "Restart agenttui")
        assert "restart" in notice[2].lower() or "start agenttui again" in notice[2]
        assert GONE in notice[2] and "changed on disk" in notice[2]
        assert app.failure is None and app.is_running  # not ended as a bug
        chat(app).prompt.focus()
        await pilot.press(*"still here")
        assert chat(app).prompt.text == "still here"


def test_an_import_error_with_nothing_changed_is_still_a_bug(vanished, monkeypatch):
    monkeypatch.setattr(stale_install, "STARTED", float("inf"))  # nothing on disk is newer
    with pytest.raises(ModuleNotFoundError) as caught:
        __import__(GONE)
    assert stale_install.stale_install_message(caught.value) is None


def test_other_libraries_are_not_ours(monkeypatch):
    monkeypatch.setattr(stale_install, "STARTED", 0.0)
    error = ModuleNotFoundError("No module named 'numpy'", name="numpy")
    assert stale_install.stale_install_message(error) is None


async def test_a_slash_command_whose_module_vanished_says_restart(services, monkeypatch, tmp_path):
    gone = "agenttui.agent.images"  # /attach loads it lazily
    monkeypatch.delitem(sys.modules, gone, raising=False)

    class Vanished(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path=None, target=None):
            if fullname == gone:
                raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
            return None

    monkeypatch.setattr(sys, "meta_path", [Vanished(), *sys.meta_path])
    monkeypatch.setattr(stale_install, "STARTED", 0.0)
    app = make_app(services, check_api_key=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: chat(app).prompt is not None)
        prompt = chat(app).prompt
        prompt.focus()
        prompt.load_text(f"/attach {tmp_path / 'cat.png'}")
        await pilot.press("enter")
        await wait_until(pilot, lambda: any(gone in n[2] for n in app.notices))
        assert any("start agenttui again" in n[2] for n in app.notices)
        assert app.failure is None and app.is_running
