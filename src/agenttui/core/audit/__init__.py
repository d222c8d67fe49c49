"""The memory audit: findings per item, duplicates by wording and by meaning."""
