"""``agenttui history import`` indexes what it imported for semantic recall (history_import_embed.py),
against the fake OpenAI-compatible server, through the real CLI and store."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.cli.embedding_rows import embedded

CHATGPT = Path(__file__).parent / "data" / "chatgpt_conversations.json"



@pytest.mark.slow
def test_an_import_is_indexed_for_the_next_question(cli, paths, fake_openai):
    result = cli("history", "import", str(CHATGPT))
    assert result.code == 0, result.err
    assert "imported 2 conversations" in result.out  # the counts stay on stdout, as before
    assert embedded(paths) > 0
    assert f"indexed {embedded(paths)} messages for semantic recall" in result.err
    assert "your history is sent to" in result.err  # "auto": what is sent where, said the first time
    left = cli("history", "embed")
    assert left.code == 0, left.err
    assert "embedded 0 messages" in left.out and "every message has an embedding" in left.out
    again = cli("history", "import", str(CHATGPT))  # nothing new: nothing to index, nothing to say
    assert again.code == 0 and "indexed" not in again.err and "sent to" not in again.err


@pytest.mark.slow
def test_no_embed_leaves_it_to_later(cli, paths, fake_openai):
    result = cli("history", "import", "--no-embed", str(CHATGPT))
    assert result.code == 0, result.err
    assert embedded(paths) == 0 and not fake_openai.embedding_requests


@pytest.mark.slow
def test_semantic_off_sends_nothing(cli, paths, fake_openai):
    paths.config_file.parent.mkdir(parents=True, exist_ok=True)
    paths.config_file.write_text("[recall]\nsemantic = false\n", encoding="utf-8")
    result = cli("history", "import", str(CHATGPT))
    assert result.code == 0, result.err
    assert embedded(paths) == 0 and not fake_openai.embedding_requests


@pytest.mark.slow
def test_an_endpoint_without_embeddings_costs_one_line_not_the_import(cli, paths, fake_openai):
    fake_openai.no_embeddings()
    result = cli("history", "import", str(CHATGPT))
    assert result.code == 0, result.err
    assert "imported 2 conversations" in result.out
    assert "serves no embeddings" in result.err and "Traceback" not in result.err
    assert embedded(paths) == 0


def test_without_a_key_the_import_asks_nothing(cli, paths):
    result = cli("history", "import", str(CHATGPT))
    assert result.code == 0, result.err
    assert result.err == "" and embedded(paths) == 0
