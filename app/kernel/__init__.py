"""What the shell and every ruleset share, and nothing of any one game (docs/rulesets.md): the
command namespace, log entries and refusals (commands.py), frozen value types (frozen.py), names
(names.py) and the stale-edit check (preconditions.py). Pure: pydantic only."""
