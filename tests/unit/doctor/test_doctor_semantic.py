"""Doctor's ``semantic recall`` line: what is sent where for indexing, and how to turn it off.
Against the real fake server over HTTP; settings from a real config.toml."""

from __future__ import annotations

import json

import pytest

from agenttui.core.doctor import checks as doctor
from agenttui.core.doctor.checks import DoctorContext
from agenttui.core.doctor.semantic import check_semantic


@pytest.fixture
def ctx(paths, fake_openai):
    return DoctorContext(paths=paths, endpoint_timeout=5.0, probe_timeout=5.0,
                         environ={"OPENAI_BASE_URL": fake_openai.base_url, "OPENAI_API_KEY": "sk-test"})


def _config(paths, text: str) -> None:
    paths.config_file.parent.mkdir(parents=True, exist_ok=True)
    paths.config_file.write_text(text, encoding="utf-8")


def test_auto_with_embeddings_says_the_history_is_sent_there_and_how_to_stop_it(ctx, fake_openai):
    line = check_semantic(ctx)
    endpoint = fake_openai.base_url.rstrip("/")
    assert line.status == "ok" and line.detail.startswith("auto:")
    assert f"history is sent to {endpoint}/embeddings" in line.detail
    assert "semantic = false" in line.detail
    assert [r.path for r in fake_openai.requests] == ["/v1/embeddings"]
    assert "semantic recall" in [c.name for c in doctor.run_checks(ctx)]


def test_auto_without_embeddings_says_keyword_search(ctx, fake_openai):
    fake_openai.no_embeddings(404)
    line = check_semantic(ctx)
    assert "serves no embeddings (HTTP 404" in line.detail and "keyword search" in line.detail
    assert "history is sent" not in line.detail


def test_a_remembered_refusal_is_reported_without_asking(ctx, paths, fake_openai):
    folder = paths.profiles_dir / "default"
    folder.mkdir(parents=True)
    (folder / "semantic.json").write_text(json.dumps({"endpoints": {fake_openai.base_url.rstrip("/"): {
        "no_embeddings": {"model": "text-embedding-3-small", "since": "2026-01-02T00:00:00+00:00",
                          "reason": "HTTP 404"}}}}), encoding="utf-8")
    line = check_semantic(ctx)
    assert "serves no embeddings (HTTP 404, remembered since 2026-01-02" in line.detail
    assert fake_openai.requests == []


def test_false_and_offline_send_nothing(ctx, paths, fake_openai):
    ctx.offline = True
    assert "if it serves embeddings (not checked: --offline)" in check_semantic(ctx).detail
    _config(paths, "[recall]\nsemantic = false\n")
    ctx.offline = False
    assert check_semantic(ctx).detail.startswith("off: nothing is sent")
    _config(paths, "[recall]\nsemantic = true\n")
    assert check_semantic(ctx).detail.startswith("on: your history is sent to")
    assert fake_openai.requests == []


def test_local_sends_nothing_and_says_so(ctx, paths, fake_openai):
    pytest.importorskip("numpy", reason="the local embedder needs NumPy (agenttui[local-embeddings])")
    _config(paths, '[recall]\nsemantic = "local"\n')
    line = check_semantic(ctx)
    assert line.status == "ok" and line.detail.startswith("local:") and "nothing is sent" in line.detail
    assert fake_openai.requests == []


def test_auto_without_embeddings_says_keyword_search_even_with_the_local_extra(ctx, fake_openai):
    pytest.importorskip("numpy", reason="the local embedder needs NumPy (agenttui[local-embeddings])")
    fake_openai.no_embeddings(404)
    line = check_semantic(ctx)
    assert "made on this machine" not in line.detail and "keyword search" in line.detail
