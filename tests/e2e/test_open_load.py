"""The open-loop load driver (bench/open_load.py, issue 21) against a real server process, scaled
down to a few tables for a few seconds: it counts the steps it made and the pages it fed, and the
server answers them all. Its figures (latencies) are the benchmark's business, never asserted."""

from __future__ import annotations

import pytest

from bench import open_load
from bench.load_bench import reach_times
from tests.support.loops import run_in_own_loop

pytestmark = [pytest.mark.server, pytest.mark.db]  # db: again on PostgreSQL in `make test-postgres`


def test_a_few_tables_at_table_pace_make_their_steps_and_every_page_shows_each_one(live_server):
    # two page processes: the pages are dealt between them and their sightings merged back
    size = {"tables": 3, "pages": 6, "seconds": 3.0, "interval": 0.5, "jitter": 0.1, "page_procs": 2}
    run, elapsed = run_in_own_loop(open_load.drive(live_server.url, size))

    assert run.errors == 0, run.error_kinds
    assert run.steps_sent >= 3 * 4  # about 6 per table in 3 s at one step per 0.5 s
    assert len(run.latencies) == run.steps_sent == len(run.acked)
    # every acknowledged step reached every open page of its game (else reach_times counts an error)
    assert len(reach_times(run)) == len(run.acked) and run.errors == 0
    assert run.pushed + run.fetched > 0
    assert all(seen[-1][1] >= max(s for (g, s) in run.acked if g == run.page_game[n])
               for n, seen in enumerate(run.seen))
