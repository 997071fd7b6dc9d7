"""Watchers' boards rendered in a process of its own: a long board never stops an entry.

Rendering a long game's board is milliseconds of Python (a 550-round board
10–30 ms), and in a worker thread it holds the interpreter's lock all that
time. A round entered at that moment waits for it: with 300 phones
watching, ``benchmarks/tafel.py --watchers 300`` found the slowest entries
exactly when the board was rendered, once a second. In a process of its
own the rendering runs beside the server, on the other core.

- The process starts when the first watcher connects (a server that
  nobody watches never starts it), so that it is ready by the first
  change; it imports the pages and draws a small board once, so that its
  first real board does not compile the templates. Boards are rendered in
  threads until it is ready. It serves every game and keeps its own rows
  from one board to the next (:mod:`ligretto.web.pages.cells`).
- It is sent the game as plain tuples (a 550-round game in about 0.2 ms,
  a tenth of pickling the game's objects), and sends back the encoded
  events.
- If it dies (killed, out of memory), that board is rendered in a thread
  and the next one starts a new process. It ends with the server, and on
  its own when the server is killed (its pipe from the server closes).

``board_processes = 0`` (``LIGRETTO_BOARD_PROCESSES=0``) renders in threads
instead, as a server without a second core should.
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import json
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import UTC, datetime
from typing import NamedTuple

from sse_starlette import ServerSentEvent
from starlette.concurrency import run_in_threadpool

from ligretto.store import StoredGame
from ligretto.tafel import Game, Round

log = logging.getLogger(__name__)

GZIP_LEVEL = 6
"""zlib's own default: for a 550-round board 0.6x the time of level 9, and no bigger."""

RoundTuple = tuple[int, tuple[int, ...], tuple[int, ...] | None, bool]


class GameSnapshot(NamedTuple):
    """A stored game as plain values, cheap to send to another process."""

    id: str
    version: int
    created_at: datetime
    updated_at: datetime
    players: tuple[str, ...]
    mode: str
    target: int | None
    agreed_rounds: int | None
    deck: str
    row_storage: bool
    closed: bool
    scored: bool
    rounds: tuple[RoundTuple, ...]
    member_places: tuple[int | None, ...] | None = None
    #: The replay page of each round an online table kept (round number, address).
    replays: tuple[tuple[int, str], ...] = ()

    @classmethod
    def of(cls, stored: StoredGame, replays: Mapping[int, str] | None = None) -> GameSnapshot:
        game = stored.game
        return cls(
            stored.id,
            stored.version,
            stored.created_at,
            stored.updated_at,
            tuple(game.players),
            game.mode.value,
            game.target,
            game.agreed_rounds,
            game.deck.value,
            game.row_storage,
            game.closed,
            game.scored,
            tuple((r.number, r.stacks, r.middle, r.confirmed) for r in game.rounds),
            stored.member_places,
            tuple(sorted((replays or {}).items())),
        )

    def stored(self) -> StoredGame:
        game = Game.restore(
            self.players,
            mode=self.mode,
            target=self.target,
            agreed_rounds=self.agreed_rounds,
            deck=self.deck,
            row_storage=self.row_storage,
            rounds=[
                Round(n, stacks, middle, confirmed) for n, stacks, middle, confirmed in self.rounds
            ],
            closed=self.closed,
            scored=self.scored,
        )
        return StoredGame(
            self.id, self.version, game, self.created_at, self.updated_at, self.member_places
        )


class EncodedBoard(NamedTuple):
    """A board as server-sent events: the HTML as it is and gzipped, each if asked for."""

    version: int
    plain: bytes | None
    packed: bytes | None


