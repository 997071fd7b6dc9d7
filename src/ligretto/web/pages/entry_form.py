"""Reading the entry forms: counts and Stop boxes as typed, a refused entry as left (T2, T3).

A form's fields are ``stack-{seat}``, ``middle-{seat}``, ``stop`` (the
seats that called Ligretto Stop) and ``version`` (the game version the
form was made for).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from starlette.datastructures import FormData

from ligretto.tafel.limits import STACK_CARDS
from ligretto.web.forms import whole_number
from ligretto.web.text import N_, gettext


@dataclass(slots=True)
class Entry:
    """A refused entry as the user left it: values by field name and the messages."""

    values: dict[str, str] = field(default_factory=dict)
    invalid: set[str] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)
    implausible: list[str] = field(default_factory=list)
    end_errors: list[str] = field(default_factory=list)


def form_version(data: FormData) -> int | None:
    """The game version the form was made for, or None when it is missing or not a number."""
    return whole_number(str(data.get("version") or ""), 9)


def read_counts(
    language: str,
    data: FormData,
    entry: Entry,
    players: Sequence[str],
    prefix: str,
    limits: Sequence[int],
    *,
    stops: set[int] | None = None,
    optional: bool = False,
) -> list[int] | None:
    """Read ``{prefix}-{seat}`` fields as whole numbers; messages go into *entry*.

    A seat in *stops* called Ligretto Stop: its stack is 0 whatever was
    typed (T2). With *optional*, all fields empty means "not given".
    """
    stops = stops or set()
    raw = [str(data.get(f"{prefix}-{seat}") or "").strip()[:6] for seat in range(len(players))]
    for seat, text in enumerate(raw):
        entry.values[f"{prefix}-{seat}"] = "0" if seat in stops else text
        if seat in stops:
            entry.values[f"stop-{seat}"] = "1"
    if optional and not any(raw):
        return None
    counts: list[int] = []
    for seat, name in enumerate(players):
        if seat in stops:
            counts.append(0)
            continue
        text = raw[seat]
        field_name = f"{prefix}-{seat}"
        if not text:
            entry.invalid.add(field_name)
            entry.errors.append(
                gettext(
                    language,
                    N_("%(name)s: enter the cards left in the Ligretto stack (0 to %(max)s).")
                    if prefix == "stack"
                    else N_("%(name)s: enter the cards in the middle (0 to %(max)s)."),
                    name=name,
                    max=limits[seat],
                )
            )
        elif (count := whole_number(text)) is None:
            entry.invalid.add(field_name)
            if _negative_whole(text):
                # "-1" is a whole number, only out of range: say the range (T2, T3).
                message = (
                    N_("%(name)s: a Ligretto stack holds 0 to %(max)s cards.")
                    if prefix == "stack"
                    else N_("%(name)s: the middle can hold 0 to %(max)s of their cards.")
                )
                entry.errors.append(gettext(language, message, name=name, max=limits[seat]))
            else:
                entry.errors.append(
                    gettext(language, N_("%(name)s: enter a whole number."), name=name)
                )
        else:
            counts.append(count)
    return None if entry.errors else counts


def _negative_whole(text: str) -> bool:
    """Whether *text* is a whole number with a minus sign (ASCII or U+2212)."""
    return text[:1] in ("-", "\u2212") and whole_number(text[1:].strip()) is not None


def stop_seats(data: FormData, players: Sequence[str]) -> set[int]:
    """The seats whose Stop box is ticked: they called Ligretto Stop (T2)."""
    seats = set()
    for value in data.getlist("stop"):
        seat = whole_number(str(value), 3)
        if seat is not None and seat < len(players):
            seats.add(seat)
    return seats


def read_stacks(
    language: str, data: FormData, entry: Entry, players: Sequence[str]
) -> list[int] | None:
    """The stack counts of a round as typed (T2), each 0 to STACK_CARDS, with
    the Stop boxes: the caller's stack is 0. None when any is refused (*entry* says why)."""
    return read_counts(
        language,
        data,
        entry,
        players,
        "stack",
        [STACK_CARDS] * len(players),
        stops=stop_seats(data, players),
    )
