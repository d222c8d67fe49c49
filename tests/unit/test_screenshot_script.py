"""``scripts/make_screenshot.py`` regenerates the README screenshot deterministically.

The script runs in subprocesses (it pins TZ and the environment for its own
process). The committed SVG is not compared byte for byte with a fresh one:
any intended UI change would fail that; instead it must be a screenshot of
the same demo, and two fresh renders must be identical.
"""

from __future__ import annotations

import html
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "make_screenshot.py"
COMMITTED = ROOT / "docs" / "screenshot.svg"
# Pane titles, the header, a pinned note, a fact, a conversation title, chat text.
EXPECTED = ("Memory", "Chat", "History", "profile: webshop", "model: llama3.1:8b",
            "Prefers short", "timezone", "Speed up the", "prefetch")


def _visible(svg: str) -> str:
    return html.unescape(svg).replace("\xa0", " ")


def _shows_the_demo(svg: str) -> list[str]:
    text = _visible(svg)
    return [word for word in EXPECTED if word not in text]


def test_committed_screenshot_shows_the_demo_main_screen():
    svg = COMMITTED.read_text(encoding="utf-8")
    assert svg.lstrip().startswith("<svg")
    assert not _shows_the_demo(svg)
    assert "agenttui-screenshot-" not in svg  # the temporary home never shows


@pytest.mark.slow
def test_script_renders_the_same_svg_twice(tmp_path):
    outputs = [tmp_path / "a.svg", tmp_path / "b.svg"]
    runs = [subprocess.Popen([sys.executable, str(SCRIPT), "--output", str(out)],
                             cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for out in outputs]
    for proc in runs:
        out, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, err
    first, second = (p.read_text(encoding="utf-8") for p in outputs)
    assert first == second
    assert not _shows_the_demo(first)
