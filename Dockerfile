FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HOST=0.0.0.0 PORT=8000 \
    DATABASE_URL=sqlite:////app/data/potham.db
WORKDIR /app
COPY pyproject.toml ./
RUN pip install --no-cache-dir -e ".[postgres]"
COPY app ./app
COPY templates ./templates
COPY static ./static
COPY migrations ./migrations
COPY alembic.ini ./
RUN useradd --create-home --uid 1000 potham && mkdir -p /app/data && chown potham /app/data
USER potham
VOLUME ["/app/data"]
EXPOSE 8000
CMD ["python", "-m", "app"]
