"""The 2038 commands' namespace: the rules modules register into it with `@command`
(the namespace type itself is the kernel's, app/kernel/commands.py)."""

from __future__ import annotations

from app.kernel.commands import Commands

POTHAM_COMMANDS = Commands()
REGISTRY = POTHAM_COMMANDS.registry
SETS = POTHAM_COMMANDS.sets
command = POTHAM_COMMANDS.command
