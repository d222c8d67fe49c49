"""One request: assembling its messages, the prompt budget, what it costs, compaction."""
