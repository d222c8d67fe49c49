"""The built wheel, installed into a fresh virtual environment, works.

This is the newcomer's path (``pip install .`` / ``pipx install .``): build
the wheel, install it into an empty venv, and run ``--version``, ``paths``
and ``doctor`` from there; the built-in themes must be inside the wheel.
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
def installed(wheel, tmp_path_factory) -> Path:
    env_dir = tmp_path_factory.mktemp("venv") / "fresh"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    subprocess.run([env_dir / "bin" / "python", "-m", "pip", "install", "--quiet", str(wheel)],
                   check=True, timeout=600)
    return env_dir / "bin"


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


def test_pipx_install_from_the_source_tree(tmp_path):
    """``pipx install .`` (the README's alternative) gives a working command."""
    tools = tmp_path / "pipx-venv"
    venv.EnvBuilder(with_pip=True).create(tools)
    subprocess.run([tools / "bin" / "python", "-m", "pip", "install", "--quiet", "pipx"],
                   check=True, timeout=600)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "AGENTTUI_", "PIPX_"))}
    env.update(PIPX_HOME=str(tmp_path / "pipx-home"), PIPX_BIN_DIR=str(tmp_path / "pipx-bin"),
               PIPX_MAN_DIR=str(tmp_path / "pipx-man"))
    subprocess.run([tools / "bin" / "pipx", "install", "--quiet", str(ROOT)],
                   check=True, timeout=900, env=env, capture_output=True)
    version = subprocess.run([tmp_path / "pipx-bin" / "agenttui", "--version"],
                             capture_output=True, text=True, timeout=60, env=env)
    assert version.returncode == 0 and __version__ in version.stdout
