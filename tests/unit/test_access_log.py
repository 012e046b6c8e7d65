"""Issue 21: the access log's lines are written without uvicorn's per-record copies, and are the
same text as uvicorn's own formatter writes (when not coloured)."""

from __future__ import annotations

import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st
from uvicorn.config import LOGGING_CONFIG
from uvicorn.logging import AccessFormatter

from app.bootstrap import create_app
from app.web.logs.access_log import PlainAccessLine, install_plain_access_lines
from app.web.logs.redact import RedactTokens


def uvicorns(use_colors: bool = False) -> AccessFormatter:
    return AccessFormatter(fmt=LOGGING_CONFIG["formatters"]["access"]["fmt"], use_colors=use_colors)


def record(args: tuple, level: int = logging.INFO) -> logging.LogRecord:
    return logging.LogRecord("uvicorn.access", level, __file__, 1, '%s - "%s %s HTTP/%s" %d', args, None)


@given(client=st.text(min_size=1, max_size=30), method=st.sampled_from(["GET", "POST", "HEAD"]),
       path=st.text(max_size=80), version=st.sampled_from(["1.0", "1.1", "2"]),
       status=st.integers(100, 599), level=st.sampled_from([logging.INFO, logging.WARNING, logging.DEBUG]))
def test_a_line_is_uvicorns_line(client, method, path, version, status, level):
    made = record((client, method, path, version, status), level)
    assert PlainAccessLine(uvicorns()).format(made) == uvicorns().format(made)


def test_a_redacted_record_is_written_as_uvicorn_writes_it():
    made = record(("127.0.0.1:5000", "GET", "/g/" + "A" * 32 + "/panels/turn?bot=" + "b" * 20, "1.1", 200))
    RedactTokens(create_app(migrate_on_start=False, admin_token="t" * 32).routes).filter(made)
    line = PlainAccessLine(uvicorns()).format(made)
    assert line == uvicorns().format(made) == 'INFO:     127.0.0.1:5000 - "GET /g/…/panels/turn?bot=… HTTP/1.1" 200 OK'


def test_another_record_goes_to_the_formatter_it_replaced():
    other = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, "%s only", ("one",), None)
    replaced = logging.Formatter("[%(message)s]")
    assert PlainAccessLine(replaced).format(other) == "[one only]"


@pytest.mark.parametrize(("colours", "replaced"), [(False, True), (True, False)])
def test_installed_on_uvicorns_handler_unless_it_colours(colours, replaced):
    logger = logging.getLogger("uvicorn.access")
    handler = logging.StreamHandler()
    handler.setFormatter(uvicorns(colours))
    logger.addHandler(handler)
    try:
        install_plain_access_lines()
        assert isinstance(handler.formatter, PlainAccessLine) is replaced
        install_plain_access_lines()  # twice (an app made again in one process): still one layer
        assert not isinstance(getattr(handler.formatter, "replaced", None), PlainAccessLine)
    finally:
        logger.removeHandler(handler)
