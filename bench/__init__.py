"""Benchmarks: `python -m bench` runs every bench/*_bench.py module's `main()`."""
