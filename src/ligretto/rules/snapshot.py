"""A round's full state as plain data, and back (format ``ligretto.round/1``).

:func:`snapshot` writes everything a round holds — every seat's places,
the middle with each card's owner, the R4 state and counters — as
JSON-ready data; :func:`restore` reads such data (or a hand-made layout)
and checks it against R2–R4 and R6 before it builds the round. The format
is described in docs/rules-engine.md. ``Round.snapshot()`` and
``Round.from_snapshot()`` are the entry points.

>>> from ligretto.rules import Round
>>> r = Round.deal(players=2, seed=3)
>>> data = snapshot(r)
>>> data["format"], len(data["seats"][0]["stack"])
('ligretto.round/1', 10)
>>> restore(Round, data).snapshot() == data | {"actions": 0}
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ligretto.rules.cards import DECK_SIZE, Card
from ligretto.rules.errors import MalformedActionError, RuleError
from ligretto.rules.layout import STACK_SIZE
from ligretto.rules.options import RuleOptions

if TYPE_CHECKING:
    from ligretto.rules.round import Round

__all__ = ["SNAPSHOT_FORMAT", "restore", "snapshot"]

SNAPSHOT_FORMAT = "ligretto.round/1"


def snapshot(rnd: Round) -> dict[str, Any]:
    """The full state of ``rnd`` as plain JSON-ready data.

    Every pile lists its cards bottom to top, so the last card is the
    top (for the hand: the next card to be turned).
    """
    cards = rnd._cards

    def texts(codes: Iterable[int]) -> list[str]:
        return [str(cards[c]) for c in codes]

    return {
        "format": SNAPSHOT_FORMAT,
        "players": rnd._players,
        "seed": rnd._seed,
        "options": rnd._options.to_dict(),
        "seats": [
            {
                "stack": texts(rnd._stack[s]),
                "row": [texts(cell) for cell in rnd._row[s]],
                "hand": texts(rnd._hand[s]),
                "discard": texts(rnd._discard[s]),
            }
            for s in range(rnd._players)
        ],
        "middle": [
            {
                "id": pile,
                "cards": [{"card": str(cards[e & 63]), "owner": e >> 6} for e in entries],
            }
            for pile, entries in enumerate(rnd._piles)
        ],
        "over": rnd._over,
        "caller": rnd._caller,
        "deadlock": rnd._deadlock,
        "reshuffles": rnd._reshuffles,
        "moves": rnd._moves,
        "reshuffle_mark": rnd._reshuffle_mark,
        "actions": len(rnd._log),
    }


def restore(
    cls: type[Round], data: Mapping[str, Any], *, seed: int | None = None, fill_hand: bool = False
) -> Round:
    """Build a ``cls`` round from :func:`snapshot` data — or a hand-made layout.

    See ``Round.from_snapshot``. Anything that is not a valid snapshot
    raises :class:`~ligretto.rules.errors.MalformedActionError` (or the
    :class:`~ligretto.rules.errors.RuleError` that says what is wrong).
    """
    try:
        return _restore(cls, data, seed, fill_hand)
    except RuleError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise MalformedActionError(f"not a round snapshot: {exc}") from exc


def _restore(cls: type[Round], data: Mapping[str, Any], seed: int | None, fill_hand: bool) -> Round:
    options = RuleOptions(**data.get("options", {}))
    players = data["players"]
    rnd = cls._empty(players, data.get("seed", 0) if seed is None else seed, options)
    deck = options.deck

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
            raise MalformedActionError(f"seat {seat} has {rnd._cards[code]} twice")
        seen[seat].add(code)

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
            rnd._middle[owner] += 1
        if not entries:
            raise MalformedActionError(f"p{pile} is empty")
        rnd._piles.append(entries)
        rnd._pile_top.append(entries[-1] & 63)
    seats = data["seats"]
    if len(seats) != players:
        raise MalformedActionError(f"{len(seats)} seats listed for {players} players")
    for seat, spec in enumerate(seats):
        rnd._stack[seat] = codes(spec.get("stack", []))
        row = [codes(cell) for cell in spec.get("row", [])]
        if len(row) != rnd._row_size:
            raise MalformedActionError(f"seat {seat}: the row has {rnd._row_size} positions (R2)")
        if not options.row_storage and any(len(cell) > 1 for cell in row):
            raise MalformedActionError(f"seat {seat}: stacked row cards need row_storage (R6)")
        if len(rnd._stack[seat]) > STACK_SIZE:
            raise MalformedActionError(f"seat {seat}: a Ligretto stack has at most 10 cards (R2)")
        if options.row_refill == "auto" and rnd._stack[seat] and not all(row):
            raise MalformedActionError(
                f"seat {seat}: with automatic refill a row gap cannot stay open (R3)"
            )
        rnd._row[seat] = row
        rnd._hand[seat] = codes(spec.get("hand", []))
        rnd._discard[seat] = codes(spec.get("discard", []))
        places = (
            rnd._stack[seat]
            + [c for cell in row for c in cell]
            + rnd._hand[seat]
            + rnd._discard[seat]
        )
        for c in places:
            take(seat, c)
        missing = [c for c in range(DECK_SIZE) if c not in seen[seat]]
        if missing and not fill_hand:
            raise MalformedActionError(
                f"seat {seat} lacks {', '.join(str(rnd._cards[c]) for c in missing)}"
            )
        rnd._hand[seat] = missing[::-1] + rnd._hand[seat]
    rnd._over = bool(data.get("over", False))
    rnd._caller = data.get("caller")
    rnd._deadlock = bool(data.get("deadlock", False))
    rnd._reshuffles = int(data.get("reshuffles", 0))
    rnd._moves = int(data.get("moves", 0))
    rnd._reshuffle_mark = int(data.get("reshuffle_mark", -1))
    if rnd._caller is not None and (type(rnd._caller) is not int or not 0 <= rnd._caller < players):
        raise MalformedActionError(f"no seat {rnd._caller!r} can be the caller")
    # R4: a round ends by exactly one Ligretto Stop (its caller's stack is
    # empty) or by a deadlock; a running round has neither.
    if rnd._caller is not None and rnd._deadlock:
        raise MalformedActionError("a round ends by Ligretto Stop or by a deadlock, not both (R4)")
    if rnd._over != (rnd._caller is not None or rnd._deadlock):
        raise MalformedActionError(
            "over goes with a caller (Ligretto Stop) or a deadlock, and only with them (R4)"
        )
    if rnd._caller is not None and rnd._stack[rnd._caller]:
        raise MalformedActionError(
            f"seat {rnd._caller} called Ligretto Stop with cards in its stack (R4)"
        )
    if not rnd._over and any(not s for s in rnd._stack):
        raise MalformedActionError("an empty Ligretto stack means the round is over (R4)")
    rnd._reindex()
    if not rnd._over:
        rnd._settle_deadlock([])
    return rnd
