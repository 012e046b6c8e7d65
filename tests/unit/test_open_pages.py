"""The open-loop benchmark's stream reader (bench/open_pages.py): it looks for an event's end only
in the bytes that just came, so an end split across two chunks must still be found."""

from __future__ import annotations

import pytest

from bench.open_pages import events, step_of
from tests.support.loops import run_in_own_loop

STREAM = (b"retry: 1000\nevent: step\ndata: {\"seq\": 3}\nid: 3\n\n: heartbeat\n\n"
          b"event: step\ndata: {\"seq\": 4, \"panels\": {\"log\": \"<ol>\\n</ol>\", \"log_from\": 2}}\n\n"
          b"event: renamed\ndata: {}\n\n")


class Chunked:
    def __init__(self, chunks: list[bytes]):
        self.chunks = chunks

    async def aiter_raw(self):
        for chunk in self.chunks:
            yield chunk


def read(chunks: list[bytes]) -> list[tuple[str, bytes]]:
    async def collect():
        return [pair async for pair in events(Chunked(chunks))]

    return run_in_own_loop(collect())  # a browser test on this worker may hold the main thread's loop


WHOLE = read([STREAM])


@pytest.mark.parametrize("size", [1, 2, 3, 7, 40, len(STREAM)])
def test_the_events_read_are_the_same_however_the_stream_is_cut_into_chunks(size):
    chunks = [STREAM[i:i + size] for i in range(0, len(STREAM), size)]
    assert read(chunks) == WHOLE


def test_a_stream_gives_its_events_by_name_and_a_pushed_step_says_where_its_log_starts():
    assert [name for name, _ in WHOLE] == ["step", "step", "renamed"]  # the heartbeat has no data
    assert step_of(WHOLE[0][1]) == (3, None)
    assert step_of(WHOLE[1][1]) == (4, {"log_from": 2})
