"""HTTP and WebSocket routes of online play.

Thin by design (like boardgame.io's server): a route parses, hands a
validated message to the table, and forwards what the table answers.  The
table (``ligretto.live.table``) owns all game logic.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import types
from collections.abc import Callable, Coroutine, Generator
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from pydantic.dataclasses import dataclass as pydantic_dataclass
from starlette.concurrency import run_in_threadpool

from ligretto.bots import Level
from ligretto.live import encoder
from ligretto.live.connection import (
    CLOSE_GONE,
    CLOSE_NO_TABLE,
    CLOSE_POLICY,
    CLOSE_TRY_AGAIN,
    Connection,
    InFlight,
)
from ligretto.live.persistence import INCOMPATIBLE
from ligretto.live.protocol import (
    Ping,
    ProtocolError,
    Reason,
    Refused,
    Strategy,
    parse_client_message,
)
from ligretto.live.registry import CLOSED_GAME_OVER, TableCapError, TableRegistry
from ligretto.live.scorekeeping import EndCondition, GroupLink, ScoreKeeper
from ligretto.live.seating import BotSpec
from ligretto.live.settings import TableSettings
from ligretto.live.table import Table
from ligretto.rules.options import MAX_PLAYERS, MIN_PLAYERS, RuleOptions, player_limits
from ligretto.store.errors import GroupNotFoundError
from ligretto.store.groups import GroupService
from ligretto.store.live_tables import LiveTableStore, TableElsewhereError
from ligretto.store.round_replays import Retention
from ligretto.tafel.limits import MAX_NAME_LENGTH
from ligretto.tafel.names import clean_name, printable
from ligretto.web.direct_send import SCOPE_KEY as DIRECT_SEND
from ligretto.web.play.collector import CollectorSchedule
from ligretto.web.qr import qr_svg

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------
# errors in the API's shape
# --------------------------------------------------------------------------


class PlayApiError(Exception):
    """An error answer of these routes: ``{"detail", "code"}`` like the API's."""

    def __init__(
        self, status: int, code: str, detail: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers


def _error_response(exc: PlayApiError) -> Response:
    return JSONResponse(
        {"detail": exc.detail, "code": exc.code}, status_code=exc.status, headers=exc.headers
    )


def _validation_response(exc: RequestValidationError) -> Response:
    """Refused input as ``{"detail", "code": "invalid_request"}``.

    FastAPI's own answer echoes the input back, and input it cannot encode
    (a lone surrogate in the JSON) turned a refusal into a 500; this one
    names the fields and what is wrong, never the value.
    """
    parts: list[str] = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body") or "body"
        part = f"{where}: {error.get('msg', 'invalid')}"
        if part not in parts:
            parts.append(part)
    detail = printable("; ".join(parts) or "the request is not valid", 500)
    return JSONResponse({"detail": detail, "code": "invalid_request"}, status_code=422)


class PlayRoute(APIRoute):
    """Answers :class:`PlayApiError` in the API's shape, on every server
    (also one without the API's error handlers), and refused input of the
    routes outside ``/api/`` without echoing it; ``/api/`` keeps the app's
    own answer to refused input."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def handle(request: Request) -> Response:
            try:
                return await handler(request)
            except PlayApiError as exc:
                return _error_response(exc)
            except RequestValidationError as exc:
                if request.url.path.startswith("/api/"):
                    raise
                return _validation_response(exc)

        return handle


router = APIRouter(route_class=PlayRoute)

# Refusals for flooding that are still answered before the socket closes.
_MAX_STRIKES = 200


# --------------------------------------------------------------------------
# life cycle (called from the app's lifespan)
# --------------------------------------------------------------------------


def start_tables(
    app: FastAPI,
    *,
    scorekeeper: ScoreKeeper | None = None,
    settings: TableSettings | None = None,
    store: LiveTableStore | None = None,
    replays: Retention = "game",
    replay_max_days: float = 0.0,
    collector: CollectorSchedule | None = None,
) -> TableRegistry:
    """Give the app its table registry (in the lifespan, before serving);
    with a ``store`` the tables are kept in the database (call
    ``registry.restore()`` to bring back those that were open, then
    ``app.state.collector.settle()``).

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
    return registry


async def stop_tables(app: FastAPI) -> None:
    """Stop every table task (in the lifespan, at shutdown)."""
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


def closed_text(reason: str) -> str:
    """What a closed table's page says about it (``Refused.reason``)."""
    if reason == INCOMPATIBLE:
        return (
            "this table could not be restored after the server restarted; "
            "its rounds are kept on its Tafel game"
        )
    if reason == CLOSED_GAME_OVER:
        return "this table's game is over and the table has closed"
    return "this table has closed: nobody was at it for a long time"


def registry_of(app: object) -> TableRegistry:
    registry: TableRegistry | None = getattr(getattr(app, "state", None), "tables", None)
    if registry is None:  # pragma: no cover - a wiring error, not user input
        raise HTTPException(503, "online play is not running")
    return registry


# --------------------------------------------------------------------------
# JSON API
# --------------------------------------------------------------------------


# The rule options and the end condition as JSON: the dataclasses themselves
# (their fields, types, defaults and checks), validated by pydantic and
# closed to unknown fields.  A new rule option appears here by itself.


@pydantic_dataclass(frozen=True, config=ConfigDict(extra="forbid"))
class OptionsIn(RuleOptions):
    """Every rule option of ``RuleOptions`` (docs/rules.md), with its default."""


@pydantic_dataclass(frozen=True, config=ConfigDict(extra="forbid"))
class EndIn(EndCondition):
    """How the game ends (T1): a target (50/99/150 or another) or rounds."""


def _fields(value: Any) -> dict[str, Any]:
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}


