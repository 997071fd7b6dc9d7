"""In-process publish/subscribe of game changes (live updates for watchers, T6).

The service publishes ``(game_id, version)`` after each commit, from any
thread; subscribers are asyncio tasks (server-sent event streams) that wait
for the newest version. A watcher that falls behind only ever needs the
newest version, so a subscription keeps one number, not a queue, and a
version it has already seen (the same change heard twice, from this
process and from PostgreSQL) does not wake it.

On PostgreSQL the changes of other processes arrive through
:mod:`ligretto.store.notify`, whose listener thread publishes them here too.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator
from typing import Any


class Subscription:
    """The versions of one game as they are committed; async-iterate to wait for them."""

    def __init__(self, hub: ChangeHub, game_id: str) -> None:
        self._hub = hub
        self.game_id = game_id
        self._loop = asyncio.get_running_loop()
        self._changed = asyncio.Event()
        self._latest = 0
        self._closed = False

    def _notify(self, version: int) -> None:  # runs on the subscriber's loop
        if version > self._latest:
            self._latest = version
            self._changed.set()

    def _close(self) -> None:  # runs on the subscriber's loop
        self._closed = True
        self._changed.set()

    def close(self) -> None:
        """Stop receiving; safe to call more than once."""
        self._hub._remove(self)
        self._closed = True
        self._changed.set()

    def __aiter__(self) -> AsyncIterator[int]:
        return self._versions()

    async def _versions(self) -> AsyncIterator[int]:
        while True:
            await self._changed.wait()
            self._changed.clear()
            if self._closed:
                return
            yield self._latest

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


class ChangeHub:
    """Who watches which game; ``publish`` is thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscriptions: dict[str, set[Subscription]] = {}
        self._closed = False

    def subscribe(self, game_id: str) -> Subscription:
        """Watch a game; call from the event loop that will iterate the subscription."""
        subscription = Subscription(self, game_id)
        with self._lock:
            if self._closed:
                subscription._closed = True
                subscription._changed.set()
            else:
                self._subscriptions.setdefault(game_id, set()).add(subscription)
        return subscription

    def _remove(self, subscription: Subscription) -> None:
        with self._lock:
            subs = self._subscriptions.get(subscription.game_id)
            if subs is not None:
                subs.discard(subscription)
                if not subs:
                    del self._subscriptions[subscription.game_id]

    def publish(self, game_id: str, version: int) -> None:
        """Tell every watcher of ``game_id`` about ``version`` (from any thread).

        One call into each subscriber's event loop, whatever the number of
        watchers there: a game with hundreds of them costs one wake-up.
        """
        with self._lock:
            subs = list(self._subscriptions.get(game_id, ()))
        by_loop: dict[asyncio.AbstractEventLoop, list[Subscription]] = {}
        for sub in subs:
            by_loop.setdefault(sub._loop, []).append(sub)
        for loop, group in by_loop.items():
            _call_soon(loop, _notify_all, group, version)

    def watched_games(self) -> list[str]:
        """The ids of the games somebody watches right now."""
        with self._lock:
            return list(self._subscriptions)

    def watchers(self, game_id: str) -> int:
        with self._lock:
            return len(self._subscriptions.get(game_id, ()))

    def close(self) -> None:
        """End every subscription (server shutdown) so streams finish cleanly."""
        with self._lock:
            self._closed = True
            subs = [s for group in self._subscriptions.values() for s in group]
            self._subscriptions.clear()
        for sub in subs:
            _call_soon(sub._loop, sub._close)


def _notify_all(subs: list[Subscription], version: int) -> None:  # on their loop
    for sub in subs:
        sub._notify(version)


def _call_soon(loop: asyncio.AbstractEventLoop, callback: Any, *args: object) -> None:
    # A RuntimeError means the subscriber's loop is gone: nobody listens any more.
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(callback, *args)
