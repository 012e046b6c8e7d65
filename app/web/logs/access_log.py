"""Uvicorn's access log, written at a fifth of its cost. Uvicorn's AccessFormatter
copies each record twice (`copy.copy`) and looks the status up in `http.HTTPStatus` on every
request: about 60 µs of a served request's CPU, more than a tenth of a command's. When the log
is not coloured (a file, a pipe, a service's journal: a server's usual case) this writes the
same line from the record's five arguments directly; on a terminal uvicorn's colours stay."""

from __future__ import annotations

import http
import logging

from uvicorn.logging import AccessFormatter

PHRASES = {status.value: status.phrase for status in http.HTTPStatus}


class PlainAccessLine(logging.Formatter):
    """Uvicorn's default access line, `INFO:     client - "METHOD path HTTP/version" 200 OK`,
    for the records uvicorn makes (five arguments); anything else as the formatter it replaces."""

    def __init__(self, replaced: logging.Formatter):
        super().__init__()
        self.replaced = replaced

    def format(self, record: logging.LogRecord) -> str:
        args = record.args
        if not (isinstance(args, tuple) and len(args) == 5) or record.exc_info or record.stack_info:
            return self.replaced.format(record)
        client, method, path, version, status = args
        level = record.levelname
        return (f'{level}:{" " * (8 - len(level))} {client} - "{method} {path} HTTP/{version}" '
                f'{status} {PHRASES.get(int(status), "")}')


PROBE = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 0, '%s - "%s %s HTTP/%s" %d',
                          ("127.0.0.1:1", "GET", "/", "1.1", 200), None)


def install_plain_access_lines() -> None:
    """Uvicorn configures its loggers before it imports the app, so the change stays in place.
    Only where uvicorn's formatter writes exactly the plain line (its default format, no colours):
    a line of another format, or coloured, stays as it is."""
    for handler in logging.getLogger("uvicorn.access").handlers:
        formatter = handler.formatter
        if isinstance(formatter, AccessFormatter) and not formatter.use_colors \
                and formatter.format(PROBE) == PlainAccessLine(formatter).format(PROBE):
            handler.setFormatter(PlainAccessLine(formatter))
