"""The lobby: this process's open public tables, kept listed for every process.

A table is public when its host said so (the tag :data:`PUBLIC`, kept with
the table); it is listed while it waits in its lobby with a free seat.
The :class:`LobbyKeeper` looks at the process's tables every
``every`` seconds and writes what changed (a seat taken, the game
started, the host made it private) to the database's listings
(:mod:`ligretto.store.lobby`), renewing the unchanged ones before their
lease runs out; routes that change a table call :meth:`LobbyKeeper.sync`
so that the lobby hears of it at once.  Without a database (tests, a
server with ``keep_tables`` off and no engine) the listings stay in this
process.  A sync that changed what the lobby shows calls the keeper's
``listeners`` (this process's lobby stream); the store announces it to
the other processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime

from ligretto.live.phase import Phase
from ligretto.live.registry import TableRegistry
from ligretto.live.state import MATCH, PUBLIC
from ligretto.live.table import Table
from ligretto.store.lobby import MAX_LISTED, Listed, Listing, LobbyStore

log = logging.getLogger(__name__)

#: The tag that says which language the table speaks (``lang:de``).
LANGUAGE_TAG = "lang:"
#: How often the keeper looks at the tables (seconds): how long a full or
#: started table may still be listed.
SYNC_EVERY = 1.0


def language_of(table: Table) -> str:
    for tag in table.tags:
        if tag.startswith(LANGUAGE_TAG):
            return tag[len(LANGUAGE_TAG) :]
    return "en"


def make_public(table: Table, public: bool, language: str | None = None) -> None:
    """Open the table to strangers or close it again (kept with the table)."""
    if public:
        table.tags.add(PUBLIC)
    else:
        table.tags.discard(PUBLIC)
    if language is not None:
        table.tags = {t for t in table.tags if not t.startswith(LANGUAGE_TAG)}
        table.tags.add(LANGUAGE_TAG + language)
    table.note()


def listing_of(table: Table) -> Listing | None:
    """The table as the lobby lists it, or ``None`` when it is not listed:
    private, started, closed or full."""
    if PUBLIC not in table.tags or table.phase != Phase.LOBBY:
        return None
    seats = table.seats
    free = sum(1 for s in seats if s.kind == "empty")
    if free == 0:
        return None
    end = table.state.end
    options = table.state.options
    return Listing(
        code=table.code,
        language=language_of(table),
        seats=len(seats),
        free_seats=free,
        players=tuple(s.name or "" for s in seats if s.kind == "human"),
        bots=sum(1 for s in seats if s.kind == "bot"),
        deck=options.deck,
        row_storage=options.row_storage,
        end_mode=end.mode,
        target=end.target,
        rounds=end.rounds,
        match=MATCH in table.tags,
    )


class LobbyKeeper:
    """Keeps this process's public tables listed (see the module docstring)."""

    def __init__(
        self, registry: TableRegistry, store: LobbyStore | None, every: float = SYNC_EVERY
    ) -> None:
        self.registry = registry
        self.store = store
        self.every = every
        # What this process listed last, and since when (without a store).
        self._listed: dict[str, Listing] = {}
        self._since: dict[str, datetime] = {}
        self._renewed_at = 0.0
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        #: Called after a sync that changed what the lobby shows.
        self.listeners: list[Callable[[], None]] = []

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop looking, and take this process's tables off the lobby."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self.store is not None and self._listed:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.store.withdraw, list(self._listed))
        self._listed.clear()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.sync()
            except Exception:  # the database is away: try again next time
                log.exception("keeping the lobby's listings failed")

    async def sync(self) -> None:
        """Write what changed since the last look; renew the rest in time."""
        async with self._lock:
            now = asyncio.get_running_loop().time()
            current = {
                listing.code: listing
                for listing in map(listing_of, self.registry.open_tables())
                if listing is not None
            }
            gone = [code for code in self._listed if code not in current]
            # Renew everything a third of the lease before it runs out.
            renew = self.store is not None and now - self._renewed_at >= self.store.lease / 3
            new = {code for code, listing in current.items() if self._listed.get(code) != listing}
            changed = [listing for code, listing in current.items() if renew or code in new]
            if self.store is not None:
                if gone:
                    await asyncio.to_thread(self.store.withdraw, gone)
                if changed:
                    await asyncio.to_thread(self.store.publish, changed, announce=bool(new))
                if renew:
                    self._renewed_at = now
                    # Listings of processes that died go (any process may).
                    await asyncio.to_thread(self.store.sweep)
            for code in gone:
                self._since.pop(code, None)
            for code in current:
                self._since.setdefault(code, datetime.now(UTC))
            self._listed = current
        if gone or new:
            for listener in self.listeners:
                listener()

    async def listed(self) -> tuple[list[Listed], datetime]:
        """The lobby as every process sees it, and the time its waits count to."""
        if self.store is None:
            listed = sorted(
                (Listed(item, self._since[code]) for code, item in self._listed.items()),
                key=lambda entry: (entry.opened_at, entry.listing.code),
            )
            return listed[:MAX_LISTED], datetime.now(UTC)
        store = self.store
        return await asyncio.to_thread(store.listed), store.now()
