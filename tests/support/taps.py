"""Count a player's inputs in a browser test: every click (tap), typed field and select, the way a
player makes them. Wrap each Playwright action in `Taps` so the count can't miss one; `section`
names what the inputs belong to (an activation, the roster), so per-part figures come out."""

from __future__ import annotations

from collections import Counter
from contextlib import contextmanager

from playwright.sync_api import Locator


class Taps:
    def __init__(self) -> None:
        self.log: list[tuple[str, str, str]] = []  # (section, kind, what)
        self.part = ""
        # Called with each input's target before the input is made (and before Playwright scrolls
        # to it): a test that watches where the next control is (tests/support/table_play.py).
        self.before_input = None

    @contextmanager
    def section(self, name: str):
        before, self.part = self.part, name
        try:
            yield
        finally:
            self.part = before

    def _count(self, kind: str, what: Locator | str) -> None:
        text = str(what).split(" selector=", 1)[-1]  # the locator without its frame's address
        if self.before_input is not None and not isinstance(what, str):
            self.before_input(kind, what)
        self.log.append((self.part, kind, text[:120]))

    def click(self, target: Locator) -> None:
        self._count("click", target)
        target.click()

    def check(self, target: Locator, on: bool = True) -> None:
        """A checkbox or radio: one tap, and only when it has to change."""
        if target.is_checked() != on:
            self._count("click", target)
            target.set_checked(on)

    def type(self, target: Locator, text: str) -> None:
        self._count("type", target)
        target.fill(text)

    def select(self, target: Locator, **option: str) -> None:
        self._count("select", target)
        target.select_option(**option)

    def total(self, prefix: str = "") -> int:
        return sum(1 for part, _, _ in self.log if part.startswith(prefix))

    def kinds(self, prefix: str = "") -> dict[str, int]:
        return dict(Counter(kind for part, kind, _ in self.log if part.startswith(prefix)))
