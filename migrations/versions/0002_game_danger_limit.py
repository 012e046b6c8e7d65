"""game.danger_limit: the house Danger limit copied from the latest state, for the saved-games list

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 10:00:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DEFAULT_LIMIT = 24  # R-DANGER: the rule book's limit, and the house rules' default

game = sa.table('game', sa.column('id', sa.Integer), sa.column('seq', sa.Integer),
                sa.column('danger_limit', sa.Integer))
step = sa.table('step', sa.column('game_id', sa.Integer), sa.column('seq', sa.Integer),
                sa.column('state', sa.JSON))


def upgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('danger_limit', sa.Integer(), nullable=False,
                                      server_default=str(DEFAULT_LIMIT)))
    # Games saved before this revision: read each one's limit from its latest state once.
    connection = op.get_bind()
    rows = connection.execute(sa.select(game.c.id, step.c.state).select_from(
        game.join(step, sa.and_(step.c.game_id == game.c.id, step.c.seq == game.c.seq))))
    for game_id, state in rows.fetchall():
        limit = ((state or {}).get('house') or {}).get('danger_limit', DEFAULT_LIMIT)
        if isinstance(limit, int) and limit != DEFAULT_LIMIT:
            connection.execute(game.update().where(game.c.id == game_id).values(danger_limit=limit))


def downgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('danger_limit')
