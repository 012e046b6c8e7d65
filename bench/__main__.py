"""`python -m bench`: run every `bench/*_bench.py` in turn, each in its own process.

Each bench module is run as `python -m bench.<name>` from the project root, so it imports the
app as the tests do and starts (and stops) whatever servers it needs on its own.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    wanted = set(argv)  # optional: only the named benches, e.g. `python -m bench activation`
    failures = 0
    for path in sorted(HERE.glob("*_bench.py")):
        name = path.stem
        if wanted and name not in wanted and name.removesuffix("_bench") not in wanted:
            continue
        print(f"== {name} ==", flush=True)
        failures += subprocess.call([sys.executable, "-m", f"bench.{name}"], cwd=HERE.parent) != 0
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
