"""Worked examples for the rules API's `/docs` (OpenAPI `openapi_examples`), from docs/api.md."""

from __future__ import annotations

MELEE_EXAMPLES = {
    "entered": {
        "summary": "Dice rolled on the table (docs/api.md)",
        "value": {
            "npc": {"name": "Warden-2", "points": 60, "health": 4, "special_rules": []},
            "character": {"name": "Ada", "points": 45, "health": 3, "marked": 0, "distracted": 0},
            "attacker": None,
            "counter_attack": False,
            "rolls": {"npc": {"hits": 2, "criticals": 0}, "character": {"hits": 1, "criticals": 0}},
        },
    },
    "rolled": {
        "summary": "The app rolls the pools (reproducible by seed)",
        "value": {
            "npc": {
                "name": "Warden-2",
                "points": 60,
                "melee": {"red": 3},
                "defense": {"white": 2},
                "special_rules": ["Marked Target"],
            },
            "character": {
                "name": "Ada",
                "points": 45,
                "marked": 2,
                "distracted": 1,
                "melee": {"red": 2},
                "defense": {"white": 3},
            },
            "seed": 2038,
        },
    },
    "counter_attack": {
        "summary": "A permitted counter-attack: both sides roll Melee",
        "value": {
            "npc": {"name": "Warden-2", "points": 60},
            "character": {"name": "Ada", "points": 45},
            "counter_attack": True,
            "rolls": {"npc": {"hits": 2, "criticals": 0}, "character": {"hits": 3, "criticals": 1}},
        },
    },
}

SHOOT_EXAMPLES = {
    "into_melee": {
        "summary": "Shooting into a melee: the Black Die shows Blank (docs/api.md)",
        "value": {
            "shooter": {"name": "Warden-2", "side": "npc", "special_rules": []},
            "target": {"name": "Ada", "health": 3, "marked": 1, "distracted": 0},
            "melee_with": [{"name": "Bolt-1", "health": 5}],
            "black_die": "blank",
            "rolls": {"attack": {"hits": 2, "criticals": 1}, "defense": {"hits": 1, "criticals": 0}},
        },
    },
    "rolled": {
        "summary": "The app rolls: Shoot pool against Defense plus heavy Cover",
        "value": {
            "shooter": {"name": "Warden-2", "side": "npc", "pool": {"red": 3}},
            "target": {"name": "Ada", "health": 3, "cover": "heavy", "pool": {"white": 2}},
            "seed": 7,
        },
    },
}

NOISE_EXAMPLES = {
    "noise": {"summary": "Noise inside two AI-Bot zones", "value": {"kind": "noise", "zones_containing": 2}},
    "alarm": {"summary": "Alarm inside two AI-Bot zones", "value": {"kind": "alarm", "zones_containing": 2}},
}

ODDS_EXAMPLES = {
    "melee": {
        "summary": "3 Red against 2 White (docs/api.md)",
        "value": {
            "attack": {"pool": {"red": 3}, "bonus": 0},
            "defense": {"pool": {"white": 2}, "bonus": 0},
            "melee": True,
        },
    },
    "marked_target": {
        "summary": "Marked Target with 2 stacks: +2 to the attack total",
        "value": {
            "attack": {"pool": {"red": 2, "white": 1}, "bonus": 2},
            "defense": {"pool": {"red": 3}},
            "melee": False,
        },
    },
}
