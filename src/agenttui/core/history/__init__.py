"""Conversation history: the SQLite store, its schema, export, import, search by conversation."""
