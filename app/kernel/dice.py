"""The stateless rules APIs' dice (every ruleset's): the same request gives the same answer,
so a request's rolls come from a `random.Random` seeded from its `seed`, or from the request itself."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

from pydantic import BaseModel


def seed_of(body: BaseModel) -> int:
    """The request's seed, or one derived from the request so the answer stays reproducible."""
    seed = getattr(body, "seed", None)  # each request model declares its own (or none)
    if seed is not None:
        return int(seed)
    digest = hashlib.sha256(body.model_dump_json(exclude={"seed"}).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class SeededOnUse(random.Random):
    """The rules API is stateless: the same request gives the same answer, a rolled direction
    included. The seed (hashing the request) is worked out only when a die is actually rolled,
    so the common activation pays nothing for it."""

    def __init__(self, seed_source: Callable[[], int]):
        # no super().__init__(): seeding the Mersenne Twister costs more than deciding a whole
        # activation; every draw below seeds first.
        self.gauss_next = None
        self._seed_source: Callable[[], int] | None = seed_source

    def _seeded(self) -> None:
        if self._seed_source is not None:
            self.seed(self._seed_source())
            self._seed_source = None

    def random(self) -> float:
        self._seeded()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._seeded()
        return super().getrandbits(k)
