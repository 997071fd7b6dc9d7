"""Durability: a server killed with SIGKILL amid round writes loses no acknowledged
round and leaves no half-written one (issue 3; SQLite WAL + synchronous=FULL)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ligretto.serve_process import ServeProcess, environment_without_database_url

pytestmark = pytest.mark.slow

PLAYERS = ["Anna", "Ben", "Cleo"]


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[ServeProcess]:
    env = environment_without_database_url()
    if not database_url.startswith("sqlite"):
        env["LIGRETTO_DATABASE_URL"] = database_url
    srv = ServeProcess(tmp_path, env)
    try:
        yield srv
    finally:
        srv.kill()


def _stacks(n: int) -> list[int]:
    # The caller rotates so that nobody runs away with the game (it stays open).
    return [0 if seat == n % 3 else 1 + (n + seat) % 9 for seat in range(3)]


def _middle(n: int) -> list[int]:
    return [10 - s + (n + seat) % 5 for seat, s in enumerate(_stacks(n))]


def test_sigkill_amid_round_writes_keeps_every_acknowledged_round(server: ServeProcess) -> None:
    base = server.start()
    created = httpx.post(
        f"{base}/api/games", json={"players": PLAYERS, "target": 1000}, timeout=10
    ).json()
    gid, auth = created["id"], {"Authorization": f"Bearer {created['edit_token']}"}
    acknowledged: dict[int, str] = {}  # round -> "stacks" or "complete"
    stop = threading.Event()

    def write_rounds() -> None:
        with httpx.Client(base_url=base, headers=auth, timeout=5) as client:
            n = 1
            while not stop.is_set():
                try:
                    opened = client.post(f"/api/games/{gid}/rounds", json={"stacks": _stacks(n)})
                    assert opened.status_code == 201, opened.text
                    acknowledged[n] = "stacks"
                    done = client.put(f"/api/games/{gid}/rounds/{n}", json={"middle": _middle(n)})
                    assert done.status_code == 200, done.text
                    acknowledged[n] = "complete"
                except httpx.TransportError:
                    return  # the server is gone
                n += 1

    writer = threading.Thread(target=write_rounds)
    writer.start()
    deadline = time.monotonic() + 30
    while len(acknowledged) < 40 and time.monotonic() < deadline and writer.is_alive():
        time.sleep(0.01)
    server.kill()  # SIGKILL in the middle of the stream
    stop.set()
    writer.join(timeout=15)
    assert len(acknowledged) >= 40

    base = server.start()
    game = httpx.get(f"{base}/api/games/{gid}", timeout=10).json()
    rounds = game["rounds"]
    last_acked = max(acknowledged)
    # Every acknowledged write is there; at most the one write in flight is
    # there without its acknowledgement.
    assert last_acked <= len(rounds) <= last_acked + 1
    for rnd in rounds:
        n = rnd["n"]
        assert list(rnd["stacks"].values()) == _stacks(n), n
        if acknowledged.get(n) == "complete":
            assert rnd["complete"], n
        if rnd["complete"]:
            assert list(rnd["middle"].values()) == _middle(n), n
        else:
            assert n == len(rounds), "only the last round can be pending"
    history = httpx.get(f"{base}/api/games/{gid}/history", timeout=10).json()
    assert [h["version"] for h in history] == list(range(1, game["version"] + 1))
    # The restarted server goes on where the table left off.
    expected_total = sum(
        m - 2 * s
        for r in rounds
        if r["complete"]
        for m, s in zip(r["middle"].values(), r["stacks"].values(), strict=True)
    )
    assert sum(game["totals"].values()) == expected_total
    server.stop()
