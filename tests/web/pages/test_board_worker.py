"""The watchers' boards rendered in a process of its own (``pages/board_worker.py``).

The process renders what a thread renders, a dead process costs no board,
it is started by the first watcher (not by the first change) and has its
templates compiled before a real board, and it never outlives its server:
not on a graceful stop, not when the server is killed.
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import json
import os
import signal
import time
from pathlib import Path

import httpx
import pytest

from ligretto.serve_process import ServeProcess, environment_without_database_url
from ligretto.store import StoredGame, TafelService
from ligretto.web.i18n import LANGUAGES
from ligretto.web.pages.board import render_fragment
from ligretto.web.pages.board_worker import BoardWorkers, GameSnapshot, _warm_up
from ligretto.web.rendering import environment


@pytest.fixture
def played(engine: object) -> StoredGame:
    service = TafelService(engine)  # type: ignore[arg-type]
    created = service.create_game(["Anna", "Ben", "Cleo"], target=99)
    gid, token = created.stored.id, created.edit_token
    for n in range(1, 8):
        caller = n % 3
        service.open_round(gid, token, [0 if seat == caller else 4 for seat in range(3)])
        if n < 7:
            middle = [9 if seat == caller else 3 for seat in range(3)]
            service.put_round(gid, token, n, middle=middle, confirm=True)
    return service.get_game(gid)


def _html(event: bytes | None, *, packed: bool) -> str:
    assert event is not None
    body = json.loads(event.split(b"data: ", 1)[1])
    return gzip.decompress(base64.b64decode(body["gz"])).decode() if packed else body["html"]


def test_a_snapshot_is_the_game_it_was_taken_of(played: StoredGame) -> None:
    again = GameSnapshot.of(played).stored()
    assert again.game.rounds == played.game.rounds
    assert again.game.totals == played.game.totals
    assert render_fragment(again, "de", None) == render_fragment(played, "de", None)


def test_the_process_renders_what_a_thread_renders(played: StoredGame) -> None:
    both = frozenset({False, True})
    processes = BoardWorkers(1)

    async def render() -> tuple[object, object]:
        try:
            first = await processes.encode(played, "nb", both)  # while it starts: a thread
            assert len(processes.pids()) == 1  # started with the first board
            await asyncio.wrap_future(processes.start())  # type: ignore[arg-type]
            in_process = await processes.encode(played, "nb", both)
            assert first == in_process
            in_thread = await BoardWorkers(0).encode(played, "nb", both)
            return in_process, in_thread
        finally:
            processes.close()

    in_process, in_thread = asyncio.run(render())
    assert in_process == in_thread
    expected = render_fragment(played, "nb", None)[0]
    assert _html(in_process.plain, packed=False) == expected  # type: ignore[attr-defined]
    assert _html(in_process.packed, packed=True) == expected  # type: ignore[attr-defined]


def test_a_dead_process_costs_no_board_and_the_next_one_starts_anew(played: StoredGame) -> None:
    workers = BoardWorkers(1)

    async def scenario() -> tuple[int, int]:
        try:
            await asyncio.wrap_future(workers.start())  # type: ignore[arg-type]
            await workers.encode(played, "en", frozenset({True}))
            (first,) = workers.pids()
            os.kill(first, signal.SIGKILL)
            # Whether the pool has noticed yet or not (a submit to a broken
            # pool fails at once, a task of a dying one fails with it): a
            # board in a thread.
            board = await workers.encode(played, "en", frozenset({True}))
            assert _html(board.packed, packed=True) == render_fragment(played, "en", None)[0]
            await asyncio.wrap_future(workers.start())  # type: ignore[arg-type]  # a new one
            await workers.encode(played, "en", frozenset({True}))
            (second,) = workers.pids()
            assert second != first
            return workers.restarts, second
        finally:
            workers.close()

    restarts, _ = asyncio.run(scenario())
    assert restarts == 1


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(child) for child in text]
    return found


def _gone(pid: int) -> bool:
    """Exited: no such process any more, or only its exit status left (a zombie)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("ending", ["SIGTERM", "SIGKILL"])
def test_the_board_process_ends_with_its_server(tmp_path: Path, ending: str) -> None:
    with ServeProcess(tmp_path, environment_without_database_url()) as server:
        base = server.start()
        created = httpx.post(f"{base}/api/games", json={"players": ["Anna", "Ben"]}).json()
        gid = created["id"]
        headers = {"Authorization": f"Bearer {created['edit_token']}"}
        httpx.post(f"{base}/api/games/{gid}/rounds", json={"stacks": [0, 4]}, headers=headers)
        # A watch page behind by one version: its board is rendered at once.
        url = f"{base}/g/{gid}/board/events?v=1&z=gzip"
        with httpx.stream("GET", url, timeout=10) as stream:
            for line in stream.iter_lines():
                if line.startswith("event: board"):
                    break
        children = _children(server.pid)
        assert children, "the board was rendered without its process"
        if ending == "SIGKILL":
            server.kill()
        else:
            server.stop()
        # A bound for a machine under load, not a speed: it ends in well
        # under a second on a quiet one.
        deadline = time.monotonic() + 30
        while not all(_gone(child) for child in children) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert all(_gone(child) for child in children)


def test_the_warm_up_compiles_the_board_templates_in_every_language() -> None:
    environment.cache_clear()  # as in a process that has drawn nothing yet
    _warm_up()
    for language in LANGUAGES:
        cache = environment(language).cache
        assert cache is not None
        compiled = {key[1] for key in cache}  # (loader, name)
        assert {"_board.html", "_board_rest.html"} <= compiled, language


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_the_first_watcher_starts_the_board_process_before_any_change(tmp_path: Path) -> None:
    with ServeProcess(tmp_path, environment_without_database_url()) as server:
        base = server.start()
        gid = httpx.post(f"{base}/api/games", json={"players": ["Anna", "Ben"]}).json()["id"]
        assert _children(server.pid) == []  # nobody watches: no process
        # An up-to-date watch page: it is sent the version, no board.
        url = f"{base}/g/{gid}/board/events?v=1&z=gzip"
        with httpx.stream("GET", url, timeout=10) as stream:
            for line in stream.iter_lines():
                if line.startswith("event:"):
                    assert line == "event: version"
                    break
            deadline = time.monotonic() + 10
            while not _children(server.pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert _children(server.pid), "a watcher connected, yet no board process started"
