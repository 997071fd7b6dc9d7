"""Domain values from stored rows: a game with its rounds, a round, a moment in UTC.

The one place that knows how a game row and a round row become a
:class:`~ligretto.tafel.Game` and a :class:`~ligretto.tafel.Round`, for a
single game (:mod:`ligretto.store.repository`) and a group's games
(:mod:`ligretto.store.group_repository`) alike. Rows are trusted: their
values were checked by the domain when they were stored.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.engine import Row

from ligretto.tafel import Game, Round


def restore_game(row: Row[Any], rounds: list[Round]) -> Game:
    """The game of a game row (players and settings) with *rounds*."""
    return Game.restore(
        json.loads(row.players),
        mode=row.mode,
        target=row.target,
        agreed_rounds=row.agreed_rounds,
        deck=row.deck,
        row_storage=row.row_storage,
        rounds=rounds,
        closed=row.closed,
        scored=row.scored,
    )


def restore_round(row: Row[*tuple[Any, ...]]) -> Round:
    """The round of a round row (``n``, ``stacks``, ``middle``, ``confirmed``)."""
    return Round(
        row.n,
        tuple(json.loads(row.stacks)),
        None if row.middle is None else tuple(json.loads(row.middle)),
        row.confirmed,
    )


def aware(moment: datetime) -> datetime:
    """*moment* with its time zone: SQLite gives naive datetimes back, all stored in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
