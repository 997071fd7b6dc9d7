"""ligretto.rules — the pure rules engine of one Ligretto round (docs/rules.md R1–R6).

No I/O, no asyncio, no global random state. Start with :meth:`Round.deal`,
ask :meth:`Round.legal_actions`, change the round with :meth:`Round.apply`
and read it with :meth:`Round.view` (what a person sees),
:meth:`Round.snapshot` (everything) and :meth:`Round.result` (R5 scoring).
See docs/rules-engine.md.
"""

from ligretto.rules.actions import (
    RECYCLE,
    STUCK,
    TURN,
    Action,
    Play,
    Recycle,
    Refill,
    Source,
    Store,
    Stuck,
    Turn,
)
from ligretto.rules.cards import CARDS, DECK_SIZE, Card, Colour, DeckKind, deck_colours
from ligretto.rules.deadlock import cycle_tops
from ligretto.rules.errors import (
    IllegalActionError,
    MalformedActionError,
    PileTakenError,
    RoundOverError,
    RuleError,
)
from ligretto.rules.events import (
    CardPlayed,
    CardStored,
    CardsTurned,
    Deadlock,
    Event,
    LigrettoStop,
    PileClosed,
    PileOpened,
    Recycled,
    Reshuffled,
    RoundEnded,
    RowRefilled,
)
from ligretto.rules.layout import STACK_SIZE, row_size
from ligretto.rules.options import RuleOptions
from ligretto.rules.result import RoundResult, SeatResult, Termination, points
from ligretto.rules.round import RESHUFFLE_ATTEMPTS, Round
from ligretto.rules.snapshot import SNAPSHOT_FORMAT
from ligretto.rules.view import PileView, RowPositionView, SeatView, TableView

__all__ = [
    "CARDS",
    "DECK_SIZE",
    "RECYCLE",
    "RESHUFFLE_ATTEMPTS",
    "SNAPSHOT_FORMAT",
    "STACK_SIZE",
    "STUCK",
    "TURN",
    "Action",
    "Card",
    "CardPlayed",
    "CardStored",
    "CardsTurned",
    "Colour",
    "Deadlock",
    "DeckKind",
    "Event",
    "IllegalActionError",
    "LigrettoStop",
    "MalformedActionError",
    "PileClosed",
    "PileOpened",
    "PileTakenError",
    "PileView",
    "Play",
    "Recycle",
    "Recycled",
    "Refill",
    "Reshuffled",
    "Round",
    "RoundEnded",
    "RoundOverError",
    "RoundResult",
    "RowPositionView",
    "RowRefilled",
    "RuleError",
    "RuleOptions",
    "SeatResult",
    "SeatView",
    "Source",
    "Store",
    "Stuck",
    "TableView",
    "Termination",
    "Turn",
    "cycle_tops",
    "deck_colours",
    "points",
    "row_size",
]
