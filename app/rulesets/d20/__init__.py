"""The `d20` ruleset: the d20 combat reference (Action, Move, Minor, one Reaction; attacks
against DEF; cover; natural 20 and natural 1; conditions; Dying) and the same NPC roles as
2038 deciding in its economy. Pure: stdlib + dataclasses, no FastAPI, SQL or templates.

Rule ids are `D20-…`; docs/rules-d20.md maps every sentence of the d20 combat reference to
them, and glossary.py summarises each for the player.
"""
