"""The R4 deadlock test: can any seat still play a card?

A table is deadlocked when no seat has a playable card among its row tops,
stack top, discard top and every card that further turning (and recycling)
can bring up. Without shuffled recycling the turning order is fixed, so only
the tops of its cycle count (:func:`cycle_tops`). Refilling a gap by hand
(manual refill) and, with R6, putting a card into the row also count as
playing: they move a card on, and the stack cards they uncover may fit.

The functions read a :class:`~ligretto.rules.round.Round`'s indexes
(``_fit``, ``_open_fit``, ``_fitting``) and places; ``Round`` resolves a
deadlock (end or reshuffle, R4) with them after every action that may
cause one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ligretto.rules.layout import PACKET, storable

if TYPE_CHECKING:
    from ligretto.rules.round import Round

__all__ = ["can_store", "cycle_tops", "is_deadlocked", "reachable", "reshuffle_can_help"]


def cycle_tops(hand: Sequence[int], discard: Sequence[int]) -> list[int]:
    """Every card that turning without shuffling can bring to the discard top.

    ``hand`` and ``discard`` list their cards bottom to top. First the rest
    of the current pass: each packet of three (fewer at the end) is flipped,
    so the packet's third card lands on top. Then the discard pile is picked
    up in order (R3 ``recycle_shuffle=False``) and every later pass is the
    same: reading the pile as the turning order h1, h2 …, hm, the tops are
    h3, h6, … and hm. After the first recycling the cycle repeats exactly,
    so these are all the cards that can ever come up.

    A hand of seven cards (top last) and an empty discard pile: every pass
    shows 4, then 1, then 0; the other four cards never come up.

    >>> sorted(set(cycle_tops([0, 1, 2, 3, 4, 5, 6], [])))
    [0, 1, 4]
    """
    # Packets are taken from the end of ``hand`` (its top) and each is
    # flipped, so one pass lays the hand onto the discard pile in reverse:
    # the turning order of every later pass is discard + reversed(hand).
    # This order does not change by turning or recycling, only when a card
    # leaves the hand or discard pile.
    order = [*discard, *hand[::-1]]
    tops = order[2::PACKET]
    if order:
        tops.append(order[-1])
    if discard:
        tops.append(discard[-1])
    # The rest of the current pass: the packets end at hand[len − 3],
    # hand[len − 6] … and the last (maybe shorter) one at hand[0].
    tops.extend(hand[-PACKET::-PACKET])
    if hand:
        tops.append(hand[0])
    return tops


def reachable(rnd: Round, seat: int) -> list[int]:
    """Hand and discard cards that turning can bring to the discard top (R4)."""
    if rnd._shuffle_recycled:
        # Shuffled recycling can bring any of them up.
        return rnd._hand[seat][::-1] + rnd._discard[seat]
    return cycle_tops(rnd._hand[seat], rnd._discard[seat])


def can_store(rnd: Round, seat: int, code: int) -> bool:
    """R6: card ``code`` may lie on one of ``seat``'s row tops."""
    return any(cell and storable(code, cell[-1]) for cell in rnd._row[seat])


def is_deadlocked(rnd: Round) -> bool:
    """R4: no seat has a playable card among row tops, stack top, discard
    top and every card further turning (and recycling) can bring up.

    Refilling a gap by hand (manual refill) and, with R6, putting a card
    into the row also count as playing: they move a card on, and the
    stack cards they uncover may fit.
    """
    if rnd._over:
        return False
    players = rnd._players
    if rnd._fit:
        if rnd._shuffle_recycled:
            return False
        # Without shuffling only the turning cycle's tops count; the
        # slicing and map() keep this loop in C for the most part.
        if rnd._open_fit:
            return False  # a row top or stack top fits
        fitting = rnd._fitting.__getitem__
        for seat in range(players):
            if any(map(fitting, cycle_tops(rnd._hand[seat], rnd._discard[seat]))):
                return False
    if not rnd._auto_refill:
        for seat in range(players):
            if rnd._stack[seat] and not all(rnd._row[seat]):
                return False
    if rnd._storage:
        for seat in range(players):
            stack = rnd._stack[seat]
            candidates = reachable(rnd, seat)
            if stack:
                candidates.append(stack[-1])
            if any(can_store(rnd, seat, c) for c in candidates):
                return False
    return True


def reshuffle_can_help(rnd: Round) -> bool:
    """R4: some hand or discard card fits the middle (or, R6, the own row)."""
    fitting = rnd._fitting
    storage = rnd._storage
    for seat in range(rnd._players):
        for c in rnd._hand[seat] + rnd._discard[seat]:
            if fitting[c] or (storage and can_store(rnd, seat, c)):
                return True
    return False
