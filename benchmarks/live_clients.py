"""The load generator of ``benchmarks/live.py``: every seat of every table
a WebSocket client that plays like a person (a ``ligretto.bots`` strategy
at the bots' reaction time), and what they count.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from live_server import LoopLag, cpu_seconds  # benchmarks/live_server.py

from ligretto.bots import make_bot
from ligretto.live.client import view_from_dict

# --------------------------------------------------------------------------
# the clients
# --------------------------------------------------------------------------


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds, answered moves
    answered_at: list[float] = field(default_factory=list)  # when each was answered
    accepted: int = 0
    races_lost: int = 0
    other_refusals: int = 0
    connected: int = 0
    peak_connected: int = 0
    errors: int = 0
    # Each connection error by its kind (the exception's class and text).
    error_kinds: collections.Counter[str] = field(default_factory=collections.Counter)
    rounds_seen: int = 0
    window_start: float = 0.0
    window_end: float = 0.0
    lag: LoopLag = field(default_factory=LoopLag)
    # CPU seconds each server process and this one used in the measured window.
    window_cpu: list[float] = field(default_factory=list)
    window_client_cpu: float = 0.0

    def measuring(self, now: float) -> bool:
        return self.window_start <= now < self.window_end


async def _quietly(coroutine: Any) -> None:
    """A send or close that meets the socket already closed (the run is
    ending) is no error of the server's."""
    with contextlib.suppress(websockets.ConnectionClosed):
        await coroutine


class SeatClient:
    """One seat played like a person over its own WebSocket.

    It reads every message the server sends; when it may act, it decides
    from the view it has and sends the move after its reaction time (a
    timer, not a task waiting per message: the load generator must cost
    far less than what it measures).
    """

    def __init__(
        self,
        join: dict[str, Any],
        strategy: str,
        level: str,
        seed: int,
        stats: Stats,
        joined: asyncio.Event,
        go: asyncio.Event | None,
    ) -> None:
        self.join = join
        self.bot = make_bot(strategy, level)
        self.rng = random.Random(seed)
        self.stats = stats
        self.joined = joined
        self.go = go
        self.view: str | None = None  # the latest message carrying a view, unparsed
        self.playing = False
        self.timer: asyncio.TimerHandle | None = None  # the decided move's reaction time
        self.planned: str | None = None
        self.pending: tuple[int, float] | None = None  # (ref, sent at)
        self.ref = 0
        self.ws: Any = None
        self.tasks: set[asyncio.Task[None]] = set()

    async def run(self, url: str, stop_at: float) -> None:
        stats = self.stats
        loop = asyncio.get_running_loop()
        try:
            async with websockets.connect(url, max_size=2**20, compression=None) as ws:
                self.ws = ws
                stats.connected += 1
                stats.peak_connected = max(stats.peak_connected, stats.connected)
                stop = loop.call_later(max(0.0, stop_at - time.perf_counter()), self._stop)
                await ws.send(json.dumps({"v": 1, "type": "join", **self.join}))
                try:
                    async for raw in ws:
                        self._on_message(raw if isinstance(raw, str) else raw.decode())
                finally:
                    stop.cancel()
                    if self.timer is not None:
                        self.timer.cancel()
        except (OSError, websockets.WebSocketException) as exc:
            stats.errors += 1
            stats.error_kinds[f"{type(exc).__name__}: {exc}"[:100]] += 1
        finally:
            stats.connected -= 1

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(_quietly(coroutine))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _stop(self) -> None:
        self._spawn(self.ws.close())

    def _send_planned(self) -> None:
        self.timer = None
        if self.playing and self.planned is not None and self.pending is None:
            self.ref += 1
            self.pending = (self.ref, time.perf_counter())
            message = {"v": 1, "type": "move", "action": self.planned, "ref": self.ref}
            self._spawn(self.ws.send(json.dumps(message)))
        self.planned = None

    async def _start(self, go: asyncio.Event) -> None:
        await go.wait()
        await self.ws.send(json.dumps({"v": 1, "type": "start"}))

    def _on_message(self, text: str) -> None:
        stats = self.stats
        # The server writes fields in a fixed order ({"v":1,"type":…), so
        # the kind and the echoed ref are read without parsing the whole
        # message; a view is parsed only when this seat decides (a person,
        # too, looks up only when ready to act).
        kind = text[15 : text.index('"', 15)]
        pending = self.pending
        if kind == "events" or kind == "refused":
            if kind == "events":
                self.view = text
            # An event ends with its ref; a refusal has it before "action".
            mark = f'"ref":{pending[0]}' if pending is not None else ""
            if pending is not None and (
                text.endswith(mark + "}") or (kind == "refused" and mark + "," in text)
            ):
                answered = time.perf_counter()
                if stats.measuring(answered):
                    stats.latencies.append(answered - pending[1])
                    stats.answered_at.append(answered - stats.window_start)
                    if kind == "events":
                        stats.accepted += 1
                    elif '"code":"pile_taken"' in text:
                        stats.races_lost += 1
                    else:
                        stats.other_refusals += 1
                self.pending = None
        elif kind == "view":
            self.view = text
        elif kind == "table":
            self.playing = '"phase":"playing"' in text
        elif kind == "welcome":
            self.joined.set()
            if self.go is not None:
                self._spawn(self._start(self.go))
        elif kind == "round_over":
            if self.join.get("token"):
                stats.rounds_seen += 1
            self.planned = None
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
        if self.playing and self.view is not None and self.pending is None and self.timer is None:
            # Decide now from what this seat sees; act after the reaction
            # time (the card may be gone by then: R3).
            seen = view_from_dict(json.loads(self.view)["view"])
            action, delay = self.bot.timed(seen, self.rng)
            self.planned = None if action is None else str(action)
            self.timer = asyncio.get_running_loop().call_later(delay, self._send_planned)


