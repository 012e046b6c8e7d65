"""Run every `bench/*_bench.py` module: `python -m bench` from the repository root."""

from __future__ import annotations

import importlib
import pathlib

for path in sorted(pathlib.Path(__file__).parent.glob("*_bench.py")):
    print(f"== {path.stem}")
    importlib.import_module(f"bench.{path.stem}").main()
