"""game.ruleset: the ruleset a game is played under; every game saved before is Potham 2038

Revision ID: 0003_ruleset
Revises: 0002
Create Date: 2026-12-01 00:00:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0003_ruleset'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('ruleset', sa.String(length=40), nullable=False,
                                      server_default='potham-2038'))


def downgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('ruleset')
