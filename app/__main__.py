"""`python -m app`: serve the app on HOST:PORT (defaults 127.0.0.1:8000).

WORKERS=N runs N app processes on that port (the production profile, PostgreSQL only: SQLite is
one process). The database is migrated and the admin token made once, here, before the workers
start; they skip the one and inherit the other."""

import os

import uvicorn

from app.settings import get_settings

KEEP_ALIVE_SECONDS = 75
# uvicorn's HTTP protocol with the limits of a request's head and the connections per client
# (app/web/middleware/connections.py, docs/limits.md)
HTTP_PROTOCOL = "app.web.middleware.connections:GuardedHttp"

if __name__ == "__main__":
    settings = get_settings()
    if settings.workers > 1:
        if settings.migrate_on_start:
            from app.store.migrate import migrate

            migrate(settings.database_url)
        os.environ["MIGRATE_ON_START"] = "false"  # the workers inherit it
        from app.web.admin_link import ensure_token

        os.environ["ADMIN_TOKEN"] = ensure_token(settings)  # one admin link for every worker
    # An idle keep-alive connection stays open longer than clients keep theirs (httpx 5 s,
    # browsers more): closed by the server at the moment a client reuses it, the request fails.
    uvicorn.run("app.main:app", host=settings.host, port=settings.port, proxy_headers=True,
                workers=settings.workers, timeout_keep_alive=KEEP_ALIVE_SECONDS, http=HTTP_PROTOCOL)