def encode_board(snapshot: GameSnapshot, language: str, forms: frozenset[bool]) -> EncodedBoard:
    """Render the watch page's board and encode it in ``forms`` (``True``: gzipped)."""
    from ligretto.web.pages.board import render_fragment  # the pages, in either process

    html, info = render_fragment(snapshot.stored(), language, None, dict(snapshot.replays))
    version = snapshot.version
    plain = packed = None
    if False in forms:
        plain = _event(version, {"version": version, "html": html, "info": info})
    if True in forms:
        gz = gzip.compress(html.encode(), compresslevel=GZIP_LEVEL, mtime=0)
        packed = _event(
            version, {"version": version, "gz": base64.b64encode(gz).decode(), "info": info}
        )
    return EncodedBoard(version, plain, packed)


def _event(version: int, body: dict[str, object]) -> bytes:
    data = json.dumps(body, separators=(",", ":"))
    return ServerSentEvent(data=data, event="board", id=str(version)).encode()


def _start_worker() -> None:
    """In a new process: end with the server, and import the pages before the first board."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        # The pool's own pipes do not tell a worker that the server was
        # killed (the worker holds both of their ends): the parent's
        # sentinel does.
        threading.Thread(
            target=_exit_with, args=(parent.sentinel,), name="board-worker-parent", daemon=True
        ).start()
    _warm_up()


def _warm_up() -> None:
    """Draw a small board in every language: the templates are compiled before a real one."""
    from ligretto.web.i18n import LANGUAGES

    now = datetime.now(UTC)
    rounds: tuple[RoundTuple, ...] = ((1, (0, 5), (10, 5), False),)
    snapshot = GameSnapshot(
        "warm-up",
        2,
        now,
        now,
        ("A", "B"),
        "target",
        99,
        None,
        "ligretto",
        False,
        False,
        False,
        rounds,
    )
    for language in LANGUAGES:
        encode_board(snapshot, language, frozenset({False, True}))


def _ready() -> bool:
    """A first task: done once the process has started and imported the pages."""
    return True


def _exit_with(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


class BoardWorkers:
    """Where boards are rendered: ``processes`` processes (started when needed), or threads."""

    def __init__(self, processes: int = 1) -> None:
        if processes < 0:
            raise ValueError("processes >= 0")
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._ready: Future[bool] | None = None
        self.restarts = 0
        """How often a process died and a new one was started (for the tests and the logs)."""

    def start(self) -> Future[bool] | None:
        """Start the processes if they are not running; their readiness (None: threads)."""
        if self.processes == 0:
            return None
        if self._pool is None or self._ready is None:
            context = multiprocessing.get_context("spawn")  # no copy of the server's threads
            self._pool = ProcessPoolExecutor(
                self.processes, mp_context=context, initializer=_start_worker
            )
            self._ready = self._pool.submit(_ready)
        return self._ready

    async def encode(
        self,
        stored: StoredGame,
        language: str,
        forms: frozenset[bool],
        replays: Mapping[int, str] | None = None,
    ) -> EncodedBoard:
        """The board of ``stored`` encoded in ``forms``.

        In a thread while the process starts (a second or two, its imports):
        the first board after the server starts is not kept waiting for it.
        """
        snapshot = GameSnapshot.of(stored, replays)
        ready = self.start()
        pool = self._pool
        started = failed = False
        if ready is not None and ready.done():
            started = True
            failed = ready.cancelled() or ready.exception() is not None
        if pool is None or not started or failed:
            if failed:
                self._broken(pool)
            return await run_in_threadpool(encode_board, snapshot, language, forms)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(pool, encode_board, snapshot, language, forms)
        except BrokenProcessPool:
            self._broken(pool)
            return await run_in_threadpool(encode_board, snapshot, language, forms)

    def _broken(self, pool: ProcessPoolExecutor | None) -> None:
        if pool is not None and self._pool is pool:
            log.warning("the board process died; this board is rendered in a thread")
            self._pool = self._ready = None
            self.restarts += 1
            pool.shutdown(wait=False)

    def pids(self) -> list[int]:
        """The processes' ids, while they run (for the tests)."""
        pool = self._pool
        processes = getattr(pool, "_processes", None) or {}
        return list(processes)

    def close(self) -> None:
        """Stop the processes (the server's shutdown); boards asked for later use threads."""
        pool, self._pool, self._ready = self._pool, None, None
        self.processes = 0
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
