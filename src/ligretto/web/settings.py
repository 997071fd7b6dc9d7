"""Settings of the web app, from the environment (prefix ``LIGRETTO_``)."""

from __future__ import annotations

import os
import resource
import socket
from pathlib import Path
from typing import Any

import platformdirs
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from ligretto.collector import FULL_EVERY, YOUNG
from ligretto.metrics.exposition import parse_address
from ligretto.store import sqlite_url
from ligretto.store.database import DEFAULT_BUSY_TIMEOUT
from ligretto.store.idempotency import (
    KEYS_PER_CLIENT,
    KEYS_PER_MINUTE,
    KEYS_PER_OWNER,
    KeyLimits,
)
from ligretto.store.leases import LEASE_SECONDS
from ligretto.store.round_replays import Retention
from ligretto.web.client_share import CLIENT_SHARE, per_client
from ligretto.web.http_protocol import (
    HEADER_SECONDS,
    MAX_HEAD_BYTES,
    MAX_HEADERS,
    MAX_URL_BYTES,
    HttpBounds,
)
from ligretto.web.lab.runner import LabLimits
from ligretto.web.limits import BODY_GRACE_SECONDS, BODY_MIN_RATE, BodyPace
from ligretto.web.public_url import checked_public_url
from ligretto.web.ratelimit import RateLimits
from ligretto.web.server_options import (
    FILE_DESCRIPTOR_RESERVE,
    KEEP_ALIVE_SECONDS,
    uvicorn_options,
)


def default_data_dir() -> Path:
    """The per-user data folder (e.g. ``~/.local/share/ligretto`` on Linux)."""
    return Path(platformdirs.user_data_dir("ligretto", appauthor=False))


def default_process_id() -> str:
    """This process's name when none is given: ``hostname-pid``."""
    return f"{socket.gethostname()}-{os.getpid()}"


def default_max_connections() -> int:
    """The process's open-files limit less :data:`FILE_DESCRIPTOR_RESERVE` (at least 100).

    A connection is a file descriptor: past the limit the process can accept
    none, nor open its database. Without a limit (``RLIM_INFINITY``), 65,536.
    """
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 65536 + FILE_DESCRIPTOR_RESERVE
    return max(100, soft - FILE_DESCRIPTOR_RESERVE)


def default_lab_workers() -> int:
    """The lab's pool: two processes, or one on a machine with one core."""
    return max(1, min(2, os.cpu_count() or 1))


