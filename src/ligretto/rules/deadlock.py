"""What turning can bring up and what may go into a row: the R4 test's helpers.

Pure functions on piles of card codes (see :mod:`ligretto.rules.cards`),
each listed bottom to top. ``Round.is_deadlocked`` builds the R4 deadlock
test from them: a table is deadlocked when no seat has a playable card
among its row tops, stack top, discard top and every card that further
turning (and recycling) can bring up. Without shuffled recycling the
turning order is fixed, so only the tops of its cycle count
(:func:`cycle_tops`); with R6, a card that may go into the row
(:func:`can_store`) counts as playable too.
"""

from __future__ import annotations

from collections.abc import Sequence

from ligretto.rules.layout import PACKET, storable

__all__ = ["can_store", "cycle_tops", "reachable", "split_cycle_tops"]


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
    # One list as Round keeps a seat's hand and discard pile (see
    # split_cycle_tops): the hand bottom to top, the discard pile top down.
    return split_cycle_tops([*hand, *discard[::-1]], len(hand))


def split_cycle_tops(cycle: list[int], split: int) -> list[int]:
    """:func:`cycle_tops` of a seat whose hand and discard pile lie in one
    list as ``Round`` keeps them: the hand is ``cycle[:split]`` (bottom to
    top) and the discard pile ``cycle[split:]`` read from its top down.

    >>> sorted(set(split_cycle_tops([0, 1, 2, 3, 4, 5, 6], 7)))
    [0, 1, 4]
    """
    # Packets are taken from the hand's top and each is flipped, so one
    # pass lays the hand onto the discard pile in reverse: the turning order
    # of every later pass is discard + reversed(hand), which in this order
    # is the whole list reversed; it changes only when a card leaves. The
    # discard top is cycle[split]; the rest of the current pass has its
    # packets end at cycle[split - 3], cycle[split - 6] … and cycle[0].
    order = cycle[::-1]
    tops = order[2::PACKET]
    if order:
        tops.append(order[-1])
    if split < len(cycle):
        tops.append(cycle[split])
    if split >= PACKET:
        tops.extend(cycle[split - PACKET :: -PACKET])
    if split:
        tops.append(cycle[0])
    return tops


def reachable(cycle: list[int], split: int, shuffled: bool) -> list[int]:
    """Hand and discard cards that turning can bring to the discard top (R4),
    of a seat's hand and discard pile in one list (see :func:`split_cycle_tops`).

    ``shuffled``: the discard pile is shuffled when it becomes the hand
    (R3 ``recycle_shuffle``); a new list either way.

    >>> reachable([0, 1, 2, 3], 4, shuffled=True), reachable([0, 1, 2, 3], 4, shuffled=False)
    ([3, 2, 1, 0], [1, 0, 1, 0])
    """
    if shuffled:
        # Shuffled recycling can bring any of them up.
        return cycle[:split][::-1] + cycle[split:][::-1]
    return split_cycle_tops(cycle, split)


def can_store(row: list[list[int]], code: int) -> bool:
    """R6: card ``code`` may lie on one of the row tops (``row``: a seat's
    row positions, each a pile; a gap is empty).

    >>> can_store([[16], []], 3), can_store([[6], []], 3)
    (True, False)
    """
    return any(cell and storable(code, cell[-1]) for cell in row)
