"""Real headless Chromium (Debian's /usr/bin/chromium) driven by Playwright for Python."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import serving

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def pytest_collection_modifyitems(items):
    here = Path(__file__).parent
    for item in items:  # this hook sees every test, not only this folder's
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory):
    """One real server for every browser test of this worker: starting a uvicorn process (imports,
    migration) cost more than most of these tests. Sharing it is safe because each test plays
    games of its own (new links) in new browser contexts (so its own device cookie and home list)."""
    with serving(tmp_path_factory.mktemp("browser") / "live.db") as server:
        yield server


@pytest.fixture
def live_server(shared_server):
    """The shared server (above); a test that stops or restarts its server asks for `own_server`."""
    if shared_server.process is None or shared_server.process.poll() is not None:
        raise RuntimeError("the shared server stopped: a test that stops its server must use own_server")
    return shared_server


@pytest.fixture
def own_server(tmp_path):
    """A server of this test's own, to stop and restart at will."""
    with serving(tmp_path / "live.db") as server:
        yield server


@pytest.fixture
def artifacts() -> Path:
    """Where screenshots go (kept after the run, ignored by git)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
