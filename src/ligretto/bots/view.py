"""What a strategy reads: the table as its seat sees it.

:class:`BotView` is the part of :class:`~ligretto.rules.view.TableView` a
strategy may use. ``round.view(seat)`` is one; the simulator passes a lazy
equivalent that builds the other seats and the middle only when a strategy
asks for them (a full view per decision would dominate the simulation's
time). Both hold only what the person at the seat sees (R3), never the
round itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ligretto.rules.actions import Action, Play, Source
from ligretto.rules.options import RuleOptions
from ligretto.rules.view import PileView, SeatView

__all__ = ["BotView"]


class BotView(Protocol):
    """The seat's view: its legal actions, the middle, every seat's open cards."""

    @property
    def viewer(self) -> int | None: ...

    @property
    def options(self) -> RuleOptions: ...

    @property
    def actions(self) -> Sequence[Action]: ...

    @property
    def plays(self) -> Sequence[Play]: ...

    @property
    def middle(self) -> Sequence[PileView]: ...

    @property
    def seats(self) -> Sequence[SeatView]: ...

    def first_play(self, order: tuple[Source, ...]) -> Play | None:
        """The first play from the first source in ``order`` that has one
        (within a source, in the order of ``actions``), or ``None``."""
        ...

    def turn_or_recycle(self) -> Action | None:
        """``turn`` or ``recycle`` if either is among ``actions`` (R3), else ``None``."""
        ...

    def open_codes(self, seat: int) -> Sequence[int]:
        """Codes of ``seat``'s open cards: stack top, discard top, then each
        row position's top; ``-1`` where there is none."""
        ...

    def rival_codes(self) -> set[int]:
        """Codes of the open cards of every seat but the viewer's (R3)."""
        ...

    def open_pile_tops(self) -> set[int]:
        """Codes of the tops of the middle piles no 10 has closed (R3)."""
        ...
