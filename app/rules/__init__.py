"""The 2038 rules engine: pure Python, no web, database or templates (see architecture.md)."""
