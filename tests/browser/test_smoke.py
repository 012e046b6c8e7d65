"""The app serves real pages to real Chromium from a real server process."""


def test_a_new_game_opens_its_page_in_chromium(browser, live_server, artifacts):
    page = browser.new_page(viewport={"width": 768, "height": 1024})
    page.goto(live_server.url + "/")
    page.get_by_label("Name").fill("Smoke <b>test</b>")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url("**/g/**")
    assert page.locator("h1").first.inner_text() == "Smoke <b>test</b>"  # escaped, not rendered as HTML
    assert "Turn 1" in page.locator("#panel-status").inner_text()
    page.screenshot(path=str(artifacts / "smoke-768x1024.png"))
    page.close()