# T1: the one name rule of the Tafel; a refused name is refused input (422).
HostName = Annotated[
    str, Field(min_length=1, max_length=MAX_NAME_LENGTH), AfterValidator(clean_name)
]


class BotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)] | None = None
    strategy: Strategy = "stack-first"
    level: Level = Level.MEDIUM


class GroupIn(BaseModel):
    """The group the table's games are recorded into, with its token."""

    model_config = ConfigDict(extra="forbid")

    id: Annotated[str, Field(min_length=1, max_length=64, description="the group's id")]
    token: Annotated[
        str,
        Field(min_length=1, max_length=200, description="the group's token (its secret link)"),
    ]


class CreateTable(BaseModel):
    """A new table.  With ``name`` the creator sits in seat 0; with ``group``
    each game of the table joins that group (its token checked first)."""

    model_config = ConfigDict(extra="forbid")

    seats: Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)] = 4
    name: HostName | None = None
    options: OptionsIn = OptionsIn()
    end: EndIn = EndIn()
    bots: Annotated[list[BotIn], Field(max_length=MAX_PLAYERS)] = []
    group: GroupIn | None = None

    @model_validator(mode="after")
    def _fits(self) -> CreateTable:
        _, limit = player_limits(self.options.deck)
        if self.seats > limit:
            raise ValueError(f"the {self.options.deck} deck seats at most {limit} players (R1)")
        taken = 1 if self.name else 0
        if taken + len(self.bots) > self.seats:
            raise ValueError("more bots than free seats")
        return self


async def checked_group(app: object, group: GroupIn | None) -> GroupLink | None:
    """The group a new table records into, once its id and token are right.

    Refused like the group API refuses: no such group (404
    ``group_not_found``), a wrong token (403 ``forbidden``); a server
    without groups refuses any group (422 ``no_groups``).
    """
    if group is None:
        return None
    groups: GroupService | None = getattr(getattr(app, "state", None), "groups", None)
    if groups is None:
        raise PlayApiError(422, "no_groups", "this server keeps no groups")
    try:
        right = await run_in_threadpool(groups.check_token, group.id, group.token)
    except GroupNotFoundError:
        raise PlayApiError(404, "group_not_found", "there is no group with this id") from None
    if not right:
        raise PlayApiError(
            403,
            "forbidden",
            "recording into a group needs the group's link (a valid group token)",
            {"WWW-Authenticate": "Bearer"},
        )
    return GroupLink(group.id, group.token)


