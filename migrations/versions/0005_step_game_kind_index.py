"""step: an index on (game_id, kind, seq)

Revision ID: 0005_step_game_kind
Revises: 0004_step_deltas
Create Date: 2026-12-02 00:00:00

Issue 21: every turn panel draws the danger track from the game's ends of turn (the steps of
kind end_turn); without this index SQLite read every step of the game to find them (2 ms for a
1,000-step game, on every render; with it, 0.01 ms). `seq` last, so they come in order from
the index itself (on (game_id, kind) alone SQLite still chose the (game_id, seq) index, for the
ORDER BY).
"""
from collections.abc import Sequence

from alembic import op

revision: str = '0005_step_game_kind'
down_revision: str | None = '0004_step_deltas'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index('ix_step_game_kind', 'step', ['game_id', 'kind', 'seq'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_step_game_kind', table_name='step')
