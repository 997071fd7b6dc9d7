"""``/g/{id}/board/events``: the watch page is sent the board itself (T6, live board).

The stream sends the board whenever the game is newer than the page, once
rendered for all watchers of a version; these tests run a real server
(streams need a socket) and read the stream as a browser would.
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import httpx
import pytest
from sqlalchemy.engine import Engine

from ligretto.serve_process import ServerThread
from ligretto.store import ChangeHub, TafelService
from ligretto.store.hub import _notify_all
from ligretto.web.app import create_app
from ligretto.web.pages import board_push
from ligretto.web.pages.board import render_fragment
from ligretto.web.pages.board_push import BoardRenderer
from ligretto.web.settings import Settings


@pytest.fixture
def running(database_url: str, tmp_path: Path) -> Iterator[tuple[str, TafelService, ServerThread]]:
    app = create_app(Settings(data_dir=tmp_path, database_url=database_url, rate_limits=False))
    thread = ServerThread(app, graceful_seconds=2)
    base = thread.start()
    try:
        yield base, app.state.tafel, thread
    finally:
        thread.stop()


@pytest.fixture
def server(running: tuple[str, TafelService, ServerThread]) -> tuple[str, TafelService]:
    return running[0], running[1]


def _events(lines: Iterator[str]) -> Iterator[tuple[str, str | None, dict[str, object]]]:
    """(event, id, data) of each server-sent event; pings are skipped."""
    event, event_id = "", None
    for line in lines:
        if line.startswith("id:"):
            event_id = line.split(":", 1)[1].strip()
        elif line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event:
            yield event, event_id, json.loads(line.split(":", 1)[1])
            event, event_id = "", None


def _game(client: httpx.Client) -> tuple[str, dict[str, str]]:
    created = client.post("/api/games", json={"players": ["Anna", "Ben", "Cleo"]}).json()
    return created["id"], {"Authorization": f"Bearer {created['edit_token']}"}


def _board_html(service: TafelService, gid: str, language: str = "en") -> str:
    return render_fragment(service.get_game(gid), language, None)[0]


def test_t6_up_to_date_page_hears_the_version_then_gets_each_new_board(
    server: tuple[str, TafelService],
) -> None:
    base, service = server
    with httpx.Client(base_url=base, timeout=10) as client:
        gid, auth = _game(client)
        with client.stream("GET", f"/g/{gid}/board/events?v=1") as stream:
            assert stream.status_code == 200
            events = _events(stream.iter_lines())
            assert next(events) == ("version", "1", {"id": gid, "version": 1})
            opened = client.post(
                f"/api/games/{gid}/rounds", json={"stacks": [0, 3, 5]}, headers=auth
            )
            assert opened.status_code == 201
            kind, event_id, data = next(events)
            assert (kind, event_id, data["version"]) == ("board", "2", 2)
            # The board the watch page's own fragment shows, and no edit link.
            assert data["html"] == _board_html(service, gid)
            fragment = client.get(f"/g/{gid}/board")
            assert data["info"] == json.loads(unquote(fragment.headers["X-Game-Info"]))
            assert "edit" not in data["info"]  # type: ignore[operator]
            assert "waiting for the middle" in str(data["html"])


def test_t6_page_behind_gets_the_newest_board_at_connect(
    server: tuple[str, TafelService],
) -> None:
    base, service = server
    with httpx.Client(base_url=base, timeout=10) as client:
        gid, auth = _game(client)
        client.post(f"/api/games/{gid}/rounds", json={"stacks": [0, 3, 5]}, headers=auth)
        client.put(f"/api/games/{gid}/rounds/1", json={"middle": [12, 9, 6]}, headers=auth)
        # A page drawn at version 1 (or a browser back with Last-Event-ID 1).
        for url, headers in (
            (f"/g/{gid}/board/events?v=1", {}),
            (f"/g/{gid}/board/events", {"Last-Event-ID": "1"}),
        ):
            with client.stream("GET", url, headers=headers) as stream:
                kind, event_id, data = next(_events(stream.iter_lines()))
                assert (kind, event_id, data["version"]) == ("board", "3", 3)
                assert data["html"] == _board_html(service, gid)


def test_gzipped_board_is_the_same_html(server: tuple[str, TafelService]) -> None:
    base, service = server
    with httpx.Client(base_url=base, timeout=10) as client:
        gid, _ = _game(client)
        with client.stream(
            "GET", f"/g/{gid}/board/events?v=0&z=gzip", headers={"Accept-Language": "de"}
        ) as stream:
            kind, _, data = next(_events(stream.iter_lines()))
        assert kind == "board" and "html" not in data
        html = gzip.decompress(base64.b64decode(str(data["gz"]))).decode()
        assert html == _board_html(service, gid, "de")  # in the page's language


def test_board_events_refuse_what_they_cannot_serve(server: tuple[str, TafelService]) -> None:
    base, _ = server
    with httpx.Client(base_url=base, timeout=10) as client:
        assert client.get("/g/nope/board/events").status_code == 404
        gid, _ = _game(client)
        assert client.get(f"/g/{gid}/board/events?z=brotli").status_code == 422
        assert client.get(f"/g/{gid}/board/events?v=x").status_code == 422


def test_server_with_open_board_streams_stops_promptly(
    running: tuple[str, TafelService, ServerThread],
) -> None:
    base, _, thread = running
    with httpx.Client(base_url=base, timeout=10) as client:
        gid, _ = _game(client)
        with client.stream("GET", f"/g/{gid}/board/events?v=1") as stream:
            assert next(_events(stream.iter_lines()))[0] == "version"
            thread.stop()
            assert not thread.thread.is_alive()


# --------------------------------------------------------------------------
# the renderer: once per version for every watcher, at most once per interval
# --------------------------------------------------------------------------


class CountingService:
    """A service whose reads are counted (and can be held up)."""

    def __init__(self, service: TafelService) -> None:
        self.service = service
        self.reads = 0
        self.gate = threading.Event()
        self.gate.set()

    def get_game(self, game_id: str) -> Any:
        self.reads += 1
        self.gate.wait(10)
        return self.service.get_game(game_id)


@pytest.fixture
def service(engine: Engine) -> TafelService:
    return TafelService(engine)


def test_many_watchers_of_one_version_share_one_rendering(service: TafelService) -> None:
    created = service.create_game(["Anna", "Ben"])
    gid = created.stored.id
    counting = CountingService(service)
    renderer = BoardRenderer(counting, interval=0.0)  # type: ignore[arg-type]

    async def watchers() -> list[int]:
        counting.gate.clear()  # the first rendering takes its time
        waiting = [asyncio.ensure_future(renderer.board(gid, "en", 1)) for _ in range(300)]
        await asyncio.sleep(0.05)  # at least a turn each: ready tasks run before timers
        counting.gate.set()
        return [event.version for event in await asyncio.gather(*waiting)]

    assert asyncio.run(watchers()) == [1] * 300
    assert counting.reads == 1


def test_boards_are_rendered_at_most_once_per_interval(service: TafelService) -> None:
    created = service.create_game(["Anna", "Ben"])
    gid, token = created.stored.id, created.edit_token
    counting = CountingService(service)
    now = [100.0]
    renderer = BoardRenderer(counting, interval=0.2, clock=lambda: now[0])  # type: ignore[arg-type]

    async def scenario() -> tuple[int, int, int]:
        first = await renderer.board(gid, "en", 1)
        service.open_round(gid, token, [0, 4])  # version 2, at once after the first
        asked = asyncio.get_running_loop().time()
        second = await renderer.board(gid, "en", 2)
        waited = asyncio.get_running_loop().time() - asked
        assert waited >= 0.15  # the next rendering waited for its turn
        assert renderer.newest(gid, "en") is second
        again = await renderer.board(gid, "en", 2)  # kept: no rendering
        assert again is second
        return first.version, second.version, counting.reads

    assert asyncio.run(scenario()) == (1, 2, 2)


def test_a_write_wakes_a_crowd_of_watchers_with_one_call() -> None:
    hub = ChangeHub()

    async def scenario() -> list[int]:
        loop = asyncio.get_running_loop()
        calls = 0
        original = loop.call_soon_threadsafe

        def counted(callback: Any, *args: Any, **kwargs: Any) -> Any:
            nonlocal calls
            if callback is _notify_all:  # not the thread's own result
                calls += 1
            return original(callback, *args, **kwargs)

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign,assignment]
        subs = [hub.subscribe("g") for _ in range(200)]
        heard = [asyncio.ensure_future(anext(aiter(sub))) for sub in subs]
        await asyncio.sleep(0)
        await asyncio.to_thread(hub.publish, "g", 7)
        versions = await asyncio.gather(*heard)
        assert calls == 1
        for sub in subs:
            sub.close()
        return versions

    assert asyncio.run(scenario()) == [7] * 200


def test_a_board_is_encoded_only_in_the_forms_its_watchers_asked_for(
    service: TafelService,
) -> None:
    created = service.create_game(["Anna", "Ben"])
    gid, token = created.stored.id, created.edit_token
    service.open_round(gid, token, [0, 4])
    counting = CountingService(service)
    now = [100.0]
    renderer = BoardRenderer(counting, interval=60.0, clock=lambda: now[0])  # type: ignore[arg-type]

    async def scenario() -> tuple[Any, Any]:
        packed = await renderer.board(gid, "en", 2, gzipped=True)
        assert packed.data is None  # nobody asked for the HTML as it is
        assert renderer.newest(gid, "en", gzipped=False) is None
        # A first watcher without gzip gets its board at once, not after
        # the interval, and from then on both forms are made.
        plain = await renderer.board(gid, "en", 2)
        assert counting.reads == 2
        assert renderer.newest(gid, "en", gzipped=True) is plain
        return packed, plain

    packed, plain = asyncio.run(scenario())
    html = json.loads(plain.encoded(False).split(b"data: ", 1)[1])["html"]
    body = json.loads(packed.encoded(True).split(b"data: ", 1)[1])
    assert gzip.decompress(base64.b64decode(body["gz"])).decode() == html
    assert html == render_fragment(service.get_game(gid), "en", None)[0]
    with pytest.raises(LookupError):
        packed.encoded(False)  # the form nobody had asked for then


def test_the_watchers_of_a_rendering_get_it_one_after_another_within_their_spread(
    service: TafelService,
) -> None:
    """Each watcher of one rendering is handed it at a moment of its own
    within ``spread``: the moments the renderer sets (its timers), not the
    moments a busy machine gets round to, are what is checked."""
    created = service.create_game(["Anna", "Ben"])
    gid = created.stored.id
    counting = CountingService(service)
    renderer = BoardRenderer(counting, interval=0.0)  # type: ignore[arg-type]

    async def watchers() -> tuple[list[Any], list[float]]:
        loop = asyncio.get_running_loop()
        delays: list[float] = []
        call_later = loop.call_later

        def noted(delay: float, callback: Any, *args: Any) -> asyncio.TimerHandle:
            if callback is board_push._settle:
                delays.append(delay)
            return call_later(delay, callback, *args)

        loop.call_later = noted  # type: ignore[method-assign,assignment]
        counting.gate.clear()  # every watcher waits for the one rendering
        waiting = [
            asyncio.ensure_future(renderer.board(gid, "en", 1, gzipped=True, spread=0.3))
            for _ in range(40)
        ]
        await asyncio.sleep(0.05)  # at least a turn each: ready tasks run before timers
        counting.gate.set()
        return await asyncio.gather(*waiting), delays

    events, delays = asyncio.run(watchers())
    assert counting.reads == 1
    assert len(events) == 40 and all(event is events[0] for event in events)
    assert len(delays) == 40 and all(0.0 <= d <= 0.3 for d in delays), delays
    assert max(delays) - min(delays) >= 0.1  # spread out, not all in one instant
