"""Decks between the rounds of a game: gathered as they lay, shuffled by a model.

After a round every player's cards go back to their owner (R5: the middle
sorted by the backs) and the owner shuffles them for the next deal (R2),
well or badly. A :class:`ShuffleModel` says how:

- ``uniform``: every order equally likely. A uniformly shuffled deck owes
  nothing to the round before, so a seat that shuffles so is dealt as a
  fresh deal; a table of such seats (the default) deals every round from
  its own seed exactly as before.
- ``riffle:N``: N riffle shuffles in the Gilbert–Shannon–Reeds model (the
  deck cut at a binomial point, cards dropped from the two halves with
  chances in proportion to what is left of each), the model in which
  Bayer and Diaconis found about seven riffles needed for 52 cards.
- ``perfect:N``: N perfect riffles (faro out-shuffles): cut exactly in half
  and interleaved one by one, the top card staying on top.
- ``none``: dealt as gathered.

How the cards lie when they come back (:func:`gathered`), as one packet
read from its top: the seat's cards from the middle, pile by pile in the
order the piles were opened, each pile from its 1 upward; then its
Ligretto stack, its row left to right, its discard pile and its hand,
each from its top. The deal takes the packet from its top (:func:`dealt`):
the first ten cards, counted off face down and turned over, make the
stack, so the first card is the stack's top; then the row, left to right;
the rest is the hand, turned from its top. So a seat that does not shuffle
finds its middle cards in runs, one colour counting up, at the top of
its next stack.

Everything random here comes from the generator the caller passes (the
simulator derives it from the round's seed), so a game stays reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ligretto.rules import Card, Round
from ligretto.rules.cards import DECK_SIZE
from ligretto.rules.layout import STACK_SIZE, row_size
from ligretto.rules.values import FrozenValue
from ligretto.sim.seeds import derive_seed

__all__ = [
    "KINDS",
    "MAX_SHUFFLES",
    "UNIFORM",
    "ShuffleModel",
    "dealt",
    "fresh_decks",
    "gathered",
    "next_decks",
    "round_decks",
]

_DECKS: Final = 0xDEC5
"""Seed path of a round's deck shuffles, apart from its deal and its bots."""

KINDS: Final = ("uniform", "riffle", "perfect", "none")
"""The shuffle models by name."""

MAX_SHUFFLES: Final = 20
"""The most riffles a model may repeat (far past the seven that look random)."""


@dataclass(frozen=True, slots=True)
class ShuffleModel(FrozenValue):
    """How a player shuffles between rounds: ``kind`` (:data:`KINDS`), ``times`` riffles."""

    kind: str = "uniform"
    times: int = 1

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(
                f"unknown shuffle {self.kind!r}; choose uniform, riffle:N, perfect:N or none"
            )
        if type(self.times) is not int or not 1 <= self.times <= MAX_SHUFFLES:
            raise ValueError(f"a shuffle is repeated 1 to {MAX_SHUFFLES} times, not {self.times!r}")
        if self.kind in ("uniform", "none") and self.times != 1:
            raise ValueError(f"{self.kind} takes no number of shuffles")

    @classmethod
    def parse(cls, text: str) -> ShuffleModel:
        """``uniform``, ``none``, ``riffle`` (once), ``riffle:3``, ``perfect:2``.

        >>> ShuffleModel.parse("riffle:3")
        ShuffleModel(kind='riffle', times=3)
        """
        kind, _, times = text.strip().partition(":")
        if not times:
            return cls(kind)
        if not (times.isascii() and times.isdigit() and len(times) <= 3):
            raise ValueError(f"{text!r}: the number of shuffles is a whole number, e.g. riffle:3")
        return cls(kind, int(times))

    def __str__(self) -> str:
        return self.kind if self.kind in ("uniform", "none") else f"{self.kind}:{self.times}"

    @property
    def uniform(self) -> bool:
        """Whether the deck owes nothing to the round before."""
        return self.kind == "uniform"

    def shuffle(self, packet: list[int], rng: random.Random) -> list[int]:
        """The packet (read from its top) after this model's shuffle."""
        if self.kind == "none":
            return packet[:]
        if self.kind == "uniform":
            cards = packet[:]
            rng.shuffle(cards)
            return cards
        cards = packet
        for _ in range(self.times):
            cards = _riffle(cards, rng) if self.kind == "riffle" else _faro(cards)
        return cards


