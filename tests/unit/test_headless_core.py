"""The core and the security package never import the UI toolkit.

Each module is imported in a fresh interpreter (so nothing another test
imported can hide a leak), then we check ``sys.modules``.
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import agenttui.core
import agenttui.security

HEADLESS_PACKAGES = (agenttui.core, agenttui.security)


def _modules() -> list[str]:
    names = []
    for package in HEADLESS_PACKAGES:
        names.append(package.__name__)
        names += [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
    return sorted(names)


def test_headless_modules_exist():
    names = _modules()
    assert "agenttui.core.files" in names and "agenttui.security" in names


def test_core_and_security_never_import_textual_or_rich():
    code = (
        "import importlib, sys, json\n"
        f"for name in {_modules()!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(m for m in ('textual', 'rich') if m in sys.modules)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]", f"UI toolkit leaked into the core: {result.stdout}"


def test_cli_parser_is_cheap_to_build():
    """Building the CLI parser must not import the UI, openai or keyring."""
    code = (
        "import sys\n"
        "from agenttui.cli import build_parser\n"
        "build_parser()\n"
        "print(sorted(m for m in ('textual', 'openai', 'keyring') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
