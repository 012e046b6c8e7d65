"""Issue 21: what the app sets up once started. The served app keeps what it holds at its start out
of the garbage collector's full passes (app.bootstrap.freeze_the_start), garbage collected first; an app a
test makes does not (its objects come and go in the test process). Templates are not looked at on
every render unless TEMPLATES_RELOAD asks."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

import app.bootstrap
import app.main


@pytest.mark.parametrize("served, calls", [(True, ["collect", "freeze"]), (False, [])])
def test_only_the_served_app_freezes_what_it_holds_once_started(monkeypatch, served, calls):
    done: list[str] = []
    monkeypatch.setattr(app.bootstrap, "gc", SimpleNamespace(collect=lambda: done.append("collect"),
                                                        freeze=lambda: done.append("freeze")))
    web = app.bootstrap.create_app(migrate_on_start=False, admin_token="t" * 32)
    web.state.served = served

    async def start_and_stop() -> list[str]:
        async with web.router.lifespan_context(web):
            return list(done)

    assert asyncio.run(start_and_stop()) == calls
    assert app.main.app.state.served is True  # what `uvicorn app.main:app` serves


@pytest.mark.parametrize("setting, reloads", [(None, False), ("true", True)])
def test_templates_are_read_again_when_edited_only_if_asked(monkeypatch, setting, reloads):
    """TEMPLATES_RELOAD: off, a render looks at no template file (issue 21)."""
    from app.settings import get_settings
    from app.web.templating import templates

    if setting is None:
        monkeypatch.delenv("TEMPLATES_RELOAD", raising=False)
    else:
        monkeypatch.setenv("TEMPLATES_RELOAD", setting)
    get_settings.cache_clear()
    monkeypatch.setattr(templates.env, "auto_reload", not reloads)
    web = app.bootstrap.create_app(migrate_on_start=False, admin_token="t" * 32)

    async def started() -> bool:
        async with web.router.lifespan_context(web):
            return templates.env.auto_reload

    try:
        assert asyncio.run(started()) is reloads
    finally:
        get_settings.cache_clear()
