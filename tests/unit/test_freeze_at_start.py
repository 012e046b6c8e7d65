"""Issue 21: the served app keeps what it holds at its start out of the garbage collector's full
passes (app.main.freeze_the_start), garbage collected first; an app a test makes does not (its
objects come and go in the test process)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

import app.main


@pytest.mark.parametrize("served, calls", [(True, ["collect", "freeze"]), (False, [])])
def test_only_the_served_app_freezes_what_it_holds_once_started(monkeypatch, served, calls):
    done: list[str] = []
    monkeypatch.setattr(app.main, "gc", SimpleNamespace(collect=lambda: done.append("collect"),
                                                        freeze=lambda: done.append("freeze")))
    web = app.main.create_app(migrate_on_start=False, admin_token="t" * 32)
    web.state.served = served

    async def start_and_stop() -> list[str]:
        async with web.router.lifespan_context(web):
            return list(done)

    assert asyncio.run(start_and_stop()) == calls
    assert app.main.app.state.served is True  # what `uvicorn app.main:app` serves