async def _window_cpu(stats: Stats, pids: list[int]) -> None:
    """The CPU the servers and this process use in the measured window."""
    await asyncio.sleep(max(0.0, stats.window_start - time.perf_counter()))
    before = [cpu_seconds(pid) for pid in pids]
    client_before = time.process_time()
    await asyncio.sleep(max(0.0, stats.window_end - time.perf_counter()))
    stats.window_cpu = [cpu_seconds(pid) - b for pid, b in zip(pids, before, strict=True)]
    stats.window_client_cpu = time.process_time() - client_before


async def drive(
    base: str,
    tables: int,
    seats: int,
    seconds: float,
    level: str,
    ramp: float,
    pids: list[int],
) -> Stats:
    stats = Stats()
    ws_base = "ws" + base[4:]
    strategies = ["stack-first", "greedy", "watchful", "race-aware"]
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        created = []
        for t in range(tables):
            response = await http.post(
                "/api/tables",
                json={"seats": seats, "name": "P0", "end": {"mode": "rounds", "rounds": 100}},
            )
            response.raise_for_status()
            created.append(response.json())
            if t % 50 == 49:
                await asyncio.sleep(0)
    lag_task = asyncio.get_running_loop().create_task(stats.lag.run())
    start = time.perf_counter()
    stats.window_start = start + ramp + 4.0  # after the ramp and the first countdown
    stats.window_end = stats.window_start + seconds
    stop_at = stats.window_end + 0.5
    tasks = [asyncio.create_task(_window_cpu(stats, pids))]
    for t, table in enumerate(created):
        url = f"{ws_base}/play/{table['code']}/ws"
        go = asyncio.Event()
        joined_all = []
        for seat in range(seats):
            joined = asyncio.Event()
            joined_all.append(joined)
            join = {"token": table["host_token"]} if seat == 0 else {"name": f"P{seat}"}
            client = SeatClient(
                join,
                strategies[seat % len(strategies)],
                level,
                t * 100 + seat,
                stats,
                joined,
                go if seat == 0 else None,
            )
            tasks.append(asyncio.create_task(client.run(url, stop_at)))

        async def starter(events: list[asyncio.Event], go: asyncio.Event) -> None:
            for event in events:
                await event.wait()
            go.set()

        tasks.append(asyncio.create_task(starter(joined_all, go)))
        # Spread the connections over the ramp so the server is not hit at once.
        await asyncio.sleep(ramp / tables)
    await asyncio.wait(tasks, timeout=seconds + ramp + 30)
    for task in tasks:
        task.cancel()
    lag_task.cancel()
    return stats
