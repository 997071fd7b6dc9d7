"""What a write did to a game: the round row to write and the history entry (T6).

Each function applies one action through the domain (which verifies before
it changes, T2/T3) and describes it with counts by player name, so the
history reads the same whatever the seating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ligretto.store.results import HistoryEntry
from ligretto.tafel import Code, Game, ImplausibleRoundError, Round, RoundOrderError
from ligretto.tafel.exchange import names_to_counts

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
    """False when the action found nothing to do (a second Beenden, a correction to
    the counts the round has): nothing is written."""


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
    if rnd == old:
        # Nothing to record: no new version, no history entry for an Undo (T6).
        return Change("correct_round", rnd, changed=False)
    detail = {"before": round_counts(game, old), "after": round_counts(game, rnd)}
    return Change("correct_round", rnd, "update", detail)


def remove_last_round(game: Game, number: int | None) -> Change:
    """Remove the last round (T6), keeping its counts in the history.

    Beenden/Werten as they were go into the history too: an Undo puts them back.
    """
    closed, scored = game.closed, game.scored
    rnd = game.remove_last_round(number)
    detail = {"removed": round_counts(game, rnd), "closed": closed, "scored": scored}
    return Change("remove_round", rnd, "delete", detail)


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
    """A round's stacks and middle by player name (middle None while pending).

    ``confirmed`` is there only for a round the table confirmed as entered (T3).
    """
    counts: dict[str, Any] = {
        "stacks": names_to_counts(game, rnd.stacks),
        "middle": None if rnd.middle is None else names_to_counts(game, rnd.middle),
    }
    if rnd.confirmed:
        counts["confirmed"] = True
    return counts


UNDOABLE = frozenset({"open_round", "complete_round", "correct_round", "remove_round"})
"""The changes an Undo can take back: the last save or removal of a round (T6)."""


def undo(game: Game, last: HistoryEntry | None) -> Change:
    """Take back *last*, the game's latest change, exactly (Undo, T6).

    Stacks saved: the round goes. Middle saved: the round waits for its
    middle again. A correction: the round's earlier counts come back. A
    removal: the round comes back at its place, with Beenden/Werten as they
    were. Anything else (nothing yet, an Undo, Beenden/Werten, the game's
    creation) cannot be undone: :class:`RoundOrderError` ``nothing_to_undo``.
    """
    action = last.action if last is not None else None
    number = last.round if last is not None else None
    if last is None or action not in UNDOABLE or number is None:
        raise _nothing_to_undo()
    detail = last.detail
    if action == "open_round":
        if number != len(game.rounds) or game.round(number).complete:
            raise _nothing_to_undo()
        before = game.round(number)
        game.remove_last_round(number)
        return Change(
            "undo", before, "delete", {"undone": action, "removed": round_counts(game, before)}
        )
    if action == "remove_round":
        if number != len(game.rounds) + 1:
            raise _nothing_to_undo()
        rnd = _round_from(game, number, detail.get("removed"))
        restored = game.restore_round(
            rnd, closed=bool(detail.get("closed")), scored=bool(detail.get("scored"))
        )
        return Change(
            "undo", restored, "insert", {"undone": action, **round_counts(game, restored)}
        )
    if not 1 <= number <= len(game.rounds):
        raise _nothing_to_undo()
    current = game.round(number)
    if action == "complete_round":
        rnd = Round(number, current.stacks)
    else:
        rnd = _round_from(game, number, detail.get("before"))
    restored = game.restore_round(rnd)
    after = round_counts(game, restored)
    return Change(
        "undo",
        restored,
        "update",
        {"undone": action, "before": round_counts(game, current), "after": after},
    )


def _round_from(game: Game, number: int, counts: object) -> Round:
    """The round a history entry's counts by name describe; refused if they do not fit."""
    if not isinstance(counts, Mapping):
        raise _nothing_to_undo()
    stacks, middle = counts.get("stacks"), counts.get("middle")
    if not isinstance(stacks, Mapping) or not (middle is None or isinstance(middle, Mapping)):
        raise _nothing_to_undo()
    try:
        stack_counts = tuple(int(stacks[name]) for name in game.players)
        middle_counts = (
            None if middle is None else tuple(int(middle[name]) for name in game.players)
        )
    except (KeyError, TypeError, ValueError):
        raise _nothing_to_undo() from None
    confirmed = counts.get("confirmed")
    if confirmed is None and middle_counts is not None:
        # Entries written before rounds kept their confirmation in the history:
        # a round that was saved although implausible had been confirmed (T3).
        try:
            game.check_middle(stack_counts, list(middle_counts))
            confirmed = False
        except ImplausibleRoundError:
            confirmed = True
    return Round(number, stack_counts, middle_counts, confirmed=bool(confirmed))


def _nothing_to_undo() -> RoundOrderError:
    return RoundOrderError(
        Code.NOTHING_TO_UNDO,
        "the game's last change is no save or removal of a round: nothing to undo (T6)",
        rule="T6",
    )
