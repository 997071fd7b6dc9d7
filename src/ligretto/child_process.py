"""A child process that is started, waited for until it is ready, and stopped.

For tests and benchmarks that need a real program beside them: ``ligretto
serve`` (:class:`~ligretto.serve_process.ServeProcess`), HAProxy in front of
several servers. The app itself never imports this module.

    child = ChildProcess(["haproxy", "-db", "-f", "haproxy.cfg"], log=Path("haproxy.log"))
    child.start(listening(8080), timeout=15)  # returns once the port accepts
    ...
    child.stop()  # SIGTERM, then SIGKILL if it has not ended after 10 s
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO

__all__ = ["ChildProcess", "Ready", "answers", "free_port", "listening"]

#: Asked over and over until the child is ready: true once it is.
Ready = Callable[[], bool]

_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never via a proxy


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def listening(port: int, host: str = "127.0.0.1") -> Ready:
    """Ready once ``host:port`` accepts a TCP connection."""

    def ready() -> bool:
        try:
            with socket.create_connection((host, port), timeout=1):
                return True
        except OSError:
            return False

    return ready


def answers(url: str) -> Ready:
    """Ready once a GET of ``url`` answers 200 (asked directly, never through a proxy)."""

    def ready() -> bool:
        try:
            with _DIRECT.open(url, timeout=1) as answer:
                return bool(answer.status == 200)
        except OSError:
            return False

    return ready


class ChildProcess:
    """One program run as a child: ``args``, with the environment ``env``.

    ``env`` is the child's whole environment (default: this process's). Its
    standard output and error are appended to ``log``, or dropped without
    one. :meth:`start` may be called again once the child has ended.
    """

    def __init__(
        self,
        args: Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        log: Path | None = None,
        name: str | None = None,
    ) -> None:
        self.args = list(args)
        self.env = None if env is None else dict(env)
        self.log = log
        self.name = name or os.path.basename(self.args[0])
        """What errors call the child (``ligretto serve``, ``haproxy``)."""
        self._popen: subprocess.Popen[bytes] | None = None

    def start(self, ready: Ready, timeout: float) -> None:
        """Start the child and wait until ``ready()``; stop it and raise if it never is.

        Raises :class:`RuntimeError` when the child exits first (with the end
        of its output, when it is kept) or is not ready within ``timeout`` s.
        """
        if self.running:
            raise RuntimeError(f"{self.name} is already running")
        output: IO[bytes] | int = subprocess.DEVNULL
        if self.log is not None:
            output = self.log.open("ab")
        try:
            self._popen = subprocess.Popen(
                self.args, env=self.env, stdout=output, stderr=subprocess.STDOUT
            )
        finally:
            if not isinstance(output, int):
                output.close()  # the child has its own copy
        deadline = time.monotonic() + timeout
        while True:
            code = self._popen.poll()
            if code is not None:
                said = self.output()[-2000:]
                raise RuntimeError(f"{self.name} exited at start ({code})" + (said and f": {said}"))
            if ready():
                return
            if time.monotonic() >= deadline:
                self.stop()
                raise RuntimeError(f"{self.name} was not ready within {timeout:g} s")
            time.sleep(0.05)

    @property
    def running(self) -> bool:
        return self._popen is not None and self._popen.poll() is None

    @property
    def pid(self) -> int:
        assert self._popen is not None, "not started"
        return self._popen.pid

    def send_signal(self, sig: int) -> None:
        """Send ``sig`` (``signal.SIGINT`` is Ctrl-C) if the child still runs."""
        if self.running:
            assert self._popen is not None
            self._popen.send_signal(sig)

    def wait(self, timeout: float) -> int:
        """Wait for the child to end; its return code (−N when signal N ended it)."""
        assert self._popen is not None, "not started"
        return self._popen.wait(timeout=timeout)

    def kill(self) -> None:
        """SIGKILL: the child gets no chance to finish anything."""
        if self.running:
            self.send_signal(signal.SIGKILL)
            self.wait(timeout=10)

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM and wait (a graceful end); SIGKILL after ``timeout`` s."""
        if self.running:
            self.send_signal(signal.SIGTERM)
            try:
                self.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()

    def output(self) -> str:
        """What the child wrote so far (to ``log``); empty without a log."""
        if self.log is None or not self.log.exists():
            return ""
        return self.log.read_text(errors="replace")

    def __enter__(self) -> ChildProcess:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
