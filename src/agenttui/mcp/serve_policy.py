"""Who may write memory through ``mcp serve`` without the user's review: the ``[mcp.serve]`` table.

::

    [mcp.serve]
    memory_add = "review"                 # the default; "accept" stores at once (the old behaviour)
    trusted_clients = ["claude-code"]     # these clients' notes are stored at once

Decisions:

* **Review by default.** Another agent's note is held in the review queue
  (:mod:`agenttui.core.memory.review_queue`) until the user accepts it in the
  Memory pane: what one agent was talked into by a web page must not reach
  every later prompt unseen (the same reason the app's own model asks).
* A client is named by what it says in the MCP handshake (``clientInfo.name``,
  compared without case; the version is ignored). That is a convenience, not
  authentication: any program that can start ``agenttui mcp serve`` can also
  edit the memory file, so trusting a name trusts nothing more than that.
* A bad value is a warning on stderr and the default is used (review).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, Literal

from agenttui.core.config.paths import Paths


@dataclass(frozen=True)
class ServePolicy:
    memory_add: Literal["review", "accept"] = "review"
    trusted_clients: tuple[str, ...] = ()

    def stores_at_once(self, client: str | None) -> bool:
        """Whether a ``memory_add`` from ``client`` (its handshake name) skips the review."""
        if self.memory_add == "accept":
            return True
        name = (client or "").strip().casefold()
        return bool(name) and name in {c.strip().casefold() for c in self.trusted_clients}


def parse(table: Any, warn: Any = None) -> ServePolicy:
    """The policy from the ``[mcp.serve]`` table (``warn(text)`` hears about bad values)."""
    warn = warn or (lambda text: print(f"agenttui: {text}", file=sys.stderr))
    table = table if isinstance(table, dict) else {}
    mode = table.get("memory_add", "review")
    if mode not in ("review", "accept"):
        warn(f"config.toml: mcp.serve.memory_add must be \"review\" or \"accept\", not {mode!r}; "
             "using \"review\"")
        mode = "review"
    trusted = table.get("trusted_clients", [])
    if not isinstance(trusted, list) or not all(isinstance(c, str) for c in trusted):
        warn("config.toml: mcp.serve.trusted_clients must be a list of client names; trusting none")
        trusted = []
    return ServePolicy(mode, tuple(trusted))


def load(paths: Paths, warn: Any = None) -> ServePolicy:
    """The policy in config.toml (the default, review, when the file does not parse)."""
    from agenttui.core.config.file import ConfigError
    from agenttui.mcp.config import read_raw

    try:
        raw = read_raw(paths)
    except ConfigError:
        return ServePolicy()
    return parse(raw.get("serve"), warn)
