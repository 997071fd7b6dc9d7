"""What anyone may read of an online table: its code, phase, seats, idle time, tokens' seats.

:class:`TableQueries` is the read-only side of
:class:`~ligretto.live.table.Table`: the web pages, the registry and the
tests read the table through it, and nothing here changes the state.
"""

from __future__ import annotations

from collections.abc import Sequence

from ligretto.live import encoder
from ligretto.live.connection import Connection
from ligretto.live.phase import Phase
from ligretto.live.protocol import TableInfo
from ligretto.live.scoring.keeper import GroupLink
from ligretto.live.scoring.recorder import TafelRecorder
from ligretto.live.seating import Seat
from ligretto.live.settings import TableSettings
from ligretto.live.state import TableState
from ligretto.rules.round import Round


class TableQueries:
    """The table as the world outside its actor reads it."""

    state: TableState
    settings: TableSettings
    recorder: TafelRecorder | None

    @property
    def code(self) -> str:
        return self.state.code

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def round(self) -> Round | None:
        """The round being played (the engine's), if one is dealt."""
        return self.state.round.dealt

    @property
    def round_no(self) -> int:
        return self.state.game.round_no

    @property
    def seq(self) -> int:
        return self.state.seq

    @property
    def group(self) -> GroupLink | None:
        """The group each of the table's games joins (the host picked it)."""
        return self.state.group

    @property
    def tafel_game(self) -> str | None:
        """The id of the Tafel game that keeps the score, once it is open."""
        return self.state.game.tafel_game

    @property
    def tags(self) -> set[str]:
        """Labels the web pages keep with the table ("practice", "autostart")."""
        return self.state.tags

    @tags.setter
    def tags(self, tags: set[str]) -> None:
        self.state.tags = tags

    @property
    def host_token(self) -> str:
        """The host's key, for the process that opened the table to hand to
        the host once; a restored table keeps only its hash (LookupError)."""
        token = self.state.seating.host_token
        if token is None:
            raise LookupError("a restored table keeps only the hash of its host token")
        return token

    @property
    def seats(self) -> Sequence[Seat]:
        """The chairs, read-only outside the actor."""
        return self.state.seating.seats

    @property
    def watchers(self) -> set[Connection]:
        return self.state.seating.watchers

    @property
    def tafel_url(self) -> str | None:
        """Where the table's Tafel game can be watched, once it is open."""
        if self.recorder is None or self.tafel_game is None:
            return None
        return self.recorder.board_url(self.tafel_game)

    def info(self) -> TableInfo:
        return encoder.table_info(self.state, self.tafel_url)

    def has_connections(self) -> bool:
        return self.state.seating.has_connections()

    @property
    def paused(self) -> bool:
        """Nobody is connected: bots and stand-ins make no moves."""
        return not self.state.seating.has_connections()

    def idle_for(self) -> float:
        """Seconds since the last connection left (0 while someone is here)."""
        if self.state.idle_since is None:
            return 0.0
        return self.settings.clock.monotonic() - self.state.idle_since

    def seat_of_token(self, token: str) -> int | None:
        """The seat this token holds, if any (for the seat link)."""
        seat = self.state.seating.by_token(token)
        return seat.index if seat is not None else None
