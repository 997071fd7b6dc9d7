"""Which events may be broadcast to everybody at the table (R3)."""

from __future__ import annotations

import inspect
from dataclasses import dataclass

from ligretto.live.visibility import PUBLIC_EVENTS, public_events
from ligretto.rules import events
from ligretto.rules.cards import Card
from ligretto.rules.events import CardsTurned, Event


def test_every_event_of_the_engine_has_been_judged() -> None:
    # A new event type must be looked at before it can ever be broadcast.
    defined = {
        cls
        for _, cls in inspect.getmembers(events, inspect.isclass)
        if issubclass(cls, Event) and cls is not Event
    }
    assert defined == set(PUBLIC_EVENTS)


def test_an_event_type_nobody_judged_is_not_broadcast() -> None:
    @dataclass(frozen=True, slots=True)
    class HandRevealed(Event):
        seat: int
        hand: tuple[Card, ...]

        def __str__(self) -> str:
            return f"{self.seat} hand {' '.join(map(str, self.hand))}"

    turned = CardsTurned(0, 3, Card.parse("Y7"))
    leaked = HandRevealed(0, (Card.parse("R5"), Card.parse("G2")))
    assert public_events([turned, leaked]) == ["0 turned 3 Y7"]
