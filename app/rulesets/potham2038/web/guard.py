"""The guard on 2038's own page routes (roster forms, house rules, odds, Phase 2 by taps): a game
of another ruleset gets a 404 there (its pages have routes of their own)."""

from __future__ import annotations

from app.rulesets.potham2038.ruleset import RULESET
from app.web.deps import only_ruleset

POTHAM_ONLY = only_ruleset(RULESET.id, "Potham 2038")
