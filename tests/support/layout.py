"""Checks of the look that every browser test can share."""

from __future__ import annotations

from playwright.sync_api import Page


def layout_problems(page: Page) -> list[str]:
    """No horizontal scrolling, and every visible control at least 44px tall (a finger, not a mouse)."""
    return page.evaluate("""() => {
        const problems = [];
        if (document.documentElement.scrollWidth > window.innerWidth)
            problems.push(`scrolls sideways: ${document.documentElement.scrollWidth} > ${window.innerWidth}`);
        for (const el of document.querySelectorAll('.btn, button, summary, .seg span, .check, input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select')) {
            const r = el.getBoundingClientRect();
            if (r.width && r.height && r.height < 44) problems.push(`${el.tagName}.${el.className} ${r.height}px`);
        }
        return problems;
    }""")
