"""A client on a bare socket: what no client library sends, and when the answer came.

The tests of a process's bounds send endless headers, bodies a byte at a
time, more than the server will read. :class:`Exchange` sends from the
test's thread while a thread of its own reads the answer, and keeps count:
how many bytes had been sent when the answer's first byte came, how many
the server let it send in all, and how the connection ended (the server's
orderly end, ``eof``, or a ``reset``). :class:`HealthProbe` asks
``/healthz`` meanwhile, from another connection.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any

import httpx

WAIT = 30.0
"""Seconds to wait for what must happen; never a speed claim."""


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    """A connection to the server on 127.0.0.1:*port* from the local address *source*."""
    connection = socket.create_connection(
        ("127.0.0.1", port), timeout=WAIT, source_address=(source, 0)
    )
    connection.settimeout(WAIT)
    return connection


def request_head(method: str, path: str, headers: dict[str, str] | None = None) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def chunked(pieces: Iterable[bytes]) -> Iterator[bytes]:
    """*pieces* in HTTP's chunked framing (without the last, empty chunk)."""
    for piece in pieces:
        yield b"%x\r\n%s\r\n" % (len(piece), piece)


def pieces(data: bytes, size: int = 64 * 1024) -> Iterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start : start + size]


class Exchange:
    """One connection: the test sends, a thread reads the answer until the connection ends."""

    def __init__(self, port: int, source: str = "127.0.0.1") -> None:
        self.socket = connect(port, source)
        self.sent = 0
        self.sent_at_answer: int | None = None
        self.answer = bytearray()
        self.ended = ""
        """``eof`` (the server ended its side in order), ``reset`` or ``timeout``."""
        self.done = threading.Event()
        self.answered = threading.Event()
        self._sending = 0
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        try:
            while True:
                data = self.socket.recv(65536)
                if not data:
                    self.ended = "eof"
                    break
                if self.sent_at_answer is None:
                    self.sent_at_answer = self.sent + self._sending
                self.answer += data
                self.answered.set()
        except ConnectionResetError:
            self.ended = "reset"
        except TimeoutError:
            self.ended = "timeout"
        except OSError as error:
            self.ended = f"error {error}"
        finally:
            self.answered.set()
            self.done.set()

    def send(self, data: bytes) -> bool:
        """Send *data*; False once the server no longer takes any."""
        self._sending = len(data)
        try:
            self.socket.sendall(data)
        except OSError:
            return False
        finally:
            self._sending = 0
        self.sent += len(data)
        return True

    def send_all(self, data: Iterable[bytes], pause: float = 0.0) -> None:
        """Send each piece of *data*, *pause* seconds apart, until the server takes no more.

        Sending goes on after the answer came: what the server still lets
        in shows whether it reads the rest.
        """
        for piece in data:
            if not self.send(piece):
                return
            if pause:
                time.sleep(pause)

    def wait(self, timeout: float = WAIT) -> bool:
        """Whether the connection ended within *timeout*."""
        return self.done.wait(timeout)

    @property
    def status(self) -> int:
        line = bytes(self.answer).split(b"\r\n", 1)[0]
        return int(line.split()[1]) if line.startswith(b"HTTP/1.1 ") else 0

    @property
    def headers(self) -> dict[str, str]:
        head = bytes(self.answer).split(b"\r\n\r\n", 1)[0].decode("latin-1")
        fields = (line.split(":", 1) for line in head.split("\r\n")[1:] if ":" in line)
        return {name.strip().lower(): value.strip() for name, value in fields}

    @property
    def body(self) -> bytes:
        return bytes(self.answer).split(b"\r\n\r\n", 1)[1]

    def json(self) -> Any:
        return json.loads(self.body)

    def close(self) -> None:
        with contextlib.suppress(OSError):  # unless the server closed it already
            self.socket.shutdown(socket.SHUT_RDWR)  # wakes the reader's recv
        self.socket.close()
        self._reader.join(WAIT)

    def __enter__(self) -> Exchange:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


class HealthProbe:
    """Asks ``/healthz`` every *interval* seconds from a thread; keeps every status."""

    def __init__(self, base: str, interval: float = 0.05, source: str = "127.0.0.1") -> None:
        transport = httpx.HTTPTransport(local_address=source)
        self.client = httpx.Client(base_url=base, timeout=WAIT, transport=transport)
        self.interval = interval
        self.statuses: list[int] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stopping.is_set():
            try:
                self.statuses.append(self.client.get("/healthz").status_code)
            except httpx.HTTPError:
                self.statuses.append(0)
            self.stopping.wait(self.interval)

    def answered(self, more: int = 1) -> None:
        """Wait until *more* answers have come after those so far."""
        target = len(self.statuses) + more
        deadline = time.monotonic() + WAIT
        while len(self.statuses) < target and time.monotonic() < deadline:
            time.sleep(0.01)

    def __enter__(self) -> HealthProbe:
        self.thread.start()
        self.answered()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stopping.set()
        self.thread.join(WAIT)
        self.client.close()
