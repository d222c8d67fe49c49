"""The model's tools: the registry, the shared tool types, argument checks, one module a family."""
