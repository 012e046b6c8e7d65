"""`python -m app`: serve the app on HOST:PORT (defaults 127.0.0.1:8000)."""

import uvicorn

from app.settings import get_settings

if __name__ == "__main__":
    settings = get_settings()
    uvicorn.run("app.main:app", host=settings.host, port=settings.port, proxy_headers=True)
