"""What a write did to a game: the round row to write and the history entry (T6).

Each function applies one action through the domain (which verifies before
it changes, T2/T3) and describes it with counts by player name, so the
history reads the same whatever the seating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ligretto.tafel import Game, Round
from ligretto.tafel.game import names_to_counts

Counts = Mapping[str, object] | Sequence[object]
"""Per-player counts: ``{"Anna": 0, "Ben": 3}`` or a list in seating order."""

RoundOp = Literal["insert", "update", "delete"]


@dataclass(slots=True)
class Change:
    """One action's effect: its history entry and what happens to its round row."""

    action: str
    round: Round | None = None
    round_op: RoundOp | None = None
    detail: dict[str, Any] = field(default_factory=dict)
    changed: bool = True
    """False when the action found nothing to do (a second Beenden): nothing is written."""


def open_round(game: Game, stacks: Counts) -> Change:
    """Save a new round with stack counts only (T2)."""
    rnd = game.open_round(stacks)
    return Change("open_round", rnd, "insert", {"stacks": names_to_counts(game, rnd.stacks)})


def complete_round(game: Game, number: int, middle: Counts, confirm: bool) -> Change:
    """Enter the pending round's middle (T3) and describe it for the history."""
    rnd = game.complete_round(number, middle, confirm=confirm)
    assert rnd.middle is not None
    detail: dict[str, Any] = {"middle": names_to_counts(game, rnd.middle)}
    if rnd.confirmed:
        detail["confirmed"] = True
    return Change("complete_round", rnd, "update", detail)


def correct_round(
    game: Game, number: int, stacks: Counts | None, middle: Counts | None, confirm: bool
) -> Change:
    """Correct a round (T6) and record it before and after."""
    old = game.round(number)
    rnd = game.correct_round(number, stacks=stacks, middle=middle, confirm=confirm)
    detail = {"before": round_counts(game, old), "after": round_counts(game, rnd)}
    return Change("correct_round", rnd, "update", detail)


def remove_last_round(game: Game, number: int | None) -> Change:
    """Remove the last round (T6), keeping its counts in the history."""
    rnd = game.remove_last_round(number)
    return Change("remove_round", rnd, "delete", {"removed": round_counts(game, rnd)})


def finish(game: Game) -> Change:
    """Beenden (T5); a game already closed is left as it is."""
    if game.closed:
        return Change("finish", changed=False)
    game.finish()
    return Change("finish", detail={"winners": list(game.winners)})


def score(game: Game) -> Change:
    """Werten (T5); a game already scored is left as it is."""
    if game.scored:
        return Change("score", changed=False)
    winners = game.score()
    return Change("score", detail={"winners": list(winners)})


def round_counts(game: Game, rnd: Round) -> dict[str, Any]:
    """A round's stacks and middle by player name (middle None while pending)."""
    return {
        "stacks": names_to_counts(game, rnd.stacks),
        "middle": None if rnd.middle is None else names_to_counts(game, rnd.middle),
    }
