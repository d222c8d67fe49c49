"""Install every runtime dependency at its declared floor and run agenttui on it.

    python scripts/check_floors.py [--venv DIR] [--pytest ARGS...]

Reads ``[project].dependencies`` of pyproject.toml, writes a constraints file
pinning each to the version after its ``>=`` (a dependency without one is an
error: its floor would be untested), creates a fresh venv, installs agenttui
from this checkout with ``pip install -c constraints .`` (so pip also checks the
floors agree with each other and with what the dependencies themselves ask),
then, on that venv:

1. ``agenttui ask --dry-run`` (builds the request, sends nothing);
2. ``agenttui completion bash`` and ``zsh`` (shtab);
3. one real ``agenttui ask`` against the fake OpenAI server
   (tests/fakes/openai_server.py), checking the reply and the request body;
4. with ``--pytest ARGS``: the test extras too (at their newest allowed
   versions, the runtime floors held by the constraints), then pytest ARGS.

Exit 0 when all pass. Takes a minute or two (the venv and the install): run
by hand and in CI, not by the unit tests (tests/unit/test_dependency_floors.py
checks the floors parse and that every import is declared).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*)$")
_FLOOR = re.compile(r">=\s*([0-9][0-9A-Za-z.+!-]*)")


def floors(pyproject: Path = REPO / "pyproject.toml") -> dict[str, str]:
    """{distribution name: floor version} of the runtime dependencies; ValueError naming any without one."""
    declared = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["dependencies"]
    found: dict[str, str] = {}
    missing: list[str] = []
    for requirement in declared:
        requirement = requirement.split(";", 1)[0]  # environment markers do not change the floor
        match = _REQUIREMENT.match(requirement)
        if match is None:
            raise ValueError(f"cannot read the requirement {requirement!r}")
        floor = _FLOOR.search(match.group(3))
        if floor is None:
            missing.append(match.group(1))
        else:
            found[match.group(1).lower().replace("_", "-")] = floor.group(1)
    if missing:
        raise ValueError(f"no floor (>=) declared for: {', '.join(missing)}")
    return found


def same(version: str, floor: str) -> bool:
    """1.0.0 is 1.0 (a floor is written short; pip pins the release it names)."""
    def parts(text: str) -> list[str]:
        items = text.split(".")
        while len(items) > 1 and items[-1] == "0":
            items.pop()
        return items

    return parts(version) == parts(floor)


def constraints_text(pins: dict[str, str]) -> str:
    return "".join(f"{name}=={version}\n" for name, version in sorted(pins.items()))


def _run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    print("$", " ".join(command), flush=True)
    return subprocess.run(command, text=True, **kwargs)  # type: ignore[call-overload]


def make_venv(where: Path, constraints: Path, with_tests: bool) -> Path:
    """A fresh venv at ``where`` with agenttui installed under ``constraints``; its python."""
    venv.create(where, with_pip=True, clear=True)
    python = where / "bin" / "python"
    target = f"{REPO}[test]" if with_tests else str(REPO)
    # A copy of the checkout is built (not editable): the venv is what a user's `pip install` makes.
    done = _run([str(python), "-m", "pip", "install", "--quiet", "-c", str(constraints), target])
    if done.returncode != 0:
        raise SystemExit(f"installing at the floors failed (exit {done.returncode})")
    return python


def installed(python: Path, names: list[str]) -> dict[str, str]:
    code = ("import importlib.metadata as m, json, sys;"
            "print(json.dumps({n: m.version(n) for n in sys.argv[1:]}))")
    out = subprocess.run([str(python), "-c", code, *names], capture_output=True, text=True, check=True)
    return dict(json.loads(out.stdout))


def smoke(python: Path) -> list[str]:
    """``ask --dry-run`` and one real ``ask`` against the fake server; the problems found."""
    sys.path.insert(0, str(REPO))
    from tests.fakes.openai_server import FakeOpenAI

    problems: list[str] = []
    agenttui = [str(python), "-m", "agenttui"]
    with FakeOpenAI(default_reply="the floors hold") as server, tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "AGENTTUI_"))}
        env.update(AGENTTUI_HOME=home, OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY="sk-floor-check",
                   PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
        env.pop("PYTHONPATH", None)  # the venv's install, not this checkout's src/
        dry = _run([*agenttui, "ask", "--dry-run", "--json", "what is the floor?"], env=env,
                   capture_output=True, timeout=300)
        if dry.returncode != 0 or '"what is the floor?"' not in dry.stdout:
            problems.append(f"ask --dry-run: exit {dry.returncode}\n{dry.stderr[-2000:]}")
        for shell in ("bash", "zsh"):  # shtab at its floor
            script = _run([*agenttui, "completion", shell], env=env, capture_output=True, timeout=300)
            if script.returncode != 0 or "agenttui" not in script.stdout:
                problems.append(f"completion {shell}: exit {script.returncode}\n{script.stderr[-2000:]}")
        real = _run([*agenttui, "ask", "what is the floor?"], env=env, capture_output=True, timeout=300)
        if real.returncode != 0 or real.stdout != "the floors hold\n":
            problems.append(f"ask: exit {real.returncode}, stdout {real.stdout[-300:]!r}\n{real.stderr[-2000:]}")
        elif server.chat_requests[-1]["messages"][-1] != {"role": "user", "content": "what is the floor?"}:
            problems.append(f"ask sent {server.chat_requests[-1]['messages'][-1]!r}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", type=Path, default=Path(tempfile.gettempdir()) / "agenttui-floors",
                        help="where to make the venv (made afresh each run)")
    parser.add_argument("--pytest", nargs=argparse.REMAINDER, default=None,
                        help="also install the test extras and run pytest with these arguments")
    args = parser.parse_args(argv)
    pins = floors()
    args.venv.parent.mkdir(parents=True, exist_ok=True)
    constraints = args.venv.with_name(args.venv.name + "-constraints.txt")
    constraints.write_text(constraints_text(pins), encoding="utf-8")
    print(f"constraints ({constraints}):\n{constraints_text(pins)}", flush=True)
    python = make_venv(args.venv, constraints, with_tests=args.pytest is not None)
    versions = installed(python, sorted(pins))
    wrong = {name: (versions[name], floor) for name, floor in pins.items() if not same(versions[name], floor)}
    if wrong:  # a constraint that did not hold would make the check about other versions
        print(f"not at their floors: {wrong}", file=sys.stderr)
        return 1
    problems = smoke(python)
    if args.pytest is not None and not problems:
        tests = _run([str(python), "-m", "pytest", "-p", "no:cacheprovider", *args.pytest], cwd=REPO)
        if tests.returncode != 0:
            problems.append(f"pytest {' '.join(args.pytest)}: exit {tests.returncode}")
    for problem in problems:
        print(f"FAILED {problem}", file=sys.stderr)
    print("floors: " + ("FAILED" if problems else f"ok ({len(pins)} dependencies at their floors)"))
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
