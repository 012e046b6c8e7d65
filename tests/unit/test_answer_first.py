"""A step's own answer is sent before its live push is rendered (app/web/middleware/answer_first.py, issue 21):
the push of a step that a request made waits for that request's answer, at most WAIT_SECONDS;
a step made elsewhere is pushed at once."""

from __future__ import annotations

import asyncio

import pytest

from app.bootstrap import create_app
from app.live import hub as live
from app.store import game_commands
from app.web.middleware import answer_first
from app.web.middleware.answer_first import AnswerFirst

POST = {"type": "http", "method": "POST", "path": "/g/t/turn", "headers": []}


async def receive():
    return {"type": "http.request", "body": b"", "more_body": False}


def play(handler, game_id: int, seq: int) -> list[str]:
    """Serve one request with `handler` while a push of step `seq` waits for its answer, as the
    live stream does; answers what happened, in order."""
    order: list[str] = []

    async def main():
        committed = asyncio.Event()

        async def app(scope, receive, send):
            await handler(committed, order, send)

        async def push():
            await committed.wait()
            await answer_first.answered(game_id, seq)
            order.append("push rendered")

        async def send(message):
            if message["type"] == "http.response.body":
                order.append("answer sent")

        served = AnswerFirst(app)(dict(POST), receive, send)
        await asyncio.gather(served, push(), return_exceptions=True)

    asyncio.run(main())
    return order


def commit(game_id: int, seq: int):
    async def handler(committed, order, send):
        # the route commits in a worker thread, as FastAPI runs a sync route (a copy of the context)
        await asyncio.to_thread(answer_first.step_made, game_id, seq)
        committed.set()
        await asyncio.sleep(0.05)  # rendering the answer: a push not held back would go now
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"<section>...</section>"})
    return handler


def test_the_push_of_a_step_waits_until_the_request_that_made_it_has_sent_its_answer():
    assert play(commit(7, 42), 7, 42) == ["answer sent", "push rendered"]


def test_the_push_of_a_step_this_request_did_not_make_goes_at_once():
    assert play(commit(7, 42), 7, 41) == ["push rendered", "answer sent"]
    assert play(commit(7, 42), 8, 42) == ["push rendered", "answer sent"]


def test_a_request_that_fails_after_its_step_lets_the_push_go():
    async def handler(committed, order, send):
        await asyncio.to_thread(answer_first.step_made, 3, 5)
        committed.set()
        await asyncio.sleep(0.05)
        raise RuntimeError("the answer could not be rendered")

    assert play(handler, 3, 5) == ["push rendered"]
    assert (3, 5) not in answer_first._unanswered


def test_a_push_waits_for_an_answer_at_most_wait_seconds(monkeypatch):
    monkeypatch.setattr(answer_first, "WAIT_SECONDS", 0.01)

    async def handler(committed, order, send):
        await asyncio.to_thread(answer_first.step_made, 4, 9)
        committed.set()
        while "push rendered" not in order:  # an answer that takes longer than the wait
            await asyncio.sleep(0.01)
        await send({"type": "http.response.body", "body": b""})

    assert play(handler, 4, 9) == ["push rendered", "answer sent"]


def test_a_step_made_outside_a_request_holds_no_push():
    answer_first.step_made(1, 2)  # a script, or a step relayed from another process
    assert (1, 2) not in answer_first._unanswered
    asyncio.run(asyncio.wait_for(answer_first.answered(1, 2), 0.5))


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_a_reading_request_marks_no_step(method):
    seen = []

    async def app(scope, receive, send):
        seen.append(answer_first._made.get())

    asyncio.run(AnswerFirst(app)({**POST, "method": method}, receive, None))
    assert seen == [None]


def test_the_steps_are_marked_before_the_hub_wakes_the_streams():
    """The order is create_app's (app/bootstrap.py wire_listeners), not the modules' import order."""
    create_app(migrate_on_start=False, admin_token="t" * 32)
    assert game_commands.STEP_LISTENERS == [answer_first.step_made, live.hub.step]
