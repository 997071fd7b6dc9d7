"""What the store hands out: a stored game, round or group, a new one, a write's result, history."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ligretto.tafel import Game, Round, describe_round
from ligretto.tafel.exchange import game_record
from ligretto.tafel.stats import Season


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as stored: its id and version around the domain object."""

    id: str
    version: int
    game: Game
    created_at: datetime
    updated_at: datetime
    member_places: tuple[int | None, ...] | None = None
    """For a game of a group, each seat's place in the group's member list
    (None for a player who is no member); None when the game is in no group.
    Read with the game by :meth:`TafelService.get_game` for the pages' colours."""

    def describe(self, *, with_rounds: bool = True) -> dict[str, Any]:
        """JSON-ready data: ``id``, ``version``, timestamps and :func:`ligretto.tafel.describe`."""
        return game_record(
            self.game,
            game_id=self.id,
            version=self.version,
            created_at=self.created_at,
            updated_at=self.updated_at,
            with_rounds=with_rounds,
        )


@dataclass(frozen=True, slots=True)
class StoredRound:
    """One stored round with the running totals after it, read without the other rounds.

    ``game`` holds the players and settings only (no rounds): it names the counts.
    """

    game_id: str
    version: int
    game: Game
    round: Round
    totals: tuple[int, ...] | None
    """Totals after this round (T6); None while it is pending."""

    def describe(self) -> dict[str, Any]:
        """The round as :func:`ligretto.tafel.describe_round` data, as in the whole game's."""
        return describe_round(self.game, self.round, self.totals)


@dataclass(frozen=True, slots=True)
class CreatedGame:
    """A new game and its secret edit token (shown once; only its hash is stored)."""

    stored: StoredGame
    edit_token: str


@dataclass(frozen=True, slots=True)
class WriteResult:
    """The game after a write, and the round it touched (if any)."""

    stored: StoredGame
    round: Round | None = None
    changed: bool = True
    """False when the write found nothing to do: the version is the one it was."""

    def describe_round(self) -> dict[str, Any] | None:
        """The touched round as :func:`ligretto.tafel.describe_round` data, or None.

        A removed round has no running totals any more (T6); nor has a pending one.
        """
        if self.round is None:
            return None
        game = self.stored.game
        totals = None
        if self.round.complete and self.round.number <= len(game.rounds):
            if self.round.number == game.complete_rounds:
                totals = game.totals  # the usual case, without a second pass
            else:
                totals = game.running_totals()[self.round.number - 1]
        return describe_round(game, self.round, totals)


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One recorded change (T6)."""

    version: int
    at: datetime
    action: str
    round: int | None
    detail: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data, as in the API's history and the JSON export."""
        return {
            "version": self.version,
            "at": self.at.isoformat(),
            "action": self.action,
            "round": self.round,
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class StoredGroup:
    """A group as stored: id, version, name, members, season and its number of games."""

    id: str
    version: int
    name: str
    members: tuple[str, ...]
    season: Season | None
    games: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class CreatedGroup:
    """A new group and its secret token (shown once; only its hash is stored)."""

    stored: StoredGroup
    token: str
    game_tokens: dict[str, str]
    """For an import: the new edit token of each imported game, by its new id."""
