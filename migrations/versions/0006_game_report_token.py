"""game.report_token: the battle report's own link, made on demand and revocable (NULL: none)

Revision ID: 0006_report_token
Revises: 0005_step_game_kind
Create Date: 2026-12-03 00:00:00

A unique index like the play and watch tokens' (a link is found by its token); NULL for every
game saved before, and for a game whose report link was never made or was revoked (several NULLs
are allowed under a unique index in SQLite and PostgreSQL alike). Plain ALTER TABLE both ways, no
batch copy of the table: on SQLite a batch rebuild drops and re-creates `game`, and the steps'
ON DELETE CASCADE would go with it (SQLite has had DROP COLUMN since 3.35).
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0006_report_token'
down_revision: str | None = '0005_step_game_kind'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column('game', sa.Column('report_token', sa.String(length=64), nullable=True))
    op.create_index(op.f('ix_game_report_token'), 'game', ['report_token'], unique=True)


def downgrade() -> None:
    op.drop_index(op.f('ix_game_report_token'), table_name='game')
    op.drop_column('game', 'report_token')
