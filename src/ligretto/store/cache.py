"""The games of the last writes, kept in memory for the next write of the same game."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from ligretto.tafel import Game


@dataclass(frozen=True, slots=True)
class CachedGame:
    """A game as it was stored at ``version``; never changed (callers copy it)."""

    version: int
    game: Game


class GameCache:
    """A thread-safe least-recently-written cache of games by id.

    A write reads the stored version under the row lock; when it matches the
    cached version, the write copies the cached game instead of reading every
    round again. Any other writer, in this process or another, bumps the
    version first, so a stale entry is never used.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._games: OrderedDict[str, CachedGame] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> CachedGame | None:
        """The cached game, or None."""
        with self._lock:
            return self._games.get(game_id)

    def keep(self, game_id: str, version: int, game: Game) -> None:
        """Remember *game* at *version*; the caller hands over its own copy."""
        with self._lock:
            self._games[game_id] = CachedGame(version, game)
            self._games.move_to_end(game_id)
            while len(self._games) > self.size:
                self._games.popitem(last=False)
