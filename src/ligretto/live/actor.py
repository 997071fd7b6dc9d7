"""What the parts of a table (life cycle, scoring, stall guard, seats) need of its actor.

:class:`~ligretto.live.table.Table` is the one implementation; the parts
take it as a :class:`TableActor` so that they import the state and not the
table (no import circle), and so that each one says what it uses.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Literal, Protocol

from ligretto.live.clock import TimerHandle
from ligretto.live.connection import Connection
from ligretto.live.protocol import Move, Reason
from ligretto.live.scoring.recorder import TafelRecorder
from ligretto.live.settings import TableSettings
from ligretto.live.state import TableState

#: The table's timers: "Ligretto!" after the countdown, the next deal after
#: the scores, a stand-in for a person who stayed away, the stall guard (R4).
TimerKind = Literal["go", "next", "away", "stall"]


class StallWatch(Protocol):
    """The stall guard (R4) as the seats see it: started and stopped with presence."""

    @property
    def running(self) -> bool: ...
    def start(self) -> None: ...
    def stop(self) -> None: ...
    def card_played(self) -> None: ...


class TableActor(Protocol):
    """The table's actor: its state and the effects the parts may cause."""

    #: Accepted moves, for the benchmark and the tests.
    moves_applied: int

    @property
    def state(self) -> TableState: ...
    @property
    def settings(self) -> TableSettings: ...
    @property
    def recorder(self) -> TafelRecorder | None: ...
    @property
    def rng(self) -> random.Random: ...
    @property
    def stall(self) -> StallWatch: ...
    @property
    def paused(self) -> bool: ...
    @property
    def tafel_url(self) -> str | None: ...

    def set_timer(
        self, kind: TimerKind, delay: float, *, seat: int = -1, generation: int = 0
    ) -> TimerHandle:
        """Queue a timer of the current round after ``delay`` seconds."""
        ...

    def cancel_timer(self, handle: TimerHandle) -> None: ...

    def call(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` inside the actor, after what is queued already."""
        ...

    def broadcast_table(self) -> None:
        """Tell everybody at the table how it is now (and note it for the journal)."""
        ...

    def note(self) -> None:
        """The table's stored state changed: the journal writes it with its next batch."""
        ...

    def refuse(self, conn: Connection, code: Reason, reason: str, move: Move | None = None) -> None:
        """Answer ``conn`` with a refusal (``move``: the refused move's ref and text)."""
        ...

    def host_only(self, conn: Connection) -> bool:
        """Whether ``conn`` is the host; refuses it (``not_host``) when not."""
        ...

    def plan_bots(self) -> None:
        """Every idle bot plans its next move (unless nobody is connected)."""
        ...

    def logged(self, seat: int | None, text: str) -> int:
        """An action entered the round's log: the journal keeps it, in order;
        returns its play time (ms since "Ligretto!")."""
        ...

    def play_ms(self) -> int:
        """The play time now: ms since "Ligretto!" (the replay's clock)."""
        ...

    def keep_round(self) -> bool:
        """The round finished: its replay goes to the journal (if kept);
        whether it went there (the score screen then links its replay)."""
        ...
