"""What the turn panel needs beyond the state: registered as a panels context hook."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from app.web.deps import Opened
from app.web.panels import CONTEXT_HOOKS


def turn_context(opened: Opened, session: Session, context: dict[str, Any]) -> dict[str, Any]:
    state = context["state"]
    return {"dice_mode": state.house.dice_mode}


CONTEXT_HOOKS.append(turn_context)
