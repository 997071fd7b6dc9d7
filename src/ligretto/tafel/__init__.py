"""The Tafel: a game on the score board (docs/rules.md, T1–T6), pure and without I/O."""

from ligretto.tafel.errors import (
    Code,
    ImplausibleRoundError,
    InvalidGameError,
    InvalidRoundError,
    NoSuchRoundError,
    RoundOrderError,
    TafelError,
)
from ligretto.tafel.exchange import describe, describe_round, from_description
from ligretto.tafel.game import Deck, Game, Mode, Round, Standing, Status
from ligretto.tafel.limits import (
    DEFAULT_ROUNDS,
    DEFAULT_TARGET,
    MAX_AGREED_ROUNDS,
    MAX_NAME_LENGTH,
    MAX_TARGET,
    TARGET_CHOICES,
    max_players,
)

__all__ = [
    "DEFAULT_ROUNDS",
    "DEFAULT_TARGET",
    "MAX_AGREED_ROUNDS",
    "MAX_NAME_LENGTH",
    "MAX_TARGET",
    "TARGET_CHOICES",
    "Code",
    "Deck",
    "Game",
    "ImplausibleRoundError",
    "InvalidGameError",
    "InvalidRoundError",
    "Mode",
    "NoSuchRoundError",
    "Round",
    "RoundOrderError",
    "Standing",
    "Status",
    "TafelError",
    "describe",
    "describe_round",
    "from_description",
    "max_players",
]
