"""Following ``GET /api/lobby/events`` from a test: the lists it sends, one by one."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx

#: Seconds to wait for what must come (a busy machine is slower, never red).
WAIT = 30.0

Tables = list[dict[str, Any]]


class LobbyLists:
    """The tables of each ``event: lobby`` a stream sends, in order."""

    def __init__(self, stream: httpx.Response) -> None:
        assert stream.status_code == 200, stream.status_code
        assert stream.headers["content-type"].startswith("text/event-stream")
        self._lines = stream.iter_lines()

    def next(self, deadline: float) -> Tables:
        """The next list; every line (the server pings each 15 s) checks the deadline."""
        event = ""
        for line in self._lines:
            if time.monotonic() > deadline:
                break
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and event == "lobby":
                tables: Tables = json.loads(line.split(":", 1)[1])["tables"]
                return tables
            elif not line:
                event = ""
        raise AssertionError("the lobby stream sent no list in time")

    def until(self, holds: Callable[[Tables], bool], what: str) -> Tables:
        """The first list sent for which ``holds`` is true, within :data:`WAIT`."""
        deadline = time.monotonic() + WAIT
        while True:
            try:
                tables = self.next(deadline)
            except AssertionError:
                raise AssertionError(f"not sent within {WAIT:g} s: {what}") from None
            if holds(tables):
                return tables


def codes(tables: Tables) -> set[str]:
    return {table["code"] for table in tables}


@contextmanager
def following(client: httpx.Client) -> Iterator[LobbyLists]:
    """The lobby's stream, open on ``client`` for the ``with`` block."""
    with client.stream("GET", "/api/lobby/events") as stream:
        yield LobbyLists(stream)
