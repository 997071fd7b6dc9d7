"""The app's table registry: started and stopped in the lifespan, found by
every route of online play (and by the API's ``/api/tables``)."""

from __future__ import annotations

from fastapi import FastAPI, HTTPException
from fastapi.responses import RedirectResponse

from ligretto.collector import CollectorSchedule
from ligretto.live.lobby import LobbyKeeper
from ligretto.live.registry import TableRegistry, TableUnreachableError
from ligretto.live.scoring.keeper import ScoreKeeper
from ligretto.live.settings import TableSettings
from ligretto.live.table import Table
from ligretto.store.live_tables import LiveTableStore, TableElsewhereError
from ligretto.store.lobby import LobbyStore
from ligretto.store.round_replays import Retention
from ligretto.web.errors import ApiError
from ligretto.web.play.lobby_feed import LobbyFeed
from ligretto.web.routing_headers import opened_table


def start_tables(
    app: FastAPI,
    *,
    scorekeeper: ScoreKeeper | None = None,
    settings: TableSettings | None = None,
    store: LiveTableStore | None = None,
    replays: Retention = "game",
    replay_max_days: float = 0.0,
    collector: CollectorSchedule | None = None,
    lobby: LobbyStore | None = None,
) -> TableRegistry:
    """Give the app its table registry (in the lifespan, before serving);
    with a ``store`` the tables are kept in the database (call
    ``registry.restore()`` to bring back those that were open, then
    ``app.state.collector.settle()``).  The public tables are listed in
    ``lobby`` for every process, else in this process only.

    Timing comes from ``settings``, else from ``app.state.table_settings``
    (tests set faster bots there), else the defaults.
    """
    settings = settings or getattr(app.state, "table_settings", None)
    registry = TableRegistry(
        scorekeeper=scorekeeper,
        settings=settings,
        store=store,
        replays=replays,
        replay_max_days=replay_max_days,
    )
    # Real-time play: the collector's pauses stop every table (collector.py).
    schedule = collector or CollectorSchedule()
    schedule.start()
    app.state.collector = schedule
    app.state.tables = registry
    keeper = LobbyKeeper(registry, lobby)
    keeper.start()
    app.state.lobby = keeper
    return registry


async def stop_tables(app: FastAPI) -> None:
    """Stop every table task (in the lifespan, at shutdown)."""
    feed: LobbyFeed | None = getattr(app.state, "lobby_feed", None)
    if feed is not None:
        await feed.close()  # every lobby stream ends
    keeper: LobbyKeeper | None = getattr(app.state, "lobby", None)
    if keeper is not None:
        await keeper.stop()  # this process's tables leave the lobby
    registry: TableRegistry | None = getattr(app.state, "tables", None)
    if registry is not None:
        await registry.stop()
    schedule: CollectorSchedule | None = getattr(app.state, "collector", None)
    if schedule is not None:
        await schedule.stop()


#: Seconds after which a request for a table another process serves is
#: worth repeating (its lease is renewed every few seconds and runs out
#: after ``LEASE_SECONDS`` when that process died).
ELSEWHERE_RETRY = 5


def registry_of(app: object) -> TableRegistry:
    registry: TableRegistry | None = getattr(getattr(app, "state", None), "tables", None)
    if registry is None:  # pragma: no cover - a wiring error, not user input
        raise HTTPException(503, "online play is not running")
    return registry


def lobby_of(app: object) -> LobbyKeeper:
    keeper: LobbyKeeper | None = getattr(getattr(app, "state", None), "lobby", None)
    if keeper is None:  # pragma: no cover - a wiring error, not user input
        raise HTTPException(503, "online play is not running")
    return keeper


async def find_table(app: object, code: str) -> Table:
    """The table with this ``code``, or the answer that explains why not:
    404 ``no_such_table``, or 503 with ``Retry-After``: ``table_elsewhere``
    while another process holds the table's lease, ``database_unavailable``
    while the database cannot be asked."""
    try:
        table = await registry_of(app).find(code)
    except (TableElsewhereError, TableUnreachableError) as exc:
        why = (
            "another server process serves this table"
            if isinstance(exc, TableElsewhereError)
            else "the server cannot reach its database just now"
        )
        raise ApiError(
            503,
            exc.code,
            f"{why}; try again shortly",
            headers={"Retry-After": str(ELSEWHERE_RETRY)},
        ) from None
    if table is None:
        raise ApiError(404, "no_such_table", "there is no table with this code")
    return table


def to_table(table: Table) -> RedirectResponse:
    """The answer to a form that opened ``table``: its page, as its host.

    The host's token travels in the fragment, so it never reaches a server
    log; the header tells the proxy which process serves the table."""
    return RedirectResponse(
        f"/play/{table.code}#t={table.host_token}",
        status_code=303,
        headers=opened_table(table.code),
    )
