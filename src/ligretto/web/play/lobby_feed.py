"""The lobby as a stream: ``/play``'s open tables sent when they change, not polled.

One :class:`LobbyFeed` per process reads the lobby's listings once for all
of its streams (``GET /api/lobby/events``) and encodes them once, in the
shape of ``GET /api/lobby``.  It reads them again when

- this process's :class:`~ligretto.live.lobby.LobbyKeeper` wrote a change
  (a table opened public, made private, a seat taken or freed, the table
  full, started or closed);
- another process did: its write announced the change under
  :data:`~ligretto.store.notify.LOBBY`, which reaches this process's
  :class:`~ligretto.store.hub.ChangeHub` through PostgreSQL ``LISTEN`` —
  the mechanism that carries the Tafel's live boards across processes;
- ``refresh`` seconds passed: the listings of a process that died leave
  the lobby when their lease runs out, which nobody announces.

A stream is sent the list when it connects and then whenever what the
lobby shows changed (the waiting times alone are no change: the page
counts them on).  The feed reads only while somebody streams.  One client
holds at most :data:`MAX_STREAMS_PER_CLIENT` streams at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from datetime import datetime

from ligretto.live.lobby import LobbyKeeper
from ligretto.store.hub import ChangeHub, Subscription
from ligretto.store.lobby import Listed, Listing
from ligretto.store.notify import LOBBY

log = logging.getLogger(__name__)

#: Seconds between two reads while nothing was heard: a third of a
#: listing's lease, so a dead process's tables leave the streams soon
#: after they leave ``GET /api/lobby``.
REFRESH_SECONDS = 5.0
#: The most lobby streams one client (as the rate limits count it) holds.
MAX_STREAMS_PER_CLIENT = 10

#: Encodes the listings (and the time their waits count to) as the stream sends them.
Encode = Callable[[list[Listed], datetime], str]


class TooManyStreamsError(Exception):
    """The client holds as many lobby streams as it may."""

    code = "too_many_streams"


class LobbyStream:
    """One client's stream: woken when the feed has a new list."""

    def __init__(self, feed: LobbyFeed, client: str) -> None:
        self._feed = feed
        self.client = client
        self._changed = asyncio.Event()
        self.closed = False

    def _wake(self) -> None:
        self._changed.set()

    def close(self) -> None:
        """Stop receiving; safe to call more than once."""
        if not self.closed:
            self.closed = True
            self._feed._drop(self)
        self._changed.set()

    def __enter__(self) -> LobbyStream:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    async def texts(self) -> AsyncIterator[str]:
        """The lobby's list now (once it was read) and after every change."""
        sent = -1
        while not self.closed:
            version, text = self._feed.latest()
            if text is not None and version != sent:
                sent = version
                yield text
            await self._changed.wait()
            self._changed.clear()


class LobbyFeed:
    """The process's lobby streams and the one read they share (module docstring)."""

    def __init__(
        self,
        keeper: LobbyKeeper,
        hub: ChangeHub,
        encode: Encode,
        *,
        refresh: float = REFRESH_SECONDS,
        per_client: int = MAX_STREAMS_PER_CLIENT,
    ) -> None:
        self.keeper = keeper
        self.hub = hub
        self.encode = encode
        self.refresh = refresh
        self.per_client = per_client
        self._streams: set[LobbyStream] = set()
        self._clients: dict[str, int] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        # The last list read: what it showed, its text, and its number
        # (bumped when what it shows changed); no text before the first
        # read of the current run.
        self._shown: list[Listing] | None = None
        self._text: str | None = None
        self._version = 0
        keeper.listeners.append(self.changed)

    def changed(self) -> None:
        """The lobby changed: read it again (from the event loop)."""
        self._wake.set()

    def latest(self) -> tuple[int, str | None]:
        return self._version, self._text

    @property
    def streams(self) -> int:
        """How many streams are open in this process."""
        return len(self._streams)

    def open(self, client: str) -> LobbyStream:
        """A new stream for ``client``; :class:`TooManyStreamsError` when it
        holds as many as it may (nothing changes then)."""
        if self._clients.get(client, 0) >= self.per_client:
            raise TooManyStreamsError(client)
        stream = LobbyStream(self, client)
        if self._closed:
            stream.close()
            return stream
        self._streams.add(stream)
        self._clients[client] = self._clients.get(client, 0) + 1
        if self._task is None or self._task.done():
            self._text = None  # a list read before this run may be old
            self._task = asyncio.get_running_loop().create_task(self._run(), name="lobby-feed")
        return stream

    def _drop(self, stream: LobbyStream) -> None:
        if stream in self._streams:
            self._streams.discard(stream)
            left = self._clients.get(stream.client, 1) - 1
            if left > 0:
                self._clients[stream.client] = left
            else:
                self._clients.pop(stream.client, None)
        self._wake.set()  # the last one gone: the feed stops reading

    async def close(self) -> None:
        """End every stream (server shutdown)."""
        self._closed = True
        for stream in list(self._streams):
            stream.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        subscription = self.hub.subscribe(LOBBY)
        hearing = asyncio.get_running_loop().create_task(self._hear(subscription))
        try:
            while self._streams:
                self._wake.clear()
                try:
                    await self._read()
                except Exception:  # the database is away: read again later
                    log.exception("reading the lobby for its streams failed")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self.refresh)
        finally:
            subscription.close()
            hearing.cancel()

    async def _hear(self, subscription: Subscription) -> None:
        async for _version in subscription:  # another process changed the lobby
            self._wake.set()

    async def _read(self) -> None:
        listed, now = await self.keeper.listed()
        shown = [entry.listing for entry in listed]
        if self._text is not None and shown == self._shown:
            return
        self._shown = shown
        self._text = self.encode(listed, now)
        self._version += 1
        for stream in list(self._streams):
            stream._wake()
