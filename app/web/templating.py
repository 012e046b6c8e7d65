"""The Jinja2 environment shared by every page and partial (autoescape on: names are player text)."""

from __future__ import annotations

from pathlib import Path

from fastapi.templating import Jinja2Templates

from app.rules.models import PHASE_NAMES

templates = Jinja2Templates(directory=Path(__file__).resolve().parent.parent.parent / "templates")
templates.env.globals["PHASE_NAMES"] = PHASE_NAMES


def pool_text(pool: dict[str, int] | None) -> str:
    """{"red": 3, "white": 1} -> "3 red + 1 white"."""
    parts = [f"{n} {colour}" for colour, n in (pool or {}).items() if n]
    return " + ".join(parts) or "—"


templates.env.filters["pool"] = pool_text
