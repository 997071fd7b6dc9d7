"""The lobby's listings across processes: each process lists its own public
tables; a listing its process stops renewing (it died) leaves the lobby once
its lease has run out (docs/online-play.md, "The lobby")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, delete

from ligretto.store.lobby import Listing, LobbyStore
from ligretto.store.models import LobbyListingRow


class Clock:
    """A process's clock, run ahead by the test instead of sleeping."""

    def __init__(self) -> None:
        self.ahead = timedelta(0)

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.ahead


def listing(code: str, free: int = 1) -> Listing:
    return Listing(
        code=code,
        language="de",
        seats=4,
        free_seats=free,
        players=("Anna",),
        bots=2,
        deck="ligretto",
        row_storage=False,
        end_mode="target",
        target=99,
        rounds=8,
    )


def codes(store: LobbyStore) -> list[str]:
    return [entry.listing.code for entry in store.listed()]


def test_every_process_sees_every_process_s_listings(engine: Engine) -> None:
    with engine.begin() as conn:
        conn.execute(delete(LobbyListingRow))
    one = LobbyStore(engine, "p1", lease=30.0)
    two = LobbyStore(engine, "p2", lease=30.0)
    one.publish([listing("AAAAAA")])
    two.publish([listing("BBBBBB")])
    assert codes(one) == codes(two) == ["AAAAAA", "BBBBBB"]
    # A process withdraws only its own listings.
    one.withdraw(["AAAAAA", "BBBBBB"])
    assert codes(two) == ["BBBBBB"]
    two.withdraw(["BBBBBB"])
    assert codes(one) == []


def test_a_renewed_listing_keeps_its_waiting_time(engine: Engine) -> None:
    with engine.begin() as conn:
        conn.execute(delete(LobbyListingRow))
    clock = Clock()
    store = LobbyStore(engine, "p1", lease=30.0, clock=clock)
    store.publish([listing("CCCCCC")])
    clock.ahead = timedelta(seconds=20)
    store.publish([listing("CCCCCC", free=2)])
    (entry,) = store.listed()
    assert entry.listing.free_seats == 2
    assert (store.now() - entry.opened_at).total_seconds() >= 20


def test_a_dead_process_s_listings_leave_once_their_lease_ran_out(engine: Engine) -> None:
    with engine.begin() as conn:
        conn.execute(delete(LobbyListingRow))
    clock = Clock()
    dead = LobbyStore(engine, "p1", lease=15.0)
    alive = LobbyStore(engine, "p2", lease=15.0, clock=clock)
    dead.publish([listing("DDDDDD")])
    assert codes(alive) == ["DDDDDD"]
    clock.ahead = timedelta(seconds=16)  # p1 never renewed
    assert codes(alive) == []
    assert alive.sweep() == 1
    assert codes(dead) == []
