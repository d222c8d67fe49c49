"""Which LLM errors are retried, how long to wait, and how to say what failed (docs/agent.md).

Decisions:

* Retried: 429, 5xx (and 408/409), and connection errors *before any output
  of that call reached the user*. Once text has streamed, a failure ends the
  turn with the partial reply kept (retrying would duplicate what is already
  on screen); the user retries with one key.
* Not retried: other 4xx (the request itself is wrong), read timeouts (each
  already cost ``request_timeout`` seconds; the user decides), malformed
  stream chunks.
* ``Retry-After`` (seconds, HTTP date, or ``retry-after-ms``) is honoured up
  to ``max_retry_after``; otherwise exponential backoff ``base * 2**n``
  capped at ``max_delay``.
"""

from __future__ import annotations

import email.utils
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass
class RetryPolicy:
    max_retries: int = 3
    base_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 30.0


@dataclass
class LLMFailure:
    """A classified error from one completion call."""

    message: str  # user-facing
    retryable: bool
    retry_after: float | None = None
    status: int | None = None


def parse_retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` / ``retry-after`` (seconds or HTTP date)."""
    if headers is None:
        return None
    value = headers.get("retry-after-ms")
    if value:
        try:
            return max(0.0, float(value) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, moment.timestamp() - time.time())


def classify(exc: BaseException, timeout: float) -> LLMFailure:
    """Map an exception from the openai client (or the stream) to an LLMFailure."""
    import openai  # already imported by the client at this point

    from agenttui.agent.stream_reply import StreamProblem

    if isinstance(exc, StreamProblem):  # not SSE, or an error object mid-stream: said in words
        return LLMFailure(str(exc), retryable=False)
    if isinstance(exc, openai.APITimeoutError):
        return LLMFailure(f"Timed out after {timeout:g} s waiting for the model.", retryable=False)
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        detail = _error_detail(exc)
        retryable = status in (408, 409, 429) or status >= 500
        what = "rate-limited the request (429)" if status == 429 else f"returned {status}"
        if status in (401, 403):
            detail += " -- check the API key (`agenttui key set` or OPENAI_API_KEY)"
        return LLMFailure(f"The endpoint {what}: {detail}", retryable=retryable,
                          retry_after=parse_retry_after(exc.response.headers), status=status)
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        why = f" ({type(cause).__name__}: {cause})" if cause else ""
        where = _request_url(exc)
        if type(cause).__name__ == "ConnectError":  # nothing answered: name where we knocked
            return LLMFailure(f"Could not connect to {where}{why}. Is the server running, and is "
                              "base_url right (Settings, or OPENAI_BASE_URL)?", retryable=True)
        return LLMFailure(f"Lost the connection to {where}{why}.", retryable=True)
    if isinstance(exc, json.JSONDecodeError | ValueError):
        return LLMFailure(f"The endpoint sent a malformed stream chunk ({exc}).", retryable=False)
    if isinstance(exc, openai.APIError):
        return LLMFailure(f"The endpoint reported an error: {exc}", retryable=False)
    return LLMFailure(f"Unexpected error talking to the model: {type(exc).__name__}: {exc}",
                      retryable=False)


def _request_url(exc: BaseException) -> str:
    """The URL the failed request went to, without user:password or query."""
    request = getattr(exc, "request", None)
    url = getattr(request, "url", None)
    if url is None:
        return "the endpoint"
    try:
        return str(url.copy_with(userinfo=b"", query=None, fragment=None))
    except Exception:  # not an httpx.URL: say less rather than leak a password
        return "the endpoint"


def delay_for(policy: RetryPolicy, attempt: int, retry_after: float | None) -> float:
    """How long to wait before retry number ``attempt`` (0-based)."""
    if retry_after is not None:
        return min(retry_after, policy.max_retry_after)
    return float(min(policy.base_delay * (2 ** attempt), policy.max_delay))


def _error_detail(exc: BaseException) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error") if isinstance(body.get("error"), dict) else body
        message = inner.get("message") if isinstance(inner, dict) else None
        if message:
            return str(message)
    return getattr(exc, "message", None) or str(exc)
