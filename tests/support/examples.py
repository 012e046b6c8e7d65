"""How many examples the long property and fuzz tests try.

The normal run (`make test`, CI) tries a quarter of each test's full count, so the suite stays a
few minutes on 2 cores; `FUZZ_EXAMPLES=full` (`make test-long`) tries every example the test names.
The tests are derandomized or seeded by hypothesis as before: what each asserts does not change,
only how many bodies it asserts it over."""

from __future__ import annotations

import os

FULL = os.environ.get("FUZZ_EXAMPLES", "").strip().lower() == "full"
QUICK_SHARE = 4  # the normal run tries 1/4 of the full count …
QUICK_FLOOR = 10  # … and never fewer than this


def examples(full: int) -> int:
    """`full` examples with FUZZ_EXAMPLES=full, else a quarter of them (at least QUICK_FLOOR)."""
    return full if FULL else min(full, max(full // QUICK_SHARE, QUICK_FLOOR))
