"""``/g/{id}/board/events``: the watch page's board, sent to every watcher after each change (T6).

A watch page that only heard the new version had to fetch the board
itself: a change seen by 300 phones was 300 requests reading and
rendering the same board, and the next write waited behind them.  Here the
board is rendered once per language, in a process of its own
(:mod:`ligretto.web.pages.board_worker`), and the same encoded event goes
to every watcher of the game; four things keep a crowd of watchers from
slowing the scorekeeper down:

- the rendering runs beside the server, not in its interpreter: a long
  board does not hold the lock a round being entered waits for;
- a game's board is rendered at most every ``RENDER_INTERVAL`` seconds:
  changes that come faster (two phones entering at once, an import) reach
  the watchers together, the newest one last;
- each watcher is woken for a change after a short delay of its own, up
  to ``SPREAD_PER_WATCHER`` per watcher of the game (at most
  ``SPREAD_MAX``): 300 boards go out over a fraction of a second instead
  of all at once, and a write arriving meanwhile waits for one of them,
  not for all;
- a watcher that is behind only ever gets the newest board.

The stream sends ``event: board`` with ``{"version", "html", "info"}``
(``html`` is what ``/g/{id}/board`` answers, ``info`` its ``X-Game-Info``)
— or, opened with ``?z=gzip``, ``"gz"`` (the HTML gzipped, in base64: a
sixth of the bytes, compressed once for every watcher) instead of
``"html"`` — whenever the game is newer than what the page shows: at connect when the
page's version (``?v=`` or the browser's ``Last-Event-ID``) is older, and
after every change.  A page that is up to date gets ``event: version``
at connect, as from ``/api/games/{id}/events``.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import OrderedDict
from collections.abc import AsyncGenerator, Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Literal

from fastapi import APIRouter, FastAPI, Request
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from ligretto.store import GameNotFoundError, StoreBusyError, TafelService
from ligretto.web.deps import Hub, Service, replay_links
from ligretto.web.game_events import event_stream, version_event, watch
from ligretto.web.pages.board_worker import BoardWorkers
from ligretto.web.rendering import request_language

router = APIRouter()

RENDER_INTERVAL = 1.0
"""Seconds between two renderings of one game's board (per language)."""
SPREAD_PER_WATCHER = 0.001
"""How much later, at most, each further watcher of a game may be sent a change."""
SPREAD_MAX = 0.5
"""The longest a watcher waits for its turn after a change."""


@dataclass(frozen=True, slots=True)
class BoardEvent:
    """A board as one encoded server-sent event, in the forms its watchers asked for."""

    version: int
    data: bytes | None
    """The event with the HTML as it is, if a watcher asked for it."""
    gzipped: bytes | None
    """The same event with the HTML gzipped (``?z=gzip``), if a watcher asked for it."""
    rendered_at: float

    def has(self, gzipped: bool) -> bool:
        return (self.gzipped if gzipped else self.data) is not None

    def encoded(self, gzipped: bool) -> bytes:
        encoded = self.gzipped if gzipped else self.data
        if encoded is None:
            raise LookupError("this board was not encoded for that kind of watcher")
        return encoded


