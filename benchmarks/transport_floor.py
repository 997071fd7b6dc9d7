"""The floor under a move's server CPU: the sockets alone, no game, no web stack.

``benchmarks/live.py`` measures what a move costs the server: reading the
client's message, the rules, four views encoded and written (one to each
seat of a four-seat table), the journal.  This measures what is left when
everything but the sockets is taken away: a server process of a few lines
on uvloop's plain transports (the same event loop the server runs) that,
for each message a client sends, writes a message of ``--size`` bytes to
each of the ``--writes`` sockets of that client's group (a table's seats),
with nothing parsed, checked, built or stored.  The load is live.py's:
``--tables`` groups of four clients on 127.0.0.1, each client sending one
small message about every 2.4 s (a ``medium`` bot's pace), so messages
mostly arrive alone, one wake-up of the loop each.

No Python server with this protocol (a whole view to every seat, a
frame and a system call each) can answer a move for less than this; the
figure is set against the machine reference measured in the same run, as
live.py's is.

    .venv/bin/python benchmarks/transport_floor.py [--tables 250] [--seconds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import subprocess
import sys
from pathlib import Path
from typing import cast

import uvloop
from reference import reference_rate  # benchmarks/reference.py

from ligretto.child_process import free_port

# A client's move as live.py's clients send it: one small masked text frame.
MOVE = b"\x81\xb8\x00\x00\x00\x00" + b'{"type":"move","action":"play R3 row0 p1","ref":12345678}'


# ---------------------------------------------------------------- the server


class _Seat(asyncio.Protocol):
    """One client: each read is one move, answered to every seat of its group."""

    def __init__(self, groups: dict[int, list[asyncio.Transport]], answer: bytes, writes: int):
        self.groups = groups
        self.answer = answer
        self.writes = writes
        self.group: list[asyncio.Transport] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are asyncio's in all but their class.
        writer = cast(asyncio.Transport, transport)
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        # The group is the order of arrival: four connections a table.
        index = sum(len(g) for g in self.groups.values())
        self.group = self.groups.setdefault(index // 4, [])
        self.group.append(writer)

    def data_received(self, data: bytes) -> None:
        answer = self.answer
        for transport in self.group[: self.writes]:
            transport.write(answer)


def serve(port: int, size: int, writes: int) -> None:
    async def main() -> None:
        groups: dict[int, list[asyncio.Transport]] = {}
        # A server frame: two bytes of header and the 126 length form.
        answer = b"\x81\x7e" + size.to_bytes(2, "big") + b"x" * size
        loop = asyncio.get_running_loop()
        server = await loop.create_server(
            lambda: _Seat(groups, answer, writes), "127.0.0.1", port, backlog=4096
        )
        print("ready", flush=True)
        async with server:
            await server.serve_forever()

    uvloop.run(main())


# ---------------------------------------------------------------- the load


class _Client(asyncio.Protocol):
    def __init__(self, counts: list[int]) -> None:
        self.counts = counts

    def data_received(self, data: bytes) -> None:
        self.counts[0] += len(data)


async def load(port: int, tables: int, seconds: float, pid: int) -> tuple[int, float]:
    """Messages sent in the window and the server's CPU seconds in it."""
    loop = asyncio.get_running_loop()
    counts = [0]
    transports: list[asyncio.Transport] = []
    for _ in range(tables * 4):
        transport, _ = await loop.create_connection(lambda: _Client(counts), "127.0.0.1", port)
        transports.append(transport)
    await asyncio.sleep(1.0)
    sent = [0]
    rng = random.Random(7)

    running = True

    def send(transport: asyncio.Transport) -> None:
        if not running:
            return
        transport.write(MOVE)
        sent[0] += 1
        loop.call_later(rng.expovariate(1 / 2.4), send, transport)

    for transport in transports:
        loop.call_later(rng.uniform(0, 2.4), send, transport)
    await asyncio.sleep(3.0)  # everybody playing
    cpu, before = _cpu(pid), sent[0]
    await asyncio.sleep(seconds)
    moves, used = sent[0] - before, _cpu(pid) - cpu
    running = False
    for transport in transports:
        transport.close()
    return moves, used


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--size", type=int, default=1300, help="bytes of each answer")
    parser.add_argument("--writes", type=int, default=4, help="answers a move (seats)")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.size, args.writes)
        return
    if not 1 <= args.tables <= 5000 or not 126 <= args.size <= 65535 or not 1 <= args.writes <= 4:
        parser.error("--tables 1..5000, --size 126..65535, --writes 1..4")
    machine = reference_rate()
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            __file__,
            "--serve",
            str(port),
            "--size",
            str(args.size),
            "--writes",
            str(args.writes),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        server.stdout.readline()  # "ready"
        moves, used = uvloop.run(load(port, args.tables, args.seconds, server.pid))
    finally:
        server.terminate()
        server.wait(10)
    machine = (machine + reference_rate()) / 2
    per_move = used / max(1, moves)
    print(
        f"machine reference: {machine / 1e6:.2f} M steps per CPU second "
        "(benchmarks/reference.py, before and after the run)"
    )
    print(
        f"{args.tables} tables x 4 clients, {moves / args.seconds:.0f} moves/s, "
        f"{args.writes} answers of {args.size} bytes a move; server CPU "
        f"{used / args.seconds * 100:.0f} % of one core"
    )
    print(
        f"the sockets' floor per move: {per_move * 1e6:.0f} µs = "
        f"{per_move * machine / 1000:.2f} k reference steps"
    )


if __name__ == "__main__":
    main()
