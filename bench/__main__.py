"""`python -m bench` (from the repository root): run every `bench/*_bench.py` module's `main()`.

Each runs in its own process, so one bench's servers, caches and imports never skew another's.
`python -m bench activation odds` runs only the named ones. `load` (minutes, several servers and
a PostgreSQL cluster) runs only when named: `python -m bench load [options]` (`make bench-load`).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


ONLY_WHEN_NAMED = {"load_bench"}


def main(argv: list[str]) -> int:
    if argv[:1] == ["load"]:  # its own options follow
        from bench.load_bench import main as load

        load(argv[1:])
        return 0
    wanted = set(argv)
    failures = 0
    for path in sorted(HERE.glob("*_bench.py")):
        name = path.stem
        if wanted and name not in wanted and name.removesuffix("_bench") not in wanted:
            continue
        if not wanted and name in ONLY_WHEN_NAMED:
            continue
        print(f"== {name}", flush=True)
        code = f"from bench.{name} import main; main()"
        failures += subprocess.call([sys.executable, "-c", code], cwd=HERE.parent) != 0
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
