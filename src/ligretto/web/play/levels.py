"""What the pages of online play say about the bot levels (docs/bots.md):
their names, each level's typical time for a card, its skill as rated."""

from __future__ import annotations

import functools
from typing import Any

from ligretto.bots import LEVELS, Level
from ligretto.simulate.calibrate import level_ratings, load_table

LEVEL_NAMES = tuple(level.value for level in Level)


def level_seconds(pace: float = 1.0) -> dict[str, float]:
    """Each level's typical time for a card that fits (notice + move, docs/bots.md)."""
    return {
        level.value: round((model.notice_median + model.move_median) * pace, 1)
        for level, model in LEVELS.items()
    }


def _skill(value: int) -> str:
    """A whole skill with a true minus sign (the easy bots rate below zero)."""
    return f"\u2212{-value}" if value < 0 else str(value)


@functools.cache
def level_strength() -> dict[str, Any]:
    """Each level's skill on the groups' OpenSkill scale, from the stored
    calibration (``ligretto calibrate``, docs/bots.md): the range over the
    rated strategies, weakest to strongest, and how many games it rests on."""
    table = load_table()
    return {
        "games": table["games"],
        "levels": {
            row.level: _skill(row.low)
            if row.low == row.high
            else f"{_skill(row.low)} … {_skill(row.high)}"
            for row in level_ratings(table)
        },
    }