def create_table(
    registry: TableRegistry, spec: CreateTable, group: GroupLink | None = None
) -> Table:
    """Create a table from a validated spec and seat its host and bots;
    ``group`` is the spec's group after :func:`checked_group`."""
    return registry.create(
        seats=spec.seats,
        options=RuleOptions(**_fields(spec.options)),
        end=EndCondition(**_fields(spec.end)),
        host_name=spec.name or None,
        bots=[BotSpec(bot.seat, bot.strategy, bot.level) for bot in spec.bots],
        group=group,
    )


class SeatLinkIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: Annotated[str, Field(min_length=1, max_length=100)]


class SeatLink(BaseModel):
    url: str
    qr_svg: str


@router.post("/play/{code}/seat-link", tags=["online play"])
async def post_seat_link(code: str, body: SeatLinkIn, request: Request) -> SeatLink:
    """The personal link (and its QR code) that moves a seat to another device.

    The token travels in the request body, never in a URL the server logs,
    and comes back only to its holder; the link carries it in the fragment
    (``#seat=…``), which browsers send neither to servers nor in Referer.
    """
    try:
        table = await registry_of(request.app).find(code)
    except TableElsewhereError:
        raise PlayApiError(
            503,
            "table_elsewhere",
            "another server process serves this table; try again shortly",
            {"Retry-After": str(ELSEWHERE_RETRY)},
        ) from None
    if table is None:
        raise PlayApiError(404, "no_such_table", "there is no table with this code")
    if table.seat_of_token(body.token) is None:
        raise PlayApiError(404, "bad_token", "no seat at this table belongs to this token")
    url = f"{str(request.base_url).rstrip('/')}/play/{table.code}#seat={body.token}"
    return SeatLink(url=url, qr_svg=str(qr_svg(url)))


# --------------------------------------------------------------------------
# WebSocket
# --------------------------------------------------------------------------


def _text_sender(websocket: WebSocket) -> Callable[[str], Coroutine[Any, Any, None]]:
    """How this socket's messages are written: with the server's own
    ``send`` when the app hands it over (:mod:`ligretto.web.direct_send`),
    else through Starlette."""
    direct = websocket.scope.get(DIRECT_SEND)
    if direct is None:
        return websocket.send_text

    def send_text(text: str) -> Coroutine[Any, Any, None]:
        return direct({"type": "websocket.send", "text": text})  # type: ignore[no-any-return]

    return send_text


def _writer(websocket: WebSocket, conn: Connection) -> Callable[[str], None]:
    """Write a message in the caller's step, without a task of its own.

    The send is started by hand.  While the socket keeps up it ends without
    ever waiting (the message is written); if it has to wait (the socket's
    buffer is full: a slow reader), the transport's task goes on with it,
    and what the table sends meanwhile waits in the outbox behind it.
    """

    send_text = _text_sender(websocket)

    def write(text: str) -> None:
        send = send_text(text)
        try:
            waiting = send.send(None)
        except StopIteration:
            return
        except Exception:
            # The client went away (the receiving side tells the table);
            # whatever the reason, one socket must not break a broadcast.
            conn.writer = None
            return
        conn.outbox.put_nowait(InFlight(send, waiting))  # the outbox was empty

    return write


@types.coroutine
def _go_on(send: Coroutine[Any, Any, None], waiting: Any) -> Generator[Any, Any, None]:
    """Await the rest of a coroutine that was started by hand and is waiting
    for ``waiting``: what it waits for is passed up to the running task, and
    what the task is woken with is passed back down."""
    while True:
        try:
            woken = yield waiting
        except BaseException as exc:  # cancelled: the send is told, too
            try:
                waiting = send.throw(exc)
            except StopIteration:
                return
        else:
            try:
                waiting = send.send(woken)
            except StopIteration:
                return


