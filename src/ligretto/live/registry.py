"""All online tables of one server process, by their short invite code."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Sequence

from ligretto.live.scorekeeping import EndCondition, ScoreKeeper
from ligretto.live.seating import BotSpec
from ligretto.live.table import Table, TableSettings
from ligretto.rules.options import RuleOptions

# No 0/O, 1/I/L: a code is read aloud across a table and typed on a phone.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


class TableRegistry:
    """Creates tables, finds them by code, and stops them at shutdown.

    Each table runs as its own task; the registry only keeps the index.
    Tables nobody has touched for ``idle_after`` seconds are stopped.
    """

    def __init__(
        self,
        *,
        scorekeeper: ScoreKeeper | None = None,
        settings: TableSettings | None = None,
        idle_after: float = 2 * 3600.0,
        max_tables: int = 2000,
    ) -> None:
        self.scorekeeper = scorekeeper
        self.settings = settings or TableSettings()
        self.idle_after = idle_after
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

        With ``host_name`` the host sits in seat 0 (their seat token is the
        host token); ``bots`` take their chairs, or the first free ones.
        Seats are filled before the table's task runs, so this cannot race
        a move; afterwards only the table changes its seats.
        """
        if len(self._tables) >= self.max_tables:
            raise RuntimeError("too many tables on this server")
        code = self._new_code()
        table = Table(
            code,
            seats=seats,
            options=options,
            end=end,
            host_token=secrets.token_urlsafe(18),
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
            await asyncio.sleep(min(60.0, self.idle_after / 2))
            cutoff = time.monotonic() - self.idle_after
            for code, table in list(self._tables.items()):
                if table.last_activity < cutoff and not table.has_connections():
                    del self._tables[code]
                    await table.stop()

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
