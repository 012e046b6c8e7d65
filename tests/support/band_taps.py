"""A band tap's facts as the page sends them (web/asking.band_reply), for the tests that answer
Phase 2's questions without the page."""

from __future__ import annotations


def tell(answers: dict, model: str, option: dict) -> None:
    """Record `option` (a band, or a piece of one with its `up_to`/`more_than` and the next
    model's band it carries in `then`) as the answers for `model`."""
    answers.setdefault("bands", {})[model] = option["key"]
    for side in ("up_to", "more_than"):
        if side in option:
            answers.setdefault(side, {})[model] = option[side]
    if option.get("then"):
        tell(answers, option["then"]["model"], option["then"])
