"""Potham Chronicles 2038: its rules engine, pure Python, no web, database or templates (see
docs/architecture.md); its web part is in web/."""

from app.rulesets.potham2038.ruleset import RULESET  # noqa: F401  (the registry reads it here)
