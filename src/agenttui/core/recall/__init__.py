"""Recall: ranking what was said and noted for a question; word tables; semantic ranking."""