class Settings(BaseSettings):
    """``LIGRETTO_DATA_DIR`` and ``LIGRETTO_DATABASE_URL`` override the defaults."""

    model_config = SettingsConfigDict(env_prefix="LIGRETTO_", extra="ignore")

    data_dir: Path = Field(default_factory=default_data_dir)
    """Where the SQLite database lives when no database URL is given."""
    database_url: str | None = None
    """An SQLAlchemy URL, e.g. ``postgresql+psycopg://user@host/db``; default SQLite."""

    keep_tables: bool = True
    """Online tables are kept in the database and come back after a restart
    (docs/online-play.md); off only to measure what that costs."""
    rate_limits: bool = True
    """Per-client rate limits on creating and looking up (docs/limits.md); off for trials."""
    rate_create_table: str = "20/minute"
    """Tables one client address may open (``/play``, ``/play/quick``, ``POST /api/tables``)."""
    rate_create_game: str = "30/minute"
    """Tafel games one client address may create (the start page, ``POST /api/games``)."""
    rate_import_game: str = "10/minute"
    """Imports one client address may send (``POST /api/games/import``)."""
    rate_group_import: str = "5/minute"
    """Group imports one client address may send (``POST /api/groups/import``)."""
    rate_group_export: str = "5/minute"
    """Group exports one client address may read (``GET /api/groups/{id}/export.json``)."""
    rate_table_lookup: str = "60/minute"
    """Table pages, lookups, seat links and WebSocket connects per client address."""
    rate_lobby: str = "60/minute"
    """Reads of the lobby (``GET /api/lobby``) and quick matches per client address."""
    rate_limit_ipv4_prefix: int = Field(32, ge=0, le=32)
    """IPv4 clients are counted by this network: 32 counts each address on its own."""
    rate_limit_ipv6_prefix: int = Field(64, ge=0, le=128)
    """IPv6 clients are counted by this network: a /64 is what one home or phone
    is usually given (all its addresses are one client); 56 or 48 group more."""
    public_url: str | None = None
    """The server's address as people reach it, e.g. ``https://ligretto.example.org``
    (``ligretto serve --public-url``): every shared link and QR code starts with it.
    Without it, the address a request's connection reached (never its ``Host``
    header; docs/limits.md, "Links and QR codes")."""

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, value: str | None) -> str | None:
        return None if value is None or not value.strip() else checked_public_url(value)

    metrics_address: str | None = None
    """``HOST:PORT`` where this process serves ``/metrics`` for Prometheus
    (``ligretto serve --metrics-address``), an address of its own beside the
    app's so that the proxy that forwards the app never forwards it; not set:
    no metrics served (docs/deploy.md, "Metrics")."""

    @field_validator("metrics_address")
    @classmethod
    def _metrics_address(cls, value: str | None) -> str | None:
        if value is None or not value.strip() or value.strip().lower() == "off":
            return None
        parse_address(value)  # ValueError: the settings refuse it
        return value.strip()

    trusted_proxies: list[str] = []
    """Addresses or networks of reverse proxies whose ``X-Forwarded-For`` is believed
    (``ligretto serve --trusted-proxy``; uvicorn then takes the client address and
    scheme from the same proxies' ``X-Forwarded-For``/``X-Forwarded-Proto``)."""
    board_processes: int = Field(1, ge=0, le=8)
    """Processes that render the watch pages' live boards, started with the
    first board to render (docs/tafel-api.md): a long board then never holds
    up a round being entered. 0 renders them in threads."""
    process_id: str = Field(default_factory=default_process_id, min_length=1, max_length=100)
    """This server process's name among several behind one proxy (``--process-id``):
    sent as ``X-Ligretto-Process`` and by ``/healthz``, and the owner named in
    PostgreSQL (the live-update listener's ``application_name``)."""

    replays: Retention = "game"
    """How finished online rounds are kept, replayable (docs/online-play.md):
    ``game`` as long as the Tafel game that scored them, ``forever``, or
    ``off`` (none kept)."""
    replay_max_days: float = Field(0.0, ge=0.0)
    """Finished rounds older than this many days are deleted whatever
    ``replays`` says; 0 keeps them without an age limit."""

    table_lease: float = Field(default=LEASE_SECONDS, ge=1.0, le=300.0)
    """Seconds a process's claim on its online tables holds without renewal
    (renewed every third of it): how long, after a process dies, its tables
    wait before another process takes them over (docs/deploy.md)."""

    gc_young: int = Field(YOUNG, ge=100, le=1_000_000)
    """New objects between two young collections of the cyclic garbage
    collector in a serving process (Python's own: 700); what survives is
    frozen every second (ligretto/collector.py, docs/limits.md)."""
    gc_full_every: float = Field(FULL_EVERY, ge=60.0)
    """Seconds between two full collections, which free the reference cycles
    among frozen objects: one pause, longer the more seats are held."""

    keep_alive_timeout: int = Field(KEEP_ALIVE_SECONDS, ge=1, le=3600)
    """Seconds an idle connection stays open between two requests (uvicorn's
    ``timeout_keep_alive``)."""
    header_timeout: float = Field(HEADER_SECONDS, gt=0, le=3600)
    """Seconds a connection has to send a request's complete headers, from when
    it opened or from the previous answer; then it is closed (docs/limits.md)."""
    max_connections: int = Field(default_factory=default_max_connections, ge=1)
    """Open connections (WebSockets included) beyond which a request is answered
    with 503 (uvicorn's ``limit_concurrency``); default: the open-files limit
    less 100."""
    client_share: float = Field(CLIENT_SHARE, gt=0, le=1)
    """The share of ``max_connections`` one client may hold: open connections
    (counted by the peer's address, not for a trusted proxy) and requests in
    progress (a body being sent, a live-update stream, a WebSocket); 1 lets
    one client take them all (docs/limits.md)."""
    max_header_bytes: int = Field(MAX_HEAD_BYTES, ge=1024, le=1024 * 1024)
    """Bytes of a request's line and headers together; more is refused with 431."""
    max_headers: int = Field(MAX_HEADERS, ge=10, le=10_000)
    """Headers in one request; more is refused with 431."""
    max_url_bytes: int = Field(MAX_URL_BYTES, ge=256, le=1024 * 1024)
    """Bytes of a request's address with its query; more is refused with 414."""
    body_timeout: float = Field(BODY_GRACE_SECONDS, gt=0, le=3600)
    """Seconds a request body may take before ``body_min_rate`` applies."""
    body_min_rate: float = Field(BODY_MIN_RATE, gt=0)
    """Bytes a second a body must arrive at after ``body_timeout``: the first
    *n* bytes within ``body_timeout + n / body_min_rate`` seconds of the
    headers, or the request is refused with 408."""

    def per_client(self) -> int | None:
        """Connections, and requests in progress, one client may hold."""
        return per_client(self.max_connections, self.client_share)

    def http_bounds(self) -> HttpBounds:
        """What uvicorn's protocol bounds for these settings."""
        return HttpBounds(
            header_timeout=self.header_timeout,
            max_head_bytes=self.max_header_bytes,
            max_headers=self.max_headers,
            max_url_bytes=self.max_url_bytes,
            connections_per_client=self.per_client(),
            trusted_proxies=tuple(self.trusted_proxies),
            ipv4_prefix=self.rate_limit_ipv4_prefix,
            ipv6_prefix=self.rate_limit_ipv6_prefix,
        )

    def body_pace(self) -> BodyPace:
        """How fast a request body must arrive."""
        return BodyPace(grace=self.body_timeout, min_rate=self.body_min_rate)

    def server_options(self) -> dict[str, Any]:
        """The keyword arguments of ``uvicorn.run`` for these settings."""
        return uvicorn_options(
            self.trusted_proxies,
            keep_alive=self.keep_alive_timeout,
            max_connections=self.max_connections,
            bounds=self.http_bounds(),
        )

    def rate_limit_settings(self) -> RateLimits:
        """The rate limits in the middleware's terms."""
        return RateLimits(
            create_table=self.rate_create_table,
            create_game=self.rate_create_game,
            import_game=self.rate_import_game,
            group_import=self.rate_group_import,
            group_export=self.rate_group_export,
            table_lookup=self.rate_table_lookup,
            lobby=self.rate_lobby,
            trusted_proxies=tuple(self.trusted_proxies),
            enabled=self.rate_limits,
            ipv4_prefix=self.rate_limit_ipv4_prefix,
            ipv6_prefix=self.rate_limit_ipv6_prefix,
        )

    idempotency_keys_per_minute: int = Field(KEYS_PER_MINUTE, ge=1)
    """New Idempotency-Keys one token (or, for a write without one, one
    client) may store a minute; more are answered 429 with ``Retry-After``."""
    idempotency_keys_per_token: int = Field(KEYS_PER_OWNER, ge=1)
    """Idempotency-Keys kept for one token (or one client without one) over
    the 24 hours a key is kept; a write of a whole 1,000-round game takes 2,000."""
    idempotency_keys_per_client: int = Field(KEYS_PER_CLIENT, ge=1)
    """Idempotency-Keys kept for one client over 24 hours, all its tokens together."""

    def idempotency_limits(self) -> KeyLimits:
        """The bounds on stored Idempotency-Keys in the store's terms (docs/limits.md)."""
        return KeyLimits(
            per_minute=self.idempotency_keys_per_minute,
            per_owner=self.idempotency_keys_per_token,
            per_client=self.idempotency_keys_per_client,
        )

    def lab_limits(self) -> LabLimits:
        """The strategy lab's limits in its queue's terms."""
        return LabLimits(
            workers=self.lab_workers,
            running=self.lab_running,
            max_seat_rounds=self.lab_max_seat_rounds,
            max_actions=self.lab_max_actions,
            client_studies=self.lab_client_studies,
            queue=self.lab_queue,
        )

    def resolved_database_url(self) -> str:
        return self.database_url or sqlite_url(self.data_dir)

    db_pool_size: int = Field(5, ge=1)
    """PostgreSQL connections each process keeps open (SQLAlchemy's ``pool_size``)."""
    db_max_overflow: int = Field(10, ge=0)
    """More PostgreSQL connections a process may open for a burst, closed afterwards.
    Each process also holds one connection for live updates (docs/deploy.md)."""

    def engine_options(self) -> dict[str, int]:
        """Pool sizes for :func:`ligretto.store.make_engine` (PostgreSQL only)."""
        if self.resolved_database_url().startswith("sqlite"):
            return {}
        return {"pool_size": self.db_pool_size, "max_overflow": self.db_max_overflow}

    lab_workers: int = Field(default_factory=default_lab_workers, ge=1, le=64)
    """Worker processes of the strategy lab's pool (``/lab``): the chunks of
    a study run on them; default 2, or 1 on a machine with one core."""
    lab_running: int = Field(1, ge=1, le=16)
    """Studies that run at a time; the others wait in the queue, in order."""
    lab_max_seat_rounds: int = Field(200_000, ge=1)
    """The cap of one study as it is asked for: rounds × seats (a whole game
    to 99 counts as 10 rounds). A study over it is refused with a message
    that says the cap."""
    lab_max_actions: int = Field(10_000_000, ge=1)
    """The budget of one study as it runs: the actions its bots simulate
    (every seat's moves and turns). At the budget the study stops and shows
    what it played until then; a study at the cap of the lab's questions
    (50,000 rounds of four) simulates about 9 million."""
    lab_client_studies: int = Field(2, ge=1)
    """Studies one client (counted as the rate limits count it) may have queued
    or running at once; the next is refused until one ends."""
    lab_queue: int = Field(20, ge=1)
    """Studies queued or running on this process at most, from all clients."""

    busy_timeout: float = Field(DEFAULT_BUSY_TIMEOUT, gt=0)
    """Seconds a write waits for another one's database lock before it is answered
    with 503 and ``Retry-After`` (SQLite's busy timeout, PostgreSQL's ``lock_timeout``);
    pass it to :func:`ligretto.store.make_engine`."""