async def _pump(websocket: WebSocket, conn: Connection) -> None:
    """Send what waits in this connection's outbox, in order."""
    send_text = _text_sender(websocket)
    try:
        while True:
            item = await conn.outbox.get()
            if item is None or conn.overflowed:
                if isinstance(item, InFlight):
                    item.coroutine.close()  # dropped with the client
                with contextlib.suppress(Exception):
                    await websocket.close(CLOSE_POLICY if conn.overflowed else conn.close_code)
                return
            conn.sending = True
            if isinstance(item, InFlight):
                await _go_on(item.coroutine, item.waiting)
            else:
                await send_text(item)
            conn.sending = False
    except (WebSocketDisconnect, RuntimeError, OSError):
        return  # the client went away; the receiving side tells the table
    finally:
        conn.writer = None


@router.websocket("/play/{code}/ws")
async def table_socket(websocket: WebSocket, code: str) -> None:
    """One client of one table; see docs/protocol.md."""
    registry = registry_of(websocket.app)
    try:
        table = await registry.find(code)
    except TableElsewhereError:
        # Another process serves it (or did, and its lease has not run out
        # yet): the page reconnects after a pause and gets there.
        await websocket.accept()
        await websocket.send_text(
            Refused(
                code=Reason.TRY_AGAIN, reason="another server process serves this table"
            ).model_dump_json()
        )
        await websocket.close(CLOSE_TRY_AGAIN)
        return
    except TableCapError:
        await websocket.accept()
        await websocket.close(CLOSE_TRY_AGAIN)
        return
    await websocket.accept()
    if table is None:
        closed = await registry.closed_reason(code)
        if closed is not None:
            refusal = Refused(code=Reason.TABLE_CLOSED, reason=closed_text(closed))
        else:
            refusal = Refused(code=Reason.NO_SUCH_TABLE, reason="no table with this code")
        await websocket.send_text(refusal.model_dump_json())
        await websocket.close(CLOSE_GONE if closed is not None else CLOSE_NO_TABLE)
        return
    conn = Connection()
    conn.writer = _writer(websocket, conn)
    sender = asyncio.get_running_loop().create_task(_pump(websocket, conn))
    try:
        while not sender.done():
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            raw = frame.get("text")
            if raw is None:
                raw = frame.get("bytes") or b""
            if not conn.bucket.allow():
                # Flooding: refused here, before it costs the table anything.
                conn.strikes += 1
                if conn.strikes <= 3:
                    conn.send(
                        Refused(
                            code=Reason.RATE_LIMITED, reason="too many messages; slow down"
                        ).model_dump_json()
                    )
                if conn.strikes > _MAX_STRIKES:
                    conn.close(CLOSE_POLICY)
                continue
            # A message within the rate takes one strike back (not all of them):
            # a client that floods steadily gets a few messages through every
            # second and must still reach the limit, however the refills fall.
            conn.strikes = max(0, conn.strikes - 1)
            try:
                message = parse_client_message(raw)
            except ProtocolError as exc:
                conn.send(Refused(code=exc.code, reason=exc.reason).model_dump_json())
                continue
            if isinstance(message, Ping):
                # The page's heartbeat (docs/protocol.md): answered here, not
                # behind the table's queue, so a busy table never looks like
                # a lost connection, and a ping costs the table nothing.
                conn.send(encoder.pong(message.t, table.settings.clock.now()))
                continue
            table.submit(conn, message)
    except WebSocketDisconnect:
        pass
    finally:
        table.left(conn)
        if not sender.done():
            conn.close()
            try:
                await asyncio.wait_for(sender, 1.0)
            except (TimeoutError, asyncio.CancelledError, Exception):
                sender.cancel()
