"""The built wheel, installed into a fresh virtual environment, works.

This is the newcomer's path (``pip install .`` / ``pipx install .``): the
built wheel holds the built-in themes, and ``pipx install .`` (which builds that
wheel and pip-installs it into an empty venv of its own) gives a command whose
``--version``, ``paths`` and ``doctor`` work and which finds its themes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from agenttui import __version__

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        check=True, timeout=300,
    )
    (built,) = out.glob("agenttui-*.whl")
    return built


def test_wheel_ships_builtin_themes(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    themes = [n for n in names if n.startswith("agenttui/themes/") and n.endswith(".toml")]
    assert len(themes) >= 4, names


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """``pipx install .`` (the README's alternative to ``pip install .``, which it runs in a
    fresh venv of its own): the directory of the venv's ``python``, beside which pipx links
    the command. One install serves every test here; it is most of this module's time."""
    base = tmp_path_factory.mktemp("pipx")
    tools = base / "pipx-venv"
    venv.EnvBuilder(with_pip=True).create(tools)
    subprocess.run([tools / "bin" / "python", "-m", "pip", "install", "--quiet", "pipx"],
                   check=True, timeout=600)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "AGENTTUI_", "PIPX_"))}
    env.update(PIPX_HOME=str(base / "pipx-home"), PIPX_BIN_DIR=str(base / "pipx-bin"),
               PIPX_MAN_DIR=str(base / "pipx-man"))
    subprocess.run([tools / "bin" / "pipx", "install", "--quiet", str(ROOT)],
                   check=True, timeout=900, env=env, capture_output=True)
    bin_dir = base / "pipx-home" / "venvs" / "agenttui" / "bin"
    assert (base / "pipx-bin" / "agenttui").resolve() == (bin_dir / "agenttui").resolve()
    return bin_dir


def _run(bin_dir: Path, *args: str, home: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "AGENTTUI_"))}
    env["AGENTTUI_HOME"] = str(home)
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
    return subprocess.run([bin_dir / "agenttui", *args], capture_output=True, text=True,
                          env=env, cwd=home.parent, timeout=60)


def test_installed_command_runs(installed, tmp_path):
    home = tmp_path / "home"
    version = _run(installed, "--version", home=home)
    assert version.returncode == 0 and __version__ in version.stdout

    paths = _run(installed, "paths", "--json", home=home)
    assert paths.returncode == 0, paths.stderr
    assert json.loads(paths.stdout)["config_file"] == str(home.resolve() / "config" / "config.toml")

    doctor = _run(installed, "doctor", "--offline", home=home)
    # No API key and no keyring on this fresh install: doctor must say so with a fix.
    assert doctor.returncode == 1
    assert "api key" in doctor.stdout and "fix:" in doctor.stdout
    assert "verdict:" in doctor.stdout


def test_installed_package_finds_builtin_themes(installed):
    code = ("from agenttui.ui.themes import builtin_themes_dir, load_themes;"
            "d = builtin_themes_dir(); t = load_themes(None);"
            "print(len(t.themes), len(t.errors), 'site-packages' in str(d))")
    out = subprocess.run([installed / "python", "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    count, errors, from_wheel = out.stdout.split()
    assert int(count) >= 4 and errors == "0" and from_wheel == "True"