UNIFORM: Final = ShuffleModel()


def _riffle(cards: list[int], rng: random.Random) -> list[int]:
    """One Gilbert–Shannon–Reeds riffle: cut at Binomial(n, ½), then drop the
    next card from each half with a chance in proportion to its size."""
    n = len(cards)
    cut = sum(rng.getrandbits(1) for _ in range(n))
    top, bottom = cards[:cut], cards[cut:]
    out: list[int] = []
    i = j = 0
    while i < len(top) or j < len(bottom):
        left_top = len(top) - i
        left_bottom = len(bottom) - j
        if rng.random() * (left_top + left_bottom) < left_top:
            out.append(top[i])
            i += 1
        else:
            out.append(bottom[j])
            j += 1
    return out


def _faro(cards: list[int]) -> list[int]:
    """A perfect out-shuffle: halves interleaved one by one, the top card on top
    (an odd card count leaves the larger half on top)."""
    half = (len(cards) + 1) // 2
    top, bottom = cards[:half], cards[half:]
    out: list[int] = []
    for k, card in enumerate(top):
        out.append(card)
        if k < len(bottom):
            out.append(bottom[k])
    return out


def gathered(finished: Round) -> list[list[int]]:
    """Every seat's cards back with their owner, one packet each, read from its top."""
    snapshot: dict[str, Any] = finished.snapshot()
    packets: list[list[int]] = [[] for _ in range(finished.players)]
    for pile in snapshot["middle"]:  # in the order the piles were opened
        for card in pile["cards"]:  # from the 1 upward (R5: sorted by the backs)
            packets[card["owner"]].append(_code(card["card"]))
    for seat, laid in enumerate(snapshot["seats"]):
        packet = packets[seat]
        packet += [_code(c) for c in reversed(laid["stack"])]
        for cell in laid["row"]:
            packet += [_code(c) for c in reversed(cell)]
        packet += [_code(c) for c in reversed(laid["discard"])]
        packet += [_code(c) for c in reversed(laid["hand"])]
    return packets


def _code(text: str) -> int:
    return Card.parse(text).code


def dealt(packet: Sequence[int], row: int) -> list[int]:
    """A packet (read from its top) in the order ``Round.deal(decks=…)`` lays
    a deck out: the first card becomes the stack's top, the next ``row``
    the row, the rest the hand with its top card turned first."""
    stack = list(packet[:STACK_SIZE])
    stack.reverse()
    hand = list(packet[STACK_SIZE + row :])
    hand.reverse()
    return stack + list(packet[STACK_SIZE : STACK_SIZE + row]) + hand


def fresh_decks(players: int, sets: int, row: int, rng: random.Random) -> list[list[int]]:
    """Every seat's ``sets`` × 40 cards shuffled uniformly, as ``Round.deal`` takes them."""
    decks = []
    for _ in range(players):
        cards = list(range(DECK_SIZE)) * sets
        rng.shuffle(cards)
        decks.append(dealt(cards, row))
    return decks


def next_decks(
    finished: Round, models: Sequence[ShuffleModel], rng: random.Random
) -> list[list[int]]:
    """The decks of the next round: every seat's cards gathered from
    ``finished`` and shuffled by that seat's model."""
    row = finished.row_size
    return [
        dealt(model.shuffle(packet, rng), row)
        for packet, model in zip(gathered(finished), models, strict=True)
    ]


def round_decks(
    players: int,
    seed: int,
    *,
    sets: int = 1,
    models: Sequence[ShuffleModel] = (),
    previous: Round | None = None,
) -> list[list[int]] | None:
    """The decks a round with ``seed`` is dealt from, or ``None`` when it deals
    from its seed as every round did before (one set, every seat uniform or
    no round before it).

    After ``previous``, a seat whose model is not uniform gets its own cards
    of that round back, shuffled by its model; a uniform seat's cards are
    shuffled uniformly. With ``sets`` sets a seat's cards are that many
    decks of 40.
    """
    rng = random.Random(derive_seed(seed, _DECKS))
    if previous is not None and any(not model.uniform for model in models):
        return next_decks(previous, models, rng)
    if sets == 1:
        return None
    return fresh_decks(players, sets, row_size(players), rng)
