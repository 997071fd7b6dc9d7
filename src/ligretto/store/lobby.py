"""The lobby's listings in the database: every process's open public tables.

A public table is listed by the process that serves it, one row per
table (:class:`~ligretto.store.models.LobbyListingRow`), and read by
every process (``GET /api/lobby`` behind any of them).  A write that
changes what the lobby shows announces it (:data:`~ligretto.store.notify.LOBBY`,
PostgreSQL ``NOTIFY`` on commit), so every process's lobby stream hears of
it (``GET /api/lobby/events``).  Like a table's
lease (:mod:`ligretto.store.live_tables`) a listing holds until
``listed_until``; its process renews it every few seconds, so the tables
of a process that died leave the lobby by themselves once it runs out.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite

from ligretto.store import notify
from ligretto.store.database import busy_guard
from ligretto.store.leases import LeasedStore
from ligretto.store.models import LobbyListingRow

#: The most tables the lobby lists at once (the longest waiting first).
MAX_LISTED = 100


@dataclass(frozen=True, slots=True)
class Listing:
    """A public table as the lobby shows it: no token, nothing private."""

    code: str
    language: str
    seats: int
    free_seats: int
    #: The names of the people seated, in seat order.
    players: tuple[str, ...]
    bots: int
    deck: str
    row_storage: bool
    #: How the game ends (T1): ``"target"`` points or a number of ``"rounds"``.
    end_mode: str
    target: int
    rounds: int
    #: A quick match's table (``POST /api/lobby/match`` sends people there).
    match: bool = False


@dataclass(frozen=True, slots=True)
class Listed:
    """A listing and since when its table has been waiting."""

    listing: Listing
    opened_at: datetime


def _text(listing: Listing) -> str:
    return json.dumps(asdict(listing), separators=(",", ":"))


def _listing(text: str) -> Listing | None:
    try:
        data: Any = json.loads(text)
        return Listing(**{**data, "players": tuple(data["players"])})
    except (ValueError, TypeError, KeyError):  # a row from another version
        return None


class LobbyStore(LeasedStore):
    """The listings of every server process that uses this database."""

    def publish(self, listings: Sequence[Listing], *, announce: bool = True) -> None:
        """List (or list again, renewing the lease) these tables as this
        process's; a table listed before keeps its ``opened_at``.  With
        ``announce`` (a listing changed, not only renewed) every process
        hears of it once this commits."""
        if not listings:
            return
        now = self._now()
        with busy_guard(), self._writer.begin() as conn:
            dialect = conn.dialect.name
            insert = (
                postgresql.insert(LobbyListingRow)
                if dialect == "postgresql"
                else sqlite.insert(LobbyListingRow)
            )
            excluded = insert.excluded
            conn.execute(
                insert.on_conflict_do_update(
                    index_elements=["code"],
                    set_={
                        "owner": excluded.owner,
                        "language": excluded.language,
                        "free_seats": excluded.free_seats,
                        "listing": excluded.listing,
                        "listed_until": excluded.listed_until,
                    },
                ),
                [
                    {
                        "code": item.code,
                        "owner": self.owner,
                        "language": item.language,
                        "free_seats": item.free_seats,
                        "listing": _text(item),
                        "opened_at": now,
                        "listed_until": self._until(now),
                    }
                    for item in listings
                ],
            )
            if announce:
                notify.announce(conn, notify.LOBBY, notify.lobby_version())

    def withdraw(self, codes: Iterable[str]) -> None:
        """These tables leave the lobby (full, started, closed or private);
        only this process's listings are removed."""
        wanted = list(set(codes))
        if not wanted:
            return
        with busy_guard(), self._writer.begin() as conn:
            conn.execute(
                delete(LobbyListingRow).where(
                    LobbyListingRow.code.in_(wanted), LobbyListingRow.owner == self.owner
                )
            )
            notify.announce(conn, notify.LOBBY, notify.lobby_version())

    def listed(self, limit: int = MAX_LISTED) -> list[Listed]:
        """The tables listed now (their lease holds), the longest waiting first."""
        now = self._now()
        with busy_guard(), self.engine.connect() as conn:
            rows = conn.execute(
                select(LobbyListingRow.listing, LobbyListingRow.opened_at)
                .where(LobbyListingRow.listed_until >= now, LobbyListingRow.free_seats > 0)
                .order_by(LobbyListingRow.opened_at, LobbyListingRow.code)
                .limit(limit)
            ).all()
        found = []
        for text, opened_at in rows:
            listing = _listing(text)
            if listing is not None:
                # SQLite hands back naive times; they were written in UTC.
                opened = opened_at if opened_at.tzinfo else opened_at.replace(tzinfo=UTC)
                found.append(Listed(listing, opened))
        return found

    def sweep(self) -> int:
        """Remove the listings whose lease ran out (their process died);
        return how many went."""
        with busy_guard(), self._writer.begin() as conn:
            result = conn.execute(
                delete(LobbyListingRow).where(LobbyListingRow.listed_until < self._now())
            )
        return int(result.rowcount or 0)

    def now(self) -> datetime:
        """This store's clock (the waiting times are counted on it)."""
        return self._now()
