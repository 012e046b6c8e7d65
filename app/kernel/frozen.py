"""The base of every value type of a game: frozen, exact, and JSON's numbers only."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    # no NaN or Infinity: JSON has neither, so a state holding one could not be answered
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)
