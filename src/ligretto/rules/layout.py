"""Where the cards lie in front of a seat (R2, R3, R6).

The sizes of the deal and the check of what is dealt, the turning packet,
the internal numbers of the places a card is taken from, and the R6 test
for putting one card onto another in the row. A leaf module: the round,
its snapshot, the deadlock test and the interned actions all read it; it
reads only the rule options.
"""

from __future__ import annotations

from typing import Final

from ligretto.rules.options import RuleOptions

# Final: compiled, the modules that import these use them as constants.

#: R2: ten cards in the Ligretto stack.
STACK_SIZE: Final = 10
#: R3: cards are turned over three at a time.
PACKET: Final = 3

#: Internal source numbers of a round: row positions are 0–4, then these two.
SRC_STACK: Final = 5
SRC_DISCARD: Final = 6


def row_size(players: int) -> int:
    """R2: five row cards with 2 players, four with 3, three with 4 or more.

    >>> [row_size(n) for n in (2, 3, 4, 12)]
    [5, 4, 3, 3]
    """
    return 5 if players == 2 else 4 if players == 3 else 3


def check_deal(players: int, seed: int, options: RuleOptions) -> None:
    """Raise ``ValueError`` unless a round of ``players`` seats with these
    ``options`` (R1) and ``seed`` can be dealt; a round and a snapshot read
    back are checked alike.

    >>> check_deal(2, 7, RuleOptions())
    >>> check_deal(1, 7, RuleOptions())
    Traceback (most recent call last):
    ValueError: 1 players: the ligretto deck seats 2–12 players (R1)
    """
    if not isinstance(options, RuleOptions):
        raise ValueError(f"options must be RuleOptions, not {options!r}")
    options.check_players(players)
    if type(seed) is not int:
        raise ValueError(f"seed must be an int, not {seed!r}")


def storable(code: int, onto: int) -> bool:
    """R6: strictly lower value and a different colour than the card beneath.

    Both are card codes (colour index × 10 + value − 1, see
    :mod:`ligretto.rules.cards`): a red 4 (code 3) may lie on a green 7
    (code 16), not on a red 7 (code 6).

    >>> storable(3, 16), storable(3, 6), storable(16, 3)
    (True, False, False)
    """
    return code % 10 < onto % 10 and code // 10 != onto // 10
