"""The yardstick for the HTTP benchmark: a bare FastAPI app with the same endpoint path that
validates the same request body with the same pydantic model and answers a constant."""

from __future__ import annotations

from fastapi import FastAPI

from app.rulesets.potham2038.web.activation_api import ActivationIn

CONSTANT = {"bot": "Warden-2", "marked": [{"character": "Ada", "stacks": 1, "rule": "R-MARK-ACT"}],
            "actions": [], "ties": [], "arrived": False, "notes": []}

app = FastAPI()


@app.post("/api/rules/activation", response_model=None)
async def activation(body: ActivationIn) -> dict:
    return CONSTANT
