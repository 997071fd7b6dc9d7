"""All online tables of one server process, by their short invite code."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Sequence

from ligretto.live.scorekeeping import EndCondition, ScoreKeeper
from ligretto.live.seating import BotSpec
from ligretto.live.table import Table, TableSettings
from ligretto.live.tokens import new_token
from ligretto.rules.options import RuleOptions

# No 0/O, 1/I/L: a code is read aloud across a table and typed on a phone.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6

#: The most tables one server process runs at a time.
MAX_TABLES = 2000
#: How often the registry looks for idle tables, at most (seconds).
REAP_EVERY = 60.0


class TableCapError(Exception):
    """The server runs as many tables as it takes; try again later.

    ``retry_after`` is a fair guess in seconds: idle tables are removed
    continually (``TableSettings.idle_after``), so room comes back.
    """

    def __init__(self, max_tables: int, retry_after: int = 60) -> None:
        super().__init__(f"this server runs {max_tables} tables, as many as it takes")
        self.max_tables = max_tables
        self.retry_after = retry_after


class TableRegistry:
    """Creates tables, finds them by code, and stops them at shutdown.

    Each table runs as its own task; the registry only keeps the index.
    A table nobody has been connected to for its ``idle_after``
    (``TableSettings``) is stopped and removed.
    """

    def __init__(
        self,
        *,
        scorekeeper: ScoreKeeper | None = None,
        settings: TableSettings | None = None,
        max_tables: int = MAX_TABLES,
    ) -> None:
        self.scorekeeper = scorekeeper
        self.settings = settings or TableSettings()
        self.max_tables = max_tables
        self._tables: dict[str, Table] = {}
        self._reaper: asyncio.Task[None] | None = None

    def __len__(self) -> int:
        return len(self._tables)

    def get(self, code: str) -> Table | None:
        return self._tables.get(code.upper())

    def create(
        self,
        *,
        seats: int,
        options: RuleOptions,
        end: EndCondition,
        host_name: str | None = None,
        bots: Sequence[BotSpec] = (),
        settings: TableSettings | None = None,
    ) -> Table:
        """A new table in the lobby with its seats filled, its task running.

        With ``host_name`` the host sits in seat 0 (with a seat token of its
        own; the host token also claims it); ``bots`` take their chairs, or
        the first free ones.  Seats are filled before the table's task runs,
        so this cannot race a move; afterwards only the table changes its
        seats.  Raises :class:`TableCapError` when the server is full, and
        ``InvalidNameError`` for a host name that breaks the name rule.
        """
        if len(self._tables) >= self.max_tables:
            raise TableCapError(self.max_tables)
        code = self._new_code()
        table = Table(
            code,
            seats=seats,
            options=options,
            end=end,
            host_token=new_token(),
            host_name=host_name,
            bots=bots,
            scorekeeper=self.scorekeeper,
            settings=settings or self.settings,
        )
        self._tables[code] = table
        table.start_task()
        if self._reaper is None:
            self._reaper = asyncio.get_running_loop().create_task(self._reap())
        return table

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self._tables:
                return code

    async def _reap(self) -> None:
        while True:
            await asyncio.sleep(min(REAP_EVERY, self.settings.idle_after / 2))
            await self.reap()

    async def reap(self) -> list[str]:
        """Stop and remove every table nobody has been connected to for its
        ``idle_after``; return their codes.

        Each table measures its idle time on its own clock (tests move a
        ``ManualClock`` and call this).  The rounds already played stay on
        the table's Tafel game.
        """
        gone = [
            code
            for code, table in self._tables.items()
            if not table.has_connections() and table.idle_for() >= table.settings.idle_after
        ]
        for code in gone:
            table = self._tables.pop(code)
            await table.stop()
        return gone

    async def stop(self) -> None:
        """Stop every table (server shutdown)."""
        if self._reaper is not None:
            self._reaper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reaper
            self._reaper = None
        tables, self._tables = list(self._tables.values()), {}
        for table in tables:
            await table.stop()
