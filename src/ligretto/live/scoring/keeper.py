"""How a table keeps its score: on a Tafel game (T1–T5).

The table does not add up points or decide who won; the Tafel does, so
online play and the score board can never disagree.  This module defines
the narrow interface the table needs; :mod:`ligretto.live.scoring.tafel`
implements it on the Tafel service layer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal, Protocol

from pydantic import Field

from ligretto.tafel.limits import DEFAULT_ROUNDS, DEFAULT_TARGET, MAX_AGREED_ROUNDS, MAX_TARGET

# The Tafel's limits (T1), also read by pydantic where an end condition
# arrives as JSON (``web/play/table_spec.py`` derives its model from this class).
Target = Annotated[int, Field(ge=1, le=MAX_TARGET)]
AgreedRounds = Annotated[int, Field(ge=1, le=MAX_AGREED_ROUNDS)]


@dataclass(frozen=True, slots=True)
class EndCondition:
    """How the game ends (T1): a target score or an agreed number of rounds."""

    mode: Literal["target", "rounds"] = "target"
    target: Target = DEFAULT_TARGET
    rounds: AgreedRounds = DEFAULT_ROUNDS

    def __post_init__(self) -> None:
        if self.mode == "target" and not 1 <= self.target <= MAX_TARGET:
            raise ValueError(f"target must be between 1 and {MAX_TARGET}")
        if self.mode == "rounds" and not 1 <= self.rounds <= MAX_AGREED_ROUNDS:
            raise ValueError(f"rounds must be between 1 and {MAX_AGREED_ROUNDS}")

    def to_dict(self) -> dict[str, int | str]:
        if self.mode == "target":
            return {"mode": "target", "target": self.target}
        return {"mode": "rounds", "rounds": self.rounds}


@dataclass(frozen=True, slots=True)
class GroupLink:
    """The group a table's games are recorded into (the host picked it).

    The token is the group's secret; it stays out of ``repr`` (and logs).
    """

    id: str
    token: str = field(repr=False)

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "token": self.token}


@dataclass(frozen=True, slots=True)
class Standing:
    """The Tafel's answer after a round: totals per seat and the outcome."""

    totals: list[int]
    finished: bool
    winners: list[int]


class ScoreKeeper(Protocol):
    """The Tafel as the table uses it (plain Python calls, no HTTP)."""

    def create_game(
        self,
        names: list[str],
        end: EndCondition,
        *,
        deck: str,
        row_storage: bool,
        group: GroupLink | None = None,
    ) -> tuple[str, str]:
        """Open a Tafel game for these seats; return its id and edit token.

        With a ``group`` the game joins it right after it is opened, the
        seats' names as confirmed new members; if the group refuses, the
        game stands alone (and the table plays on).
        """
        ...

    def record_round(
        self, game_id: str, token: str, stacks: list[int], middle: list[int], *, number: int
    ) -> Standing:
        """Enter one finished round, stacks first then the middle (T2, T3),
        as the game's round ``number`` — unless it has that many rounds
        already (written just before a restart: never twice)."""
        ...

    def board_url(self, game_id: str) -> str:
        """Where the game's board can be watched."""
        ...
