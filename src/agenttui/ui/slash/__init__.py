"""The chat's slash commands: one table (:mod:`.table`), the handlers (plain functions over
:class:`.context.SlashContext`), and dispatch (:mod:`.dispatch`)."""
