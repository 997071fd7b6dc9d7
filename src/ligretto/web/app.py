"""The web app factory: the Tafel's JSON API, its pages and online play."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from fastapi import FastAPI

from ligretto import __version__
from ligretto.collector import CollectorSchedule
from ligretto.live.scoring.tafel import TafelScoreKeeper
from ligretto.store import ChangeHub, TafelService, make_engine, migrate
from ligretto.store.groups import GroupService
from ligretto.store.idempotency import IdempotencyStore
from ligretto.store.leases import LOCAL
from ligretto.store.live_tables import LiveTableStore
from ligretto.store.lobby import LobbyStore
from ligretto.store.notify import listen_for_changes
from ligretto.store.studies import StudyStore
from ligretto.web.api import description as api_description
from ligretto.web.api.errors import install_error_handlers
from ligretto.web.api.group_errors import install_group_errors
from ligretto.web.api.idempotency import IdempotentWrites
from ligretto.web.api.idempotency import document as document_idempotency
from ligretto.web.api.routes import router as api_router
from ligretto.web.client_share import ClientShare
from ligretto.web.direct_send import DirectSend
from ligretto.web.health import LoopLag
from ligretto.web.health import router as health_router
from ligretto.web.lab import StudyLab
from ligretto.web.lab import router as lab_router
from ligretto.web.lab.round_files import RoundFiles
from ligretto.web.limits import BodyLimits
from ligretto.web.metrics import MetricsPublisher
from ligretto.web.origin_check import OriginCheck
from ligretto.web.pages import ERROR_PAGES
from ligretto.web.pages import install as install_pages
from ligretto.web.play import router as play_router
from ligretto.web.play import start_tables, stop_tables
from ligretto.web.ratelimit import RateLimit
from ligretto.web.request_metrics import RequestMetrics
from ligretto.web.routing_headers import ProcessHeader
from ligretto.web.security_headers import SecurityHeaders
from ligretto.web.settings import Settings


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app: database migrated, service and live-update hub on ``app.state``.

    ``app.state.tafel`` is the :class:`~ligretto.store.TafelService`,
    ``app.state.hub`` the :class:`~ligretto.store.ChangeHub` (the service
    publishes every committed change to it), ``app.state.settings`` the settings.
    On PostgreSQL ``app.state.listener`` is the
    :class:`~ligretto.store.notify.NotifyListener` that feeds the hub with the
    changes other server processes commit (``None`` on SQLite).
    """
    settings = settings or Settings()
    engine = make_engine(
        settings.resolved_database_url(),
        busy_timeout=settings.busy_timeout,
        **settings.engine_options(),
    )
    migrate(engine)  # zero configuration: a new data directory just works
    hub = ChangeHub()
    listener = listen_for_changes(
        engine, hub, application_name=f"ligretto-listener {settings.process_id}"
    )
    service = TafelService(engine, [hub.publish])
    groups = GroupService(engine)
    loop_lag = LoopLag()
    # The strategy lab's queue; its process pool lives as long as the app serves.
    lab = StudyLab(
        StudyStore(engine, owner=settings.process_id),
        settings.lab_limits(),
        RoundFiles(settings.data_dir / "lab-records"),
    )
    # The figures for /metrics, served on their own address if one is set.
    metrics = MetricsPublisher(lab, settings.metrics_address)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        loop_lag.start()  # the watchdog on the event loop (/healthz shows its figures)
        if listener is not None:
            listener.start()  # changes committed by other processes
        # Online play; the tables that were open when the server stopped
        # come back (docs/online-play.md).
        tables = start_tables(
            _app,
            scorekeeper=TafelScoreKeeper(service, groups=groups),  # games join a table's group
            # Each process serves its own tables; its name is its owner mark.
            store=(
                LiveTableStore(
                    engine, owner=settings.process_id or LOCAL, lease=settings.table_lease
                )
                if settings.keep_tables
                else None
            ),
            replays=settings.replays,
            replay_max_days=settings.replay_max_days,
            collector=CollectorSchedule(young=settings.gc_young, full_every=settings.gc_full_every),
            # Public tables are listed for every process (GET /api/lobby).
            lobby=LobbyStore(
                engine, owner=settings.process_id or LOCAL, lease=settings.table_lease
            ),
        )
        await tables.restore()
        await lab.start()
        metrics.start(tables)
        # What start-up and the restored tables left leaves the collector's
        # walks before the first client is served (ligretto/collector.py).
        _app.state.collector.settle()
        try:
            yield
        finally:
            await metrics.stop()
            await lab.stop()
            await stop_tables(_app)
            await loop_lag.stop()
            groups.queries.close()  # large groups' statistics still waiting to be prepared
            if listener is not None:
                await anyio.to_thread.run_sync(listener.stop)
            hub.close()  # ends every live-update stream
            await anyio.to_thread.run_sync(_app.state.boards.close)  # the board process
            engine.dispose()

    app = FastAPI(
        title="Ligretto",
        version=__version__,
        summary="The Tafel (score board) JSON API and the web app around it.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.engine = engine
    app.state.hub = hub
    app.state.listener = listener
    app.state.tafel = service
    app.state.groups = groups
    app.state.loop_lag = loop_lag
    app.state.lab = lab
    app.state.metrics = metrics
    # A missing game or a wrong edit link: JSON under /api/, a page elsewhere.
    install_error_handlers(app, pages=ERROR_PAGES)
    install_group_errors(app, pages={})
    # A write to an edit page that another origin sent is refused (the edit
    # cookie travels to sibling subdomains and ports of the same site).
    app.add_middleware(OriginCheck)
    # A write with an Idempotency-Key runs once; its retries get its answer
    # (inside the size limit, which bounds the body it reads first).
    app.add_middleware(
        IdempotentWrites,
        store=IdempotencyStore(engine, settings.idempotency_limits()),
        clients=settings.rate_limit_settings(),
    )
    document_idempotency(app)
    # Bodies are refused over 1 MiB (imports 6 MiB) before they fill memory,
    # and when they come too slowly to be anything but a held connection.
    app.add_middleware(BodyLimits, pace=settings.body_pace())
    # A client over its limits is refused before anything runs.
    app.add_middleware(RateLimit, limits=settings.rate_limit_settings())
    # So is a client holding its share of the process's connections already.
    app.add_middleware(
        ClientShare, limits=settings.rate_limit_settings(), limit=settings.per_client()
    )
    # Outermost: every answer, refusals included, carries the security headers.
    app.add_middleware(SecurityHeaders)
    # Which process answered, for a proxy's routing by table code (docs/deploy.md).
    app.add_middleware(ProcessHeader, process_id=settings.process_id)
    # Every answer counted by route and status, refusals included (/metrics).
    app.add_middleware(RequestMetrics)
    # Outside all of them: an open WebSocket writes its messages unwrapped.
    app.add_middleware(DirectSend)
    app.include_router(health_router)  # /healthz, for the proxy's health checks
    app.include_router(api_router)

    # /openapi.json from bytes encoded once (web/api/description.py).
    api_description.install(app)
    install_pages(app)  # the Tafel pages (the start page is "/") and /static
    app.include_router(play_router)  # online play: /play, the seat link, the WebSocket
    app.include_router(lab_router)  # the strategy lab: /lab
    return app
