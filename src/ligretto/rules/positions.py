"""Every position of a kept round, as the engine computes it (``ligretto.positions/1``).

The replay page draws what this gives and knows no rule itself: the round
is dealt (R2) and its log applied action by action with ``Round.apply``
(``Round.settle_stuck`` for the table's agreed ``stuck``, R4), so every
turn, recycle, refill, storage and shuffle (R3, R4, R6) is the engine's.
The round is over, so every card is shown face up, the hand's next card
too.

The answer is compact: ``start`` is the table as dealt; each of ``steps``
says what its action was (``kind``, the ``card`` of a play or a storage,
the middle ``pile`` a card landed on) and only what it changed: per seat
the places that changed (``[seat, {place: view}]``) and the piles
(``[pile, top, count, closed]``, closed once a 10 is on it, R3) that
are no longer as before.  A seat's view is ``{"stack": [top, count], "row":
[top, …], "discard": [top, count], "hand": [top, count], "middle": n}``
(``top`` a card text or ``None``); a pile's is ``[top, count, closed]``.  Nothing
here does I/O.
"""

from __future__ import annotations

from typing import Any

from ligretto.rules.actions import Action, Play, Store
from ligretto.rules.replay_file import ReplayLog
from ligretto.rules.round import Round

__all__ = ["POSITIONS_FORMAT", "round_positions", "table_at"]

POSITIONS_FORMAT = "ligretto.positions/1"


def _top(cards: list[str]) -> list[Any]:
    return [cards[-1] if cards else None, len(cards)]


def table_at(rnd: Round) -> dict[str, Any]:
    """The whole table of ``rnd`` as the replay page shows it, face up."""
    snapshot = rnd.snapshot()
    middle = [0] * rnd.players
    for pile in snapshot["middle"]:
        for entry in pile["cards"]:
            middle[entry["owner"]] += 1
    piles = [[str(pile.top), pile.count, pile.closed] for pile in rnd.view().middle]
    seats = [
        {
            "stack": _top(seat["stack"]),
            "row": [cell[-1] if cell else None for cell in seat["row"]],
            "discard": _top(seat["discard"]),
            "hand": _top(seat["hand"]),
            "middle": middle[s],
        }
        for s, seat in enumerate(snapshot["seats"])
    ]
    return {"seats": seats, "piles": piles}


def _step(action: Action | None, before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    step: dict[str, Any] = {"kind": "stuck" if action is None else str(action).split(" ")[0]}
    if isinstance(action, Play | Store):
        step["card"] = str(action.card)
    if isinstance(action, Play):
        # R3: a 1 opens a new pile, the next after the ones in the middle.
        step["pile"] = len(before["piles"]) if action.pile is None else action.pile
    seats = []
    for s, view in enumerate(after["seats"]):
        old = before["seats"][s]
        changed = {place: now for place, now in view.items() if now != old[place]}
        if changed:
            seats.append([s, changed])
    if seats:
        step["seats"] = seats
    was = before["piles"]
    piles = [[p, *view] for p, view in enumerate(after["piles"]) if p >= len(was) or view != was[p]]
    if piles:
        step["piles"] = piles
    return step


def round_positions(replay: ReplayLog) -> dict[str, Any]:
    """The table as dealt, then what each logged action changed (see the module)."""
    rnd = Round.deal(replay.players, replay.seed, replay.options)
    before = table_at(rnd)
    start = before
    steps = []
    for seat, text in replay.log:
        if seat is None:
            rnd.settle_stuck()
            action: Action | None = None
        else:
            action = Action.parse(text)
            rnd.apply(seat, action)
        after = table_at(rnd)
        steps.append(_step(action, before, after))
        before = after
    return {"format": POSITIONS_FORMAT, "start": start, "steps": steps}
