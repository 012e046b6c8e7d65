"""The tests' Chromium flags (conftest.py) keep what Playwright disables and do what they say:
a new context opens no WebUI page of its own beside the test's, and prefers reduced motion."""

from __future__ import annotations

import re

from tests.browser.conftest import CHROMIUM, TESTS_DISABLE


def disabled_features(browser) -> set[str]:
    """The features a running Chromium has disabled, as its chrome://version page lists them."""
    page = browser.new_page()
    page.goto("chrome://version/?show-variations-cmd")
    text = page.locator("body").inner_text()
    page.context.close()
    found = re.search(r'--disable-features="([^"]*)"', text)
    assert found, text[-2000:]
    return set(found.group(1).split(","))


def test_every_feature_playwright_disables_stays_disabled_beside_the_tests_own(browser):
    # a second Chromium with Playwright's own flags only: what it disables by itself
    plain = browser.browser_type.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"], headless=True)
    playwrights = disabled_features(plain)
    plain.close()
    ours = disabled_features(browser)
    assert playwrights - ours == set()
    assert set(TESTS_DISABLE) <= ours


def test_a_new_context_opens_only_its_page_and_prefers_reduced_motion(browser):
    context = browser.new_context()
    page = context.new_page()
    page.set_content("<p>a page</p>")
    targets = browser.new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
    assert [t["url"] for t in targets if t["type"] != "page"] == []  # no address bar popup's WebUI
    assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    context.close()
