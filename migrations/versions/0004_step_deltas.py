"""step.delta: each step stores what it changed; the full state only where app/store/steplog.py says

Revision ID: 0004_step_deltas
Revises: 0003_ruleset
Create Date: 2026-12-01 00:00:00

Issue 11 § 3: a full state at every step made a 2,000-step game 17 MiB. Upgrading fills in
every step's delta from its full state and the one before, then drops the full state of the
steps that no longer keep one (steplog.keeps_state; the latest step of each game keeps its).
Downgrading rebuilds every step's full state from the snapshots and deltas. Both work one game
and BATCH steps at a time, so a large database never sits in memory.
"""
from collections.abc import Iterator, Sequence

import sqlalchemy as sa
from alembic import op

from app.store import deltas, steplog

revision: str = '0004_step_deltas'
down_revision: str | None = '0003_ruleset'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 200  # steps read and written at a time (a full state is ~9 KiB)

NULLABLE_JSON = sa.JSON(none_as_null=True)  # None is SQL NULL, not JSON null
step = sa.table('step', sa.column('id', sa.Integer), sa.column('game_id', sa.Integer),
                sa.column('seq', sa.Integer), sa.column('kind', sa.String),
                sa.column('state', NULLABLE_JSON), sa.column('delta', NULLABLE_JSON))


def _games(connection) -> list[tuple[int, int]]:
    """(game id, its latest step) for every game that has steps."""
    return [tuple(row) for row in connection.execute(
        sa.select(step.c.game_id, sa.func.max(step.c.seq)).group_by(step.c.game_id)).all()]


def _steps(connection, game_id: int) -> Iterator[list[sa.Row]]:
    """The game's steps in order of seq, BATCH at a time (each batch read before it is written)."""
    after = -1
    while True:
        rows = connection.execute(
            sa.select(step.c.id, step.c.seq, step.c.kind, step.c.state, step.c.delta)
            .where(step.c.game_id == game_id, step.c.seq > after).order_by(step.c.seq).limit(BATCH)).all()
        if not rows:
            return
        yield rows
        after = rows[-1].seq


def _write(connection, changes: list[dict]) -> None:
    if changes:
        connection.execute(step.update().where(step.c.id == sa.bindparam('row_id'))
                           .values(state=sa.bindparam('new_state'), delta=sa.bindparam('new_delta')), changes)


def upgrade() -> None:
    with op.batch_alter_table('step', schema=None) as batch_op:
        batch_op.add_column(sa.Column('delta', sa.JSON(), nullable=True))
        batch_op.alter_column('state', existing_type=sa.JSON(), nullable=True)
    connection = op.get_bind()
    for game_id, latest in _games(connection):
        before = None
        for rows in _steps(connection, game_id):
            changes = []
            for row in rows:
                keep = row.seq == latest or steplog.keeps_state(row.seq, row.kind)
                changes.append({'row_id': row.id, 'new_state': row.state if keep else None,
                                'new_delta': None if before is None else deltas.diff(before, row.state)})
                before = row.state
            _write(connection, changes)


def downgrade() -> None:
    connection = op.get_bind()
    for game_id, _latest in _games(connection):
        before = None
        for rows in _steps(connection, game_id):
            changes = []
            for row in rows:
                state = row.state if row.state is not None else deltas.patch(before, row.delta or [])
                changes.append({'row_id': row.id, 'new_state': state, 'new_delta': None})
                before = state
            _write(connection, changes)
    with op.batch_alter_table('step', schema=None) as batch_op:
        batch_op.alter_column('state', existing_type=sa.JSON(), nullable=False)
        batch_op.drop_column('delta')
