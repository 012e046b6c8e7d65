"""The served app: `uvicorn app.main:app` (python -m app runs it). Nothing imports this module."""

from app.bootstrap import create_app

app = create_app()
app.state.served = True  # see bootstrap.freeze_the_start
