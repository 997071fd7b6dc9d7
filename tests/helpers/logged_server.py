"""``ligretto serve`` as a child process whose log is kept, on one port for its life.

The browser tests of offline use and of the edit token need the real
server: its access log (what a host's log would keep) and a stop and a
restart at the same address (a phone's service worker and its stored
entries belong to the origin, so the port must not change).

The tests of tables that outlive the server also stop it the hard way
(:meth:`LoggedServer.kill`, SIGKILL) and run it on PostgreSQL
(``database_url``, passed as ``LIGRETTO_DATABASE_URL``).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import IO

from ligretto.serve_process import environment_without_database_url, free_port

_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class LoggedServer:
    """Start, stop and restart ``ligretto serve`` on a fixed port; its output in ``log_path``.

    By default the server uses SQLite in ``data_dir``; ``database_url``
    selects another database (``LIGRETTO_DATABASE_URL``), ``env`` adds
    variables to the child's environment.
    """

    def __init__(
        self,
        data_dir: Path,
        log_path: Path,
        *,
        database_url: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.log_path = log_path
        self.env = environment_without_database_url()
        if database_url is not None:
            self.env["LIGRETTO_DATABASE_URL"] = database_url
        self.env.update(env or {})
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    def start(self, timeout: float = 30.0) -> str:
        self._log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ligretto.cli",
                "serve",
                "--port",
                str(self.port),
                "--data-dir",
                str(self.data_dir),
            ],
            env=self.env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"ligretto serve exited at start ({self.process.returncode})")
            try:
                with _DIRECT.open(f"{self.url}/openapi.json", timeout=1) as answer:
                    if answer.status == 200:
                        return self.url
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"ligretto serve did not answer within {timeout:g} s")

    @property
    def pid(self) -> int:
        assert self.process is not None, "not started"
        return self.process.pid

    def kill(self) -> None:
        """SIGKILL: the server finishes nothing (a crash); the port stays this server's."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        if self._log is not None:
            self._log.close()
            self._log = None

    def stop(self) -> None:
        """SIGTERM and wait (SIGKILL after 10 s); the port stays this server's."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if self._log is not None:
            self._log.close()
            self._log = None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")
