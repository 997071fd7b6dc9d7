"""What of an applied move may be told to everybody at the table.

R3 keeps hand order and the cards under a stack or discard top private.
The engine's events name only cards that the move put face up (a played
card, a refill from the stack, the new discard top after turning) or counts,
so their text can be broadcast as it is.  This module is the one place that
says so: an event type it does not know is not broadcast at all, so a new
event that ever carried a hidden card could not leak by accident.
"""

from __future__ import annotations

from collections.abc import Iterable

from ligretto.rules import events as ev

# Events whose every field is visible to a person standing at the table.
PUBLIC_EVENTS: tuple[type[ev.Event], ...] = (
    ev.CardPlayed,  # the card is in the middle now
    ev.PileOpened,
    ev.PileClosed,
    ev.RowRefilled,  # the former stack top, open in the row now
    ev.CardStored,  # R6: the card lies open on the row
    ev.CardsTurned,  # only the new discard top and how many were turned
    ev.Recycled,  # only how many cards went back to the hand
    ev.LigrettoStop,
    ev.Deadlock,
    ev.Reshuffled,
    ev.RoundEnded,
)


def public_events(events: Iterable[ev.Event]) -> list[str]:
    """The text of every event that may be broadcast, in order."""
    return [str(e) for e in events if isinstance(e, PUBLIC_EVENTS)]
