"""A seat's row of the lab's form: strategy, level, speed, overlooking and shuffle.

Read leniently from a link (``GET /lab``: what is not offered becomes the
default, so an old or hand-made link still opens the form) and strictly
from a post (``POST /lab``: a strategy, level or shuffle the form does not
offer, or a number out of its range, is refused with the seat's name,
never run as another).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from ligretto.bots import Level, strategy_names
from ligretto.bots.timing import MAX_SPEED
from ligretto.web.forms import choice, whole_field
from ligretto.web.lab.seats import seat_name

__all__ = [
    "LEVELS",
    "MAX_FORM_SPEED",
    "MIN_FORM_SPEED",
    "SHUFFLES",
    "LabFormError",
    "SeatForm",
    "linked_seats",
    "posted_seats",
]

LEVELS: Final = tuple(level.value for level in Level)
SHUFFLES: Final = ("uniform", "riffle:1", "riffle:2", "riffle:3", "riffle:7", "perfect:1", "none")
"""The shuffles between rounds the form offers (``ligretto.sim.decks``)."""
MIN_FORM_SPEED: Final = 0.25
MAX_FORM_SPEED: Final = 4.0
"""The speed factors the form takes (the command takes up to ``MAX_SPEED``)."""
assert MAX_FORM_SPEED <= MAX_SPEED


class LabFormError(ValueError):
    """What was typed cannot be a study: ``code`` names the field's problem,
    ``params`` what the message shows (a seat's name, the value sent)."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params
        self.form: object = None
        """The form as far as it was read (``read_form`` sets it)."""


@dataclass(slots=True)
class SeatForm:
    """One seat as the form shows it: ``overlook`` in whole percent."""

    strategy: str = "stack-first"
    level: str = "medium"
    speed: float = 1.0
    overlook: int = 0
    shuffle: str = "uniform"

    @property
    def bot(self) -> str:
        return f"{self.strategy}:{self.level}"

    @property
    def speed_text(self) -> str:
        """The speed as the form's field shows it: ``1.5``, ``1``."""
        return f"{self.speed:g}"


def _speed(text: str) -> float | None:
    """A speed factor typed as ``1.5`` or ``1,5``, else None."""
    cleaned = text.strip().replace(",", ".")
    whole, _, fraction = cleaned.partition(".")
    if not (0 < len(whole) <= 2 and len(fraction) <= 3 and (whole + fraction).isdigit()):
        return None
    if not cleaned.isascii():
        return None
    return float(cleaned)


def linked_seats(data: Mapping[str, str], players: int) -> list[SeatForm]:
    """The seats as a link asks for them: what is not offered becomes the default."""
    names = tuple(strategy_names())
    seats = []
    for i in range(players):
        speed = _speed(data.get(f"speed{i}", ""))
        overlook = whole_field(data.get(f"overlook{i}", ""), 3)
        seats.append(
            SeatForm(
                choice(data.get(f"strategy{i}", ""), names, "stack-first"),
                choice(data.get(f"level{i}", ""), LEVELS, "medium"),
                speed if speed is not None and MIN_FORM_SPEED <= speed <= MAX_FORM_SPEED else 1.0,
                overlook if overlook is not None and overlook <= 100 else 0,
                choice(data.get(f"shuffle{i}", ""), SHUFFLES, "uniform"),
            )
        )
    return seats


def posted_seats(data: Mapping[str, str], players: int) -> list[SeatForm]:
    """The seats as posted; a value the form does not offer is refused with the seat's name.

    A field left out (a form of an older page) is the default.
    """
    names = tuple(strategy_names())
    seats = []
    for i in range(players):
        name = seat_name(i)
        strategy = data.get(f"strategy{i}", "")
        level = data.get(f"level{i}", "")
        if strategy not in names:
            raise LabFormError("strategy", name=name, value=strategy[:40])
        if level not in LEVELS:
            raise LabFormError("level", name=name, value=level[:40])
        seat = SeatForm(strategy, level)
        if f"speed{i}" in data:
            speed = _speed(data[f"speed{i}"])
            if speed is None or not MIN_FORM_SPEED <= speed <= MAX_FORM_SPEED:
                raise LabFormError("speed", name=name, value=data[f"speed{i}"][:40])
            seat.speed = speed
        if f"overlook{i}" in data:
            overlook = whole_field(data[f"overlook{i}"], 3)
            if overlook is None or overlook > 100:
                raise LabFormError("overlook", name=name, value=data[f"overlook{i}"][:40])
            seat.overlook = overlook
        if f"shuffle{i}" in data:
            shuffle = data[f"shuffle{i}"]
            if shuffle not in SHUFFLES:
                raise LabFormError("shuffle", name=name, value=shuffle[:40])
            seat.shuffle = shuffle
        seats.append(seat)
    return seats
