"""MCP both ways.

* Client: servers configured in ``config.toml`` (:mod:`.config`), connected
  with the official ``mcp`` SDK (:mod:`.connection`, :mod:`.manager`), their
  tools offered to the model as ``mcp__<server>__<tool>`` (:mod:`.bridge`).
* Server: ``agenttui mcp serve`` (:mod:`.serve`) offers the profile's memory
  and history to other agents.

Nothing here imports the SDK at module level: it costs ~0.5 s and only a
configured server or ``mcp serve`` needs it.
"""
