FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HOST=0.0.0.0 PORT=8000 GAMES_PER_HOUR=30 \
    DATABASE_URL=sqlite:////app/data/potham.db
WORKDIR /app
# Only what the app needs to run, exactly as locked (requirements/README.md).
COPY requirements/run.lock ./requirements/run.lock
RUN pip install --no-cache-dir --require-hashes -r requirements/run.lock
COPY app ./app
COPY templates ./templates
COPY static ./static
COPY migrations ./migrations
COPY alembic.ini ./
# Compiled once here: without it every container start compiled the app's ~170 modules again
# (PYTHONDONTWRITEBYTECODE keeps the running app from writing them, so the image must have them).
RUN python -m compileall -q app migrations
RUN useradd --create-home --uid 1000 potham && mkdir -p /app/data && chown potham /app/data
USER potham
VOLUME ["/app/data"]
EXPOSE 8000
# /api/health answers 200 only when the app and its database answer (the image has no curl).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/api/health' % os.environ.get('PORT', '8000'), timeout=4)"]
CMD ["python", "-m", "app"]
