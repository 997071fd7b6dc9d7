"""A round's full state as plain data, and back (format ``ligretto.round/1``).

:class:`RoundState` is everything a round holds — every seat's places, the
middle with each card's owner, the R4 state and counters — as card codes.
:func:`to_snapshot` writes it as JSON-ready data; :func:`from_snapshot`
reads such data (or a hand-made layout) and checks it against R2–R4 and R6.
The format is described in docs/rules-engine.md. ``Round.snapshot()`` and
``Round.from_snapshot()`` are the entry points: the round builds a
``RoundState`` from itself, or itself from one.

>>> from ligretto.rules import Round
>>> data = Round.deal(players=2, seed=3).snapshot()
>>> data["format"], len(data["seats"][0]["stack"])
('ligretto.round/1', 10)
>>> state = from_snapshot(data, seed=None, fill_hand=False)
>>> state.players, state.actions, to_snapshot(state) == data | {"actions": 0}
(2, 0, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ligretto.rules.cards import CARDS, DECK_SIZE, Card
from ligretto.rules.errors import MalformedActionError, RuleError
from ligretto.rules.layout import STACK_SIZE, check_deal, row_size
from ligretto.rules.options import RuleOptions
from ligretto.rules.values import FrozenValue

__all__ = ["SNAPSHOT_FORMAT", "RoundState", "from_snapshot", "to_snapshot"]

SNAPSHOT_FORMAT = "ligretto.round/1"


@dataclass(frozen=True, slots=True)
class RoundState(FrozenValue):
    """A round's state as card codes; every pile lists its cards bottom to top.

    Per seat: ``stack``, ``row`` (one pile per row position, a gap empty),
    ``hand`` (its top is the next card to be turned) and ``discard``.
    ``piles``: the middle piles, each entry ``code | owner << 6``. ``over``,
    ``caller``, ``deadlock``, ``reshuffles``, ``moves`` and
    ``reshuffle_mark``: the round's R4 state and counters. ``actions``: the
    length of the round's log (written, never restored).
    """

    players: int
    seed: int
    options: RuleOptions
    stack: list[list[int]]
    row: list[list[list[int]]]
    hand: list[list[int]]
    discard: list[list[int]]
    piles: list[list[int]]
    over: bool
    caller: int | None
    deadlock: bool
    reshuffles: int
    moves: int
    reshuffle_mark: int
    actions: int


def to_snapshot(state: RoundState) -> dict[str, Any]:
    """``state`` as plain JSON-ready data (cards as text)."""
    cards = CARDS[state.options.deck]

    def texts(codes: Iterable[int]) -> list[str]:
        return [str(cards[c]) for c in codes]

    return {
        "format": SNAPSHOT_FORMAT,
        "players": state.players,
        "seed": state.seed,
        "options": state.options.to_dict(),
        "seats": [
            {
                "stack": texts(state.stack[s]),
                "row": [texts(cell) for cell in state.row[s]],
                "hand": texts(state.hand[s]),
                "discard": texts(state.discard[s]),
            }
            for s in range(state.players)
        ],
        "middle": [
            {
                "id": pile,
                "cards": [{"card": str(cards[e & 63]), "owner": e >> 6} for e in entries],
            }
            for pile, entries in enumerate(state.piles)
        ],
        "over": state.over,
        "caller": state.caller,
        "deadlock": state.deadlock,
        "reshuffles": state.reshuffles,
        "moves": state.moves,
        "reshuffle_mark": state.reshuffle_mark,
        "actions": state.actions,
    }


def from_snapshot(data: Mapping[str, Any], *, seed: int | None, fill_hand: bool) -> RoundState:
    """Read and check :func:`to_snapshot` data — or a hand-made layout.

    See ``Round.from_snapshot``. ``seed`` replaces the snapshot's seed
    unless it is ``None``; with ``fill_hand`` the cards a seat leaves out go
    under its hand in card order. ``actions`` is 0. Anything that is not a
    valid snapshot raises :class:`~ligretto.rules.errors.MalformedActionError`
    (or the :class:`~ligretto.rules.errors.RuleError` that says what is wrong).
    """
    try:
        return _read(data, seed, fill_hand)
    except RuleError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise MalformedActionError(f"not a round snapshot: {exc}") from exc


def _read(data: Mapping[str, Any], seed: int | None, fill_hand: bool) -> RoundState:
    options = RuleOptions(**data.get("options", {}))
    players = data["players"]
    seed_ = data.get("seed", 0) if seed is None else seed
    check_deal(players, seed_, options)
    deck = options.deck
    cards = CARDS[deck]
    size = row_size(players)

    def codes(texts: Sequence[str]) -> list[int]:
        out = []
        for text in texts:
            card = Card.parse(text)
            if card.deck != deck:
                raise MalformedActionError(f"{card} is not a card of the {deck} deck")
            out.append(card.code)
        return out

    seen: list[set[int]] = [set() for _ in range(players)]

    def take(seat: int, code: int) -> None:
        if code in seen[seat]:
            raise MalformedActionError(f"seat {seat} has {cards[code]} twice")
        seen[seat].add(code)

    piles: list[list[int]] = []
    for pile, spec in enumerate(data.get("middle", [])):
        if spec.get("id", pile) != pile:
            raise MalformedActionError("middle pile ids must be 0, 1, 2 … in order")
        entries: list[int] = []
        for value_index, entry in enumerate(spec["cards"]):
            owner = entry["owner"]
            if type(owner) is not int or not 0 <= owner < players:
                raise MalformedActionError(f"p{pile}: no seat {owner!r}")
            (code,) = codes([entry["card"]])
            if code % 10 != value_index or (entries and code // 10 != entries[0] % 64 // 10):
                raise MalformedActionError(f"p{pile} is not one colour ascending from 1 (R3)")
            take(owner, code)
            entries.append(code | owner << 6)
        if not entries:
            raise MalformedActionError(f"p{pile} is empty")
        piles.append(entries)
    seats = data["seats"]
    if len(seats) != players:
        raise MalformedActionError(f"{len(seats)} seats listed for {players} players")
    stacks: list[list[int]] = []
    rows: list[list[list[int]]] = []
    hands: list[list[int]] = []
    discards: list[list[int]] = []
    for seat, spec in enumerate(seats):
        stack = codes(spec.get("stack", []))
        row = [codes(cell) for cell in spec.get("row", [])]
        if len(row) != size:
            raise MalformedActionError(f"seat {seat}: the row has {size} positions (R2)")
        if not options.row_storage and any(len(cell) > 1 for cell in row):
            raise MalformedActionError(f"seat {seat}: stacked row cards need row_storage (R6)")
        if len(stack) > STACK_SIZE:
            raise MalformedActionError(f"seat {seat}: a Ligretto stack has at most 10 cards (R2)")
        if options.row_refill == "auto" and stack and not all(row):
            raise MalformedActionError(
                f"seat {seat}: with automatic refill a row gap cannot stay open (R3)"
            )
        hand = codes(spec.get("hand", []))
        discard = codes(spec.get("discard", []))
        for c in stack + [c for cell in row for c in cell] + hand + discard:
            take(seat, c)
        missing = [c for c in range(DECK_SIZE) if c not in seen[seat]]
        if missing and not fill_hand:
            raise MalformedActionError(
                f"seat {seat} lacks {', '.join(str(cards[c]) for c in missing)}"
            )
        stacks.append(stack)
        rows.append(row)
        hands.append(missing[::-1] + hand)
        discards.append(discard)
    over = bool(data.get("over", False))
    caller = data.get("caller")
    deadlock = bool(data.get("deadlock", False))
    reshuffles = int(data.get("reshuffles", 0))
    moves = int(data.get("moves", 0))
    reshuffle_mark = int(data.get("reshuffle_mark", -1))
    if caller is not None and (type(caller) is not int or not 0 <= caller < players):
        raise MalformedActionError(f"no seat {caller!r} can be the caller")
    # R4: a round ends by exactly one Ligretto Stop (its caller's stack is
    # empty) or by a deadlock; a running round has neither.
    if caller is not None and deadlock:
        raise MalformedActionError("a round ends by Ligretto Stop or by a deadlock, not both (R4)")
    if over != (caller is not None or deadlock):
        raise MalformedActionError(
            "over goes with a caller (Ligretto Stop) or a deadlock, and only with them (R4)"
        )
    if caller is not None and stacks[caller]:
        raise MalformedActionError(
            f"seat {caller} called Ligretto Stop with cards in its stack (R4)"
        )
    if not over and any(not s for s in stacks):
        raise MalformedActionError("an empty Ligretto stack means the round is over (R4)")
    return RoundState(
        players=players,
        seed=seed_,
        options=options,
        stack=stacks,
        row=rows,
        hand=hands,
        discard=discards,
        piles=piles,
        over=over,
        caller=caller,
        deadlock=deadlock,
        reshuffles=reshuffles,
        moves=moves,
        reshuffle_mark=reshuffle_mark,
        actions=0,
    )
