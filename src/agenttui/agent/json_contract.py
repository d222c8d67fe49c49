"""The strict JSON contract model-written proposals are held to (extraction, deep review).

The model must answer ``{"<field>": [ … ]}`` and nothing else: one top-level
object with exactly that field, a list, at most ``limit`` entries. The whole
document failing is one :class:`ContractError`; each entry is checked on its
own, so one bad entry costs only itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class ContractError(ValueError):
    """The answer (or one entry of it) breaks the contract; the message says how."""


def check_fields(raw: Any, fields: tuple[str, ...]) -> dict[str, Any]:
    """``raw`` as an object with exactly ``fields``, or :class:`ContractError` naming the first wrong one."""
    if not isinstance(raw, dict):
        raise ContractError("must be an object")
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        raise ContractError(f"unknown field {unknown[0]!r}")
    missing = [name for name in fields if name not in raw]
    if missing:
        raise ContractError(f"missing field {missing[0]!r}")
    return raw


def parse_contract_list(raw_json: str, field: str, limit: int, check: Callable[[Any], T], *,
                        entry: str | None = None) -> list[T | ContractError]:
    """Each entry of ``{field: [...]}`` through ``check``, in order, or its :class:`ContractError`.

    Entries past ``limit`` are errors. ``entry`` names an entry in its error
    ("proposal 2: …"); without it the entry's own error stands. Raises
    :class:`ContractError` when the document as a whole is malformed.
    """
    try:
        document = json.loads(raw_json)
    except (TypeError, ValueError) as error:
        raise ContractError(f"not a JSON document ({error})") from None
    if not isinstance(document, dict):
        raise ContractError("the top level must be an object")
    if set(document) != {field}:
        extra = sorted(set(document) - {field})
        raise ContractError(f"unknown top-level field {extra[0]!r}" if extra
                            else f"missing top-level field {field!r}")
    entries = document[field]
    if not isinstance(entries, list):
        raise ContractError(f"{field!r} must be a list")
    out: list[T | ContractError] = []
    for index, raw in enumerate(entries, start=1):
        if index > limit:
            out.append(ContractError(f"more than {limit} {field}"))
            continue
        try:
            out.append(check(raw))
        except ContractError as error:
            out.append(ContractError(f"{entry} {index}: {error}") if entry else error)
    return out
