"""Long-term memory: the store, its files and backups, the write gate, corrections, project memory."""
