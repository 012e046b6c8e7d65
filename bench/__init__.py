"""Benchmarks: `python -m bench` runs every bench/*_bench.py (see __main__.py)."""
