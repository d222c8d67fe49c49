"""The models /model offers: configured first, the endpoint's list cached per endpoint and key
(the real openai client against the fake server), a failure not cached."""

from __future__ import annotations

import pytest

from agenttui.agent.model_choices import forget_listed, listed_models, ordered
from agenttui.agent.model_list import ModelListError


def _gets(server) -> int:
    return sum(r.method == "GET" and r.path.rstrip("/").endswith("/models") for r in server.requests)


def test_ordered_puts_configured_first_once():
    assert ordered(["b", None, "a", "b", " "], ["a", "c", "b", "d"]) == ["b", "a", "c", "d"]


def test_the_list_is_cached_per_endpoint_and_key(fake_openai):
    forget_listed()
    fake_openai.more_models = ["zeta", "alpha"]
    assert listed_models(fake_openai.base_url, "sk-one") == ["alpha", fake_openai.model, "zeta"]
    assert listed_models(fake_openai.base_url, "sk-one") == ["alpha", fake_openai.model, "zeta"]
    assert _gets(fake_openai) == 1
    listed_models(fake_openai.base_url, "sk-two")  # another key may see other models
    assert _gets(fake_openai) == 2
    forget_listed()


def test_a_failure_is_not_cached(fake_openai):
    forget_listed()
    fake_openai.no_models(404)
    with pytest.raises(ModelListError):
        listed_models(fake_openai.base_url, "sk-one")
    fake_openai.models_status = None
    assert fake_openai.model in listed_models(fake_openai.base_url, "sk-one")
    assert _gets(fake_openai) == 2
    forget_listed()