class BoardRenderer:
    """The newest board event of each game and language, rendered once for all watchers.

    Runs on the event loop; the database read runs in a worker thread, the
    rendering in ``workers`` (a process of its own, or threads). Watchers
    asking for the same game and language while it is being rendered wait
    for that one rendering.

    A board is encoded only in the forms its watchers asked for (the HTML
    as it is, or gzipped): JSON-encoding a long game's HTML that nobody
    reads cost as much as a third of the rendering, while it held the
    interpreter's lock that a round being entered waits for.
    """

    def __init__(
        self,
        service: TafelService,
        *,
        interval: float = RENDER_INTERVAL,
        size: int = 256,
        clock: Callable[[], float] = time.monotonic,
        workers: BoardWorkers | None = None,
    ) -> None:
        self._service = service
        # The replay pages of an online game's rounds (set by install).
        self.replays: Callable[[str], Mapping[int, str]] = lambda _game_id: {}
        self.workers = workers if workers is not None else BoardWorkers(0)
        self._interval = interval
        self._size = size
        self._clock = clock
        self._latest: OrderedDict[tuple[str, str], BoardEvent] = OrderedDict()
        self._running: dict[tuple[str, str], asyncio.Future[BoardEvent]] = {}
        self._forms: dict[tuple[str, str], frozenset[bool]] = {}
        """Per game and language: which forms (gzipped or not) watchers asked for."""
        self._waiting: dict[tuple[str, str], list[tuple[asyncio.Future[BoardEvent], float]]] = {}
        """Per game and language: the watchers waiting for the rendering, and their spread."""

    async def board(
        self,
        game_id: str,
        language: str,
        version: int,
        *,
        gzipped: bool = False,
        spread: float = 0.0,
    ) -> BoardEvent:
        """The board of ``game_id`` at ``version`` or newer (raises the store's errors).

        Waits for the game's next rendering when the last one is too recent;
        at once when the last one lacks the form asked for (a first watcher
        of its kind). A watcher that waited for a rendering gets it up to
        ``spread`` seconds later, at a random moment of its own: the
        watchers of a game wake one after another, not all in the same
        instant (300 of them resuming at once held the event loop, and the
        round entered then, for milliseconds).
        """
        key = (game_id, language)
        forms = self._forms.get(key, frozenset())
        if gzipped not in forms:
            self._forms[key] = forms | {gzipped}
        while True:
            kept = self._latest.get(key)
            if kept is not None and kept.version >= version and kept.has(gzipped):
                self._latest.move_to_end(key)
                return kept
            running = self._running.get(key)
            if running is None:
                wait = (
                    0.0
                    if kept is None or not kept.has(gzipped)
                    else kept.rendered_at + self._interval - self._clock()
                )
                running = asyncio.ensure_future(self._render(key, wait))
                self._running[key] = running
                running.add_done_callback(self._finished(key))
            waiter: asyncio.Future[BoardEvent] = asyncio.get_running_loop().create_future()
            self._waiting.setdefault(key, []).append((waiter, spread))
            event = await waiter
            if event.version >= version and event.has(gzipped):
                return event
            # Rendered from a version older than the one asked for (the
            # change came in meanwhile), or before this form was asked for:
            # once more.

    def close(self) -> None:
        """Stop the rendering processes (the app's shutdown)."""
        self.workers.close()

    def newest(self, game_id: str, language: str, *, gzipped: bool = False) -> BoardEvent | None:
        """The newest board rendered of ``game_id`` in that form, without waiting."""
        kept = self._latest.get((game_id, language))
        return kept if kept is not None and kept.has(gzipped) else None

    def _finished(self, key: tuple[str, str]) -> Callable[[asyncio.Future[BoardEvent]], None]:
        def deliver(done: asyncio.Future[BoardEvent]) -> None:
            self._running.pop(key, None)
            waiting = self._waiting.pop(key, [])
            if done.cancelled():
                for waiter, _ in waiting:
                    waiter.cancel()
                return
            failure = done.exception()  # retrieved: the watchers that waited get it
            if failure is not None:
                for waiter, _ in waiting:
                    if not waiter.done():
                        waiter.set_exception(failure)
                return
            event = done.result()
            loop = asyncio.get_running_loop()
            for waiter, spread in waiting:
                if spread > 0:
                    loop.call_later(random.uniform(0.0, spread), _settle, waiter, event)
                else:
                    _settle(waiter, event)

        return deliver

    async def _render(self, key: tuple[str, str], wait: float) -> BoardEvent:
        if wait > 0:
            await asyncio.sleep(wait)
        game_id, language = key
        forms = self._forms.get(key, frozenset({False}))
        stored = await run_in_threadpool(self._service.get_game, game_id)
        replays = await run_in_threadpool(self.replays, game_id)
        board = await self.workers.encode(stored, language, forms, replays)
        event = BoardEvent(board.version, board.plain, board.packed, self._clock())
        kept = self._latest.get(key)
        # Forms are only ever added: a rendering as new as the kept one has them all.
        if kept is None or kept.version <= event.version:
            self._latest[key] = event
            self._latest.move_to_end(key)
            while len(self._latest) > self._size:
                forgotten, _ = self._latest.popitem(last=False)
                self._forms.pop(forgotten, None)
        return event


def _settle(waiter: asyncio.Future[BoardEvent], event: BoardEvent) -> None:
    if not waiter.done():  # a watcher that left meanwhile was cancelled
        waiter.set_result(event)


def install(app: FastAPI, processes: int = 1) -> None:
    """Give *app* its board renderer (after ``app.state.tafel`` is set).

    ``processes`` render the boards (:mod:`ligretto.web.pages.board_worker`;
    0: threads). Call :meth:`BoardRenderer.close` when the app stops.
    """
    renderer = BoardRenderer(app.state.tafel, workers=BoardWorkers(processes))
    renderer.replays = partial(replay_links, app)
    app.state.boards = renderer


def _renderer(request: Request) -> BoardRenderer:
    renderer: BoardRenderer = request.app.state.boards
    return renderer


def _since(last_event_id: str | None, shown: int | None) -> int:
    """The version the page shows: the last event's id on a reconnect, else ``?v=``."""
    if last_event_id is not None and last_event_id.isdigit() and len(last_event_id) <= 9:
        return int(last_event_id)
    return shown if shown is not None and shown >= 0 else 0


@router.get("/g/{game_id}/board/events")
async def board_events(
    request: Request,
    game_id: str,
    service: Service,
    hub: Hub,
    v: int | None = None,
    z: Literal["gzip"] | None = None,
) -> EventSourceResponse:
    """The watch page's live board: ``event: board`` whenever the game is newer than the page."""
    subscription, current = await watch(hub, service, game_id)
    language = request_language(request)
    shown = _since(request.headers.get("last-event-id"), v)
    packed = z == "gzip"
    renderer = _renderer(request)
    renderer.workers.start()  # the board process, ready by the game's next change

    async def boards() -> AsyncGenerator[ServerSentEvent | bytes, None]:
        try:
            sent = shown
            if current > sent:
                event = await renderer.board(game_id, language, current, gzipped=packed)
                sent = event.version
                yield event.encoded(packed)
            else:
                yield version_event(game_id, current)
            async for version in subscription:
                if version <= sent:
                    continue
                # This watcher's turn among the game's watchers: their
                # boards go out one after another, not all at once.
                spread = min(SPREAD_MAX, SPREAD_PER_WATCHER * hub.watchers(game_id))
                event = await renderer.board(
                    game_id, language, version, gzipped=packed, spread=spread
                )
                event = renderer.newest(game_id, language, gzipped=packed) or event
                sent = event.version
                yield event.encoded(packed)
        except (GameNotFoundError, StoreBusyError):
            # The stream ends; the browser comes back with the version it
            # last had (Last-Event-ID) and gets what it missed.
            return

    return event_stream(subscription, boards())
