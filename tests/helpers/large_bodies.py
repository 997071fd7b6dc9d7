"""Bodies larger than any limit allows, for the tests and the benchmark of refusals.

A group export of 2-player games of 1,000 rounds each, as a client that
imports too much would send it: real JSON, whose values the import counts
as they arrive.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import cache

from ligretto.tafel import Game
from ligretto.tafel.group_exchange import game_item, group_to_json
from ligretto.tafel.stats import PlayedGame
from ligretto.web.limits import GROUP_IMPORT_LIMIT


@cache
def oversized_import(times: int = 4) -> bytes:
    """A group export of 2-player games of 1,000 rounds, *times* the import limit."""
    game = Game(["Anna", "Ben"], mode="target", target=1000)
    for n in range(1, 1001):
        game.open_round([0, 10] if n % 2 else [10, 0])
        game.complete_round(n, [10, 0] if n % 2 else [0, 10], confirm=True)
    played = datetime(2006, 1, 1, 19, tzinfo=UTC)
    item = json.dumps(game_item(PlayedGame("g0", played, game)), separators=(",", ":"))
    head = json.dumps(
        group_to_json(
            group_id="f", version=1, name="F", members=["Anna", "Ben"], season=None, games=[]
        ),
        separators=(",", ":"),
    ).removesuffix("]}")
    count = times * GROUP_IMPORT_LIMIT // len(item) + 1
    games = ",".join(item.replace('"g0"', f'"g{i}"') for i in range(count))
    return (head + games + "]}").encode()
