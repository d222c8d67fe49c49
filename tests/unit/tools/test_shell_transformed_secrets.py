"""Secrets that an approved command transformed (rev, xxd, base64, od).

Real commands run through the real shell tool in a project with a .env file.
"""

from __future__ import annotations

import shutil

import pytest

from agenttui.agent.tools.registry import ToolRegistry
from agenttui.security.transformed import programs, redact_tool_output, withheld_reason
from tests.unit.tools.conftest import run

OPENAI = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAB7CD0EFgh"
PASSWORD = "Tr0ub4dor&3xyzQ"
ENV = f"OPENAI_API_KEY={OPENAI}\nDB_HOST=db.internal\nDB_PASSWORD={PASSWORD}\n"


def _fragments(secret: str, k: int = 8) -> list[str]:
    return [secret[i : i + k] for i in range(len(secret) - k + 1)]


def _leaks(output: str) -> list[str]:
    found = []
    for secret in (OPENAI, PASSWORD):
        for frag in (*_fragments(secret), *_fragments(secret[::-1])):
            if frag in output:
                found.append(frag)
    return found


def _need(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed on this machine")


@pytest.fixture
def env_project(project_services, project_dir):
    (project_dir / ".env").write_text(ENV)
    return ToolRegistry(project_services)


@pytest.mark.parametrize(
    ("command", "tools"),
    [
        ("rev .env", ("rev",)),
        ("xxd .env", ("xxd",)),
        ("base64 .env", ("base64",)),
        ("od -c .env", ("od",)),
        ("cat .env | tr 'A-Za-z' 'N-ZA-Mn-za-m'", ("tr",)),
        ("cut -d= -f2 .env", ("cut",)),
        ("grep -o '=.*' .env", ("grep",)),
    ],
)
async def test_credential_file_through_a_transforming_command_is_withheld(env_project, command, tools):
    _need(*tools)
    outcome = await run(env_project, "run_shell", {"command": command})
    assert "[REDACTED:credential_file_output]" in outcome.output
    assert not _leaks(outcome.output)


@pytest.mark.parametrize(
    ("command", "tools"),
    [
        # The file name is built at run time, so the command does not name .env.
        ("f=.e; f=${f}nv; rev $f", ("rev",)),
        ("f=.e; f=${f}nv; xxd $f", ("xxd",)),
        ("f=.e; f=${f}nv; xxd -p $f", ("xxd",)),
        ("f=.e; f=${f}nv; hexdump -C $f", ("hexdump",)),
        ("f=.e; f=${f}nv; od -A x -t x1z $f", ("od",)),
        ("f=.e; f=${f}nv; od -c $f", ("od",)),
        ("f=.e; f=${f}nv; base64 $f", ("base64",)),
        ("f=.e; f=${f}nv; base64 -w0 $f", ("base64",)),
    ],
)
async def test_hidden_file_name_transformed_output_is_decoded_and_redacted(env_project, command, tools):
    _need(*tools)
    outcome = await run(env_project, "run_shell", {"command": command})
    assert outcome.ok
    assert "[REDACTED:" in outcome.output
    assert not _leaks(outcome.output), outcome.output


async def test_plain_reading_keeps_keys_and_ordinary_lines(env_project):
    outcome = await run(env_project, "run_shell", {"command": "cat .env"})
    assert not _leaks(outcome.output)
    assert "OPENAI_API_KEY=[REDACTED:" in outcome.output
    assert "DB_HOST=db.internal" in outcome.output
    assert "DB_PASSWORD=[REDACTED:password]" in outcome.output


async def test_ordinary_encoded_output_is_left_alone(env_project):
    _need("base64", "od")
    command = "printf 'hello world, nothing secret here' | base64; rev README.md; od -c README.md"
    outcome = await run(env_project, "run_shell", {"command": command})
    assert "REDACTED" not in outcome.output
    assert "aGVsbG8gd29ybGQs" in outcome.output and "omeD #" in outcome.output


@pytest.mark.parametrize(
    ("command", "withheld"),
    [
        ("cat .env", False),
        ("grep DB_HOST .env", False),
        ("ls -la ~/.ssh/id_rsa", False),
        ("ssh -i ~/.ssh/id_rsa deploy@host uptime", False),
        ("cat ~/.ssh/id_rsa.pub | base64", False),  # a public key
        ("sudo -u app cat /srv/app/.env.production", False),
        ("source .env && echo $DB_PASSWORD", True),
        ("python3 -c 'print(open(\".env\").read()[::-1])'", True),
        ("awk -F= '{print $2}' config/.npmrc", True),
        ("openssl rsa -in server.key -text", True),
        ("cat ~/.aws/credentials | sed 's/=/ /'", True),
        ("xxd ~/.kube/config", True),
        ("rev notes.txt", False),
    ],
)
def test_which_commands_are_withheld(command, withheld):
    assert (withheld_reason(command) is not None) is withheld


def test_program_names_of_a_command_line():
    assert programs("FOO=1 sudo -u x timeout 5 cat a | rev; echo $(base64 -d f) && /usr/bin/xxd g") == [
        "cat", "rev", "echo", "base64", "xxd"
    ]


def test_reversed_secret_in_any_output_is_redacted_where_it_stands():
    text = "line one\n" + f"{OPENAI}=YEK_IPA_IANEPO"[::-1][::-1][::-1] + "\nline three"
    out = redact_tool_output("./show.sh", text)
    assert not _leaks(out) and out.startswith("line one\n") and out.endswith("\nline three")


@pytest.mark.slow
@pytest.mark.parametrize(
    "unit",
    ["a", "QUJD", "00000010: 6b2d 7072  k-pr\n", "0000020   k   -\n", "4f50454e41495f41\n", "ab=cd\n", "sk-"],
)
def test_tool_output_redaction_is_linear(unit):
    from tests.unit.security.test_security_linear_time import RATIO_MAX, _ratio

    def make(n: int) -> str:
        return (unit * (n // len(unit) + 1))[:n]

    ratio, t1, t4 = _ratio(lambda text: redact_tool_output("./run.sh", text), make, 25_000)
    assert ratio < RATIO_MAX, f"{unit!r}: {t1:.4f}s -> {t4:.4f}s (x{ratio:.1f})"
