"""The endpoint's models, for the Settings picker.

``GET {base_url}/models`` through the real ``openai`` client, the same way a
turn reaches the endpoint (so proxies, headers and errors behave alike). Some
gateways do not offer the list: that is a :class:`ModelListError` with the
endpoint's words, and the model name is still typed by hand. Blocking: call it
from a worker thread.
"""

from __future__ import annotations

LIST_TIMEOUT = 10.0  # seconds; the dialog stays usable meanwhile


class ModelListError(Exception):
    """The list could not be fetched (message: one line for the user)."""


def list_models(base_url: str | None, api_key: str, timeout: float = LIST_TIMEOUT) -> list[str]:
    """The model ids the endpoint lists, sorted; raises :class:`ModelListError`."""
    import openai  # lazy: see agent.client

    from agenttui.agent.retry import classify

    client = openai.OpenAI(base_url=base_url or None, api_key=api_key, timeout=timeout, max_retries=0)
    try:
        page = client.models.list()
        return sorted({str(model.id) for model in page.data if getattr(model, "id", None)})
    except Exception as exc:  # every failure is the user's to read, never a crash
        raise ModelListError(classify(exc, timeout).message) from exc
    finally:
        client.close()
