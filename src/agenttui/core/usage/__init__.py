"""Tokens and cost per assistant message (history schema v9), and their totals."""
