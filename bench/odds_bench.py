"""Exact attack odds, 20 dice against 20 dice: median time over many runs (target ≤ 2 ms).

Run: `python -m bench.odds_bench` (or `python -m bench` for every benchmark).
"""

from __future__ import annotations

import statistics
import time

from app.rulesets.potham2038.dice import attack_odds

CASES = {
    "20 vs 20 (10 red + 10 white each)": ({"red": 10, "white": 10}, {"red": 10, "white": 10}),
    "20 red vs 20 white": ({"red": 20}, {"white": 20}),
    "40 vs 40 (the largest pools allowed)": ({"red": 20, "white": 20}, {"red": 20, "white": 20}),
    "3 red vs 2 white": ({"red": 3}, {"white": 2}),
}


def median_ms(attack: dict[str, int], defense: dict[str, int], runs: int = 300) -> float:
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        attack_odds(attack, defense, attack_bonus=1)
        timings.append(time.perf_counter() - start)
    return statistics.median(timings) * 1000


def main() -> None:
    for name, (attack, defense) in CASES.items():
        print(f"attack_odds {name}: median {median_ms(attack, defense):.3f} ms")


if __name__ == "__main__":
    main()
