"""All online tables of one server process, by their short invite code."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import replace

from ligretto.live.journal import Journal
from ligretto.live.persistence import RestoreError, restore_state
from ligretto.live.phase import Phase
from ligretto.live.scoring.keeper import EndCondition, GroupLink, ScoreKeeper
from ligretto.live.seating import BotSpec
from ligretto.live.settings import TableSettings
from ligretto.live.table import Table
from ligretto.rules.options import RuleOptions
from ligretto.store.live_tables import LiveTableStore, StoredTable, TableElsewhereError
from ligretto.store.round_replays import Retention, RoundReplays
from ligretto.store.tokens import TABLE_TOKEN_BYTES, new_token

log = logging.getLogger(__name__)

# No 0/O, 1/I/L: a code is read aloud across a table and typed on a phone.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: What a person may type for a character no code holds: the alphabet's
#: letter it was most likely read from.  A round O or 0 is a Q whose tail
#: was missed; a bare stroke (I, L, 1) is the J, the alphabet's only
#: letter drawn as one.
CODE_LOOKALIKES = str.maketrans({"O": "Q", "0": "Q", "I": "J", "L": "J", "1": "J"})


def typed_code(text: str) -> str | None:
    """The table code a person meant by *text*, or ``None`` if it cannot be one.

    Forgiving of what typing a code on a phone brings: lower case, spaces
    and dashes, full-width characters, look-alikes (``CODE_LOOKALIKES``).
    Whether such a table exists is the registry's question (``find``).
    """
    folded = unicodedata.normalize("NFKC", text[:64]).upper()
    code = "".join(ch for ch in folded if ch.isalnum()).translate(CODE_LOOKALIKES)
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


#: The most tables one server process runs at a time.
MAX_TABLES = 3000
#: How often the registry looks for idle tables, at most (seconds).
REAP_EVERY = 60.0

#: Why a table was closed (stored with it; the page says it in words).
CLOSED_IDLE = "idle"
CLOSED_GAME_OVER = "game_over"


class TableUnreachableError(Exception):
    """The database could not be asked whether the table exists (it is away
    for a moment): try again shortly. Never "no such table", which would
    make a page stop reconnecting to a table that is there."""

    code = "database_unavailable"


class TableCapError(Exception):
    """The server runs as many tables as it takes; try again later.

    ``retry_after`` is a fair guess in seconds: idle tables are removed
    continually (``TableSettings.idle_after``), so room comes back.
    """

    code = "too_many_tables"

    def __init__(self, max_tables: int, retry_after: int = 60) -> None:
        super().__init__(f"this server runs {max_tables} tables, as many as it takes")
        self.max_tables = max_tables
        self.retry_after = retry_after


def restore_table(
    stored: StoredTable,
    *,
    scorekeeper: ScoreKeeper | None,
    settings: TableSettings,
    journal: Journal | None,
) -> Table:
    """The table as it was stored, resumed but not yet running.

    A round that was being played resumes after a visible countdown once
    someone is back (``resume`` in the countdown message); a round that
    ended but was not yet on the Tafel game is recorded now; a lobby is a
    lobby again.  Raises :class:`RestoreError` when the stored data cannot
    be trusted.
    """
    state = restore_state(stored, bot_pace=settings.bot_pace)
    # The table's own bot pace (a practice table's slower bots stay slow).
    settings = replace(settings, bot_pace=state.bot_pace)
    table = Table.from_state(state, settings=settings, scorekeeper=scorekeeper, journal=journal)
    table.resume()
    return table


class TableRegistry:
    """Creates tables, finds them by code, and stops them at shutdown.

    Each table runs as its own task; the registry only keeps the index.
    A table nobody has been connected to for its ``idle_after``
    (``TableSettings``), or whose game is over and nobody has been
    connected to for its ``closed_after_game``, is stopped, removed and
    marked closed.

    With a ``store`` the tables outlive the process: what they do is
    written in batches by a :class:`~ligretto.live.journal.Journal`, a
    stop (:meth:`stop`) writes everything, and :meth:`restore` brings the
    open tables back on start (docs/online-play.md).
    """

    def __init__(
        self,
        *,
        scorekeeper: ScoreKeeper | None = None,
        settings: TableSettings | None = None,
        max_tables: int = MAX_TABLES,
        store: LiveTableStore | None = None,
        replays: Retention = "game",
        replay_max_days: float = 0.0,
    ) -> None:
        self.scorekeeper = scorekeeper
        self.settings = settings or TableSettings()
        self.max_tables = max_tables
        self.store = store
        self.journal = Journal(store, keep_rounds=replays != "off") if store is not None else None
        # How long finished rounds are kept (docs/online-play.md, "Replays").
        self._kept = RoundReplays(store.engine) if store is not None else None
        # ``None`` with LIGRETTO_REPLAYS=off: no round is served or linked.
        self.replays = self._kept if replays != "off" else None
        self.retention: Retention = replays
        self.replay_max_days = replay_max_days
        self._tables: dict[str, Table] = {}
        # Tables closed by this process, and why (the page says so).
        self._closed: dict[str, str] = {}
        self._reaper: asyncio.Task[None] | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        # Codes being taken from the database right now (one take per code).
        self._taking: dict[str, asyncio.Future[Table | None]] = {}

    def __len__(self) -> int:
        return len(self._tables)

    def open_tables(self) -> list[Table]:
        """The tables this process runs now (a copy: the registry may change meanwhile)."""
        return list(self._tables.values())

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
        group: GroupLink | None = None,
    ) -> Table:
        """A new table in the lobby with its seats filled, its task running.

        With ``host_name`` the host sits in seat 0 (with a seat token of its
        own; the host token also claims it); ``bots`` take their chairs, or
        the first free ones.  Seats are filled before the table's task runs,
        so this cannot race a move; afterwards only the table changes its
        seats.  Raises :class:`TableCapError` when the server is full, and
        ``InvalidNameError`` for a host name that breaks the name rule.
        With ``group`` (checked by the caller) each game of the table joins
        that group.
        """
        if len(self._tables) >= self.max_tables:
            raise TableCapError(self.max_tables)
        code = self._new_code()
        table = Table(
            code,
            seats=seats,
            options=options,
            end=end,
            host_token=new_token(TABLE_TOKEN_BYTES),
            host_name=host_name,
            bots=bots,
            scorekeeper=self.scorekeeper,
            settings=settings or self.settings,
            journal=self.journal,
            group=group,
        )
        self._add(table)
        table.note()
        return table

    def _add(self, table: Table) -> None:
        self._tables[table.code] = table
        table.start_task()
        loop = asyncio.get_running_loop()
        if self._reaper is None:
            self._reaper = loop.create_task(self._reap())
        if self._heartbeat is None and self.store is not None:
            self._heartbeat = loop.create_task(self._renew_leases())

    async def find(self, code: str) -> Table | None:
        """The table ``code``: one this process runs, or — when its lease
        ran out on another process (it died or stopped) or it was never
        claimed — taken from the database and restored here.  ``None``
        when there is no such open table; :class:`TableElsewhereError` while
        another process serves it (try again: its lease runs out if it died),
        :class:`TableUnreachableError` while the database cannot be asked."""
        code = code.upper()
        table = self._tables.get(code)
        if table is not None or self.store is None or len(code) != CODE_LENGTH:
            return table
        if code in self._closed:
            return None
        pending = self._taking.get(code)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._taking[code] = future
        try:
            table = await self._take(code)
            future.set_result(table)
            return table
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._taking[code]

    async def _take(self, code: str) -> Table | None:
        assert self.store is not None and self.journal is not None
        try:
            stored = await asyncio.to_thread(self.store.take, code)
        except TableElsewhereError:
            raise
        except Exception as exc:  # the database is away: ask again shortly
            log.exception("taking table %s from the database failed", code)
            raise TableUnreachableError() from exc
        if stored is None or code in self._tables:
            return self._tables.get(code)
        if len(self._tables) >= self.max_tables:
            raise TableCapError(self.max_tables)
        try:
            table = restore_table(
                stored, scorekeeper=self.scorekeeper, settings=self.settings, journal=self.journal
            )
        except RestoreError as exc:
            log.warning("table %s cannot be restored: %s", code, exc)
            self._closed[code] = exc.reason
            self.journal.closed(code, exc.reason)
            return None
        self._add(table)
        return table

    async def _renew_leases(self) -> None:
        """Keep this process's claim on its tables; stop those it lost, and
        hand back those nobody has been at for a while."""
        assert self.store is not None
        every = self.store.lease / 3
        while True:
            await asyncio.sleep(every)
            with contextlib.suppress(Exception):
                await self.hand_over_idle()
            try:
                lost = await asyncio.to_thread(self.store.renew, list(self._tables))
            except Exception:  # the database is away: try again next time
                log.exception("renewing the tables' leases failed")
                continue
            for code in lost:
                table = self._tables.pop(code, None)
                if table is not None:
                    # Another process serves it now: the pages reconnect
                    # (through the proxy) to that one.
                    log.warning("table %s is served by another process now", code)
                    await table.stop()

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self._tables and code not in self._closed:
                return code

    async def restore(self) -> list[str]:
        """Bring back every table that was open when the server stopped
        (same code, seats, tokens and cards); return their codes.

        A table that cannot be rebuilt is closed with the reason instead
        (its Tafel game keeps its rounds); :meth:`closed_reason` tells it.
        """
        if self.store is None or self.journal is None:
            return []
        restored: list[str] = []
        for stored in await asyncio.to_thread(self.store.open_tables):
            try:
                table = restore_table(
                    stored,
                    scorekeeper=self.scorekeeper,
                    settings=self.settings,
                    journal=self.journal,
                )
            except RestoreError as exc:
                log.warning("table %s cannot be restored: %s", stored.code, exc)
                self._closed[stored.code] = exc.reason
                self.journal.closed(stored.code, exc.reason)
                continue
            self._add(table)
            restored.append(table.code)
        return restored

    async def hand_over_idle(self) -> list[str]:
        """Stop the tables nobody has been connected to for their
        ``handover_after`` and release their leases (they stay open in the
        database): the process the proxy sends their people to next takes
        them over — this one again, or another after a restart moved them."""
        if self.store is None or self.journal is None:
            return []
        idle = [
            code
            for code, table in self._tables.items()
            if not table.has_connections() and table.idle_for() >= table.settings.handover_after
        ]
        for code in idle:
            await self._tables.pop(code).stop()
        if idle:
            await self.journal.flush()  # their last state first, then the release
            await asyncio.to_thread(self.store.release, idle)
        return idle

    async def closed_reason(self, code: str) -> str | None:
        """Why the table ``code`` was closed (``""``: no reason kept), or
        ``None`` when no table with this code was closed."""
        code = code.upper()
        if code in self._closed:
            return self._closed[code]
        if self.store is None or len(code) > 16:
            return None
        try:
            return await asyncio.to_thread(self.store.closed_reason, code)
        except Exception:  # the database is away: say only that there is no table
            return None

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
        gone = {
            code: (CLOSED_GAME_OVER if table.state.phase == Phase.GAME_OVER else CLOSED_IDLE)
            for code, table in self._tables.items()
            if not table.has_connections()
            and (
                table.idle_for() >= table.settings.idle_after
                or (
                    table.state.phase == Phase.GAME_OVER
                    and table.idle_for() >= table.settings.closed_after_game
                )
            )
        }
        for code, reason in gone.items():
            table = self._tables.pop(code)
            await table.stop()
            self._closed[code] = reason
            if self.journal is not None:
                self.journal.closed(code, reason)
        if self._kept is not None:
            # Rounds past their retention go (their game was deleted, too
            # old; every one with LIGRETTO_REPLAYS=off).
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self._kept.purge, self.retention, self.replay_max_days)
        if self.store is not None:
            # Tables no process has run for the idle time (handed back and
            # never asked for again) are closed in the database too.
            with contextlib.suppress(Exception):
                stale = await asyncio.to_thread(self.store.close_stale, self.settings.idle_after)
                gone.update(dict.fromkeys(stale, CLOSED_IDLE))
        return list(gone)

    async def stop(self) -> None:
        """Stop every table (server shutdown)."""
        for task in (self._reaper, self._heartbeat):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._reaper = self._heartbeat = None
        tables, self._tables = list(self._tables.values()), {}
        for table in tables:
            await table.stop()
        if self.journal is not None:
            # Everything the tables did is written: a stop loses nothing.
            await self.journal.close()
        if self.store is not None and tables:
            # Another process may take them at once; this one takes its
            # own back when it starts again.
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.store.release, [t.code for t in tables])
