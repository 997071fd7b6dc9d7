"""When a game ends and who wins, from the totals (T4, T5): written once.

The Tafel's :class:`~ligretto.tafel.game.Game` decides its games with these
two steps, and so does the simulator when a study's house rules score
rounds in a way a Tafel game cannot hold (``ligretto.sim.house``): the
totals differ, the outcome rules do not.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["after_round", "leaders", "ranks"]


def after_round(totals: Sequence[int], target: int, reached: bool) -> tuple[bool, bool]:
    """T4 after a round with these totals: whether the target has been reached
    (by now, in any round) and whether the game is decided by this round.

    Once anyone has the target, the first round after which a single player
    has the highest total ends the game; a tie at the top plays on.

    >>> after_round([99, 80], 99, False)
    (True, True)
    >>> after_round([99, 99], 99, False)
    (True, False)
    >>> after_round([101, 99], 99, True)
    (True, True)
    """
    top = max(totals)
    reached = reached or top >= target
    return reached, reached and list(totals).count(top) == 1


def leaders(totals: Sequence[int]) -> tuple[int, ...]:
    """The seats with the highest total: the winner, or the winners of a shared
    victory (T5; a decided target game has one, T4).

    >>> leaders([12, 30, 30])
    (1, 2)
    """
    top = max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == top)


def ranks(totals: Sequence[int]) -> tuple[int, ...]:
    """Each seat's place by its total, highest first; ties share a place (T6).

    >>> ranks([30, 12, 30, 5])
    (1, 3, 1, 4)
    """
    return tuple(1 + sum(1 for other in totals if other > t) for t in totals)
