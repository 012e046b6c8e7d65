"""Real headless Chromium (Debian's /usr/bin/chromium) driven by Playwright for Python."""

from __future__ import annotations

from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
# What Playwright (1.65) disables itself: Chromium keeps only the last --disable-features it is
# given, so ours repeats these (tests/browser/test_chromium_flags.py checks that none is lost).
PLAYWRIGHT_DISABLES = ["AimEnabled", "AvoidCorsURLLoaderRestartOnRedirect", "AvoidUnnecessaryBeforeUnloadCheckSync",
                       "DestroyProfileOnBrowserClose", "HttpsFirstBalancedModeAutoEnable", "HttpsUpgrades",
                       "LensOverlay", "MediaRouter", "NetworkTimeServiceQuerying", "OptimizationHints",
                       "PaintHolding", "PreconnectToSearch", "TcpPortRandomizationWin",
                       "ThirdPartyStoragePartitioning", "msEdgeUpdateLaunchServicesPreferredVersion",
                       "msForceBrowserSignIn"]
# What the tests need of no browser window, and cost CPU in each: every new context is a window,
# whose address bar loaded two WebUI pages (its suggestion popups) in a renderer of their own,
# about 1.2 s of CPU per context; and Chromium started a spare renderer beside every page's own.
TESTS_DISABLE = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "SpareRendererForSitePerProcess"]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-features=" + ",".join(PLAYWRIGHT_DISABLES + TESTS_DISABLE)]
# Every context prefers reduced motion unless a test asks otherwise: the CSS then turns the
# changed values' flash off (static/app.css), which otherwise painted the page at 60 frames a
# second for 1.2 s after most taps. A test of the flash itself emulates "no-preference".
CONTEXT_DEFAULTS = {"reduced_motion": "reduce"}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def pytest_collection_modifyitems(items):
    here = Path(__file__).parent
    for item in items:  # this hook sees every test, not only this folder's
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)


class Browser:
    """Playwright's Browser whose new contexts and pages take CONTEXT_DEFAULTS unless told otherwise."""

    def __init__(self, browser):
        self._browser = browser

    def __getattr__(self, name):
        return getattr(self._browser, name)

    def new_context(self, **options):
        return self._browser.new_context(**(CONTEXT_DEFAULTS | options))

    def new_page(self, **options):
        return self._browser.new_page(**(CONTEXT_DEFAULTS | options))


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield Browser(browser)
        browser.close()


@pytest.fixture(autouse=True)
def _close_contexts(request):
    """Close what a test left open (a context a test made and never closed kept its renderer and
    its page's live stream until the session's end)."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


@pytest.fixture
def artifacts() -> Path:
    """Where screenshots go (kept after the run, ignored by git)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
