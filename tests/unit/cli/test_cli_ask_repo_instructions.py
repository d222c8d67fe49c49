"""``agenttui ask`` started inside a repository sends its AGENTS.md / CLAUDE.md (a real subprocess,
the real openai client, the request the fake server received)."""

from __future__ import annotations

import pytest

from tests.unit.context.test_repo_instructions import repo as repo  # noqa: F401,F811 -- the same repository


@pytest.mark.slow
def test_ask_in_a_repository_sends_its_agents_md(cli, fake_openai, repo):
    fake_openai.reply("Will do.")
    result = cli("ask", "--new", "add a refund endpoint", cwd=repo / "services" / "billing")
    assert result.code == 0, result.err
    system = fake_openai.chat_requests[-1]["messages"][0]["content"]
    assert "Run `make test` before proposing a commit." in system
    assert "Billing amounts are integer cents." in system


@pytest.mark.slow
def test_doctor_lists_the_instruction_files(cli, repo):
    result = cli("doctor", cwd=repo / "services" / "billing")
    assert str(repo / "AGENTS.md") in result.out
    assert str(repo / "services" / "billing" / "CLAUDE.md") in result.out
