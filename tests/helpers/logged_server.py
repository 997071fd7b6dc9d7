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

from collections.abc import Iterator, Mapping
from pathlib import Path

from ligretto.child_process import free_port
from ligretto.serve_process import START_TIMEOUT, ServeProcess, environment_without_database_url


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
        child_env = environment_without_database_url()
        if database_url is not None:
            child_env["LIGRETTO_DATABASE_URL"] = database_url
        child_env.update(env or {})
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = ServeProcess(data_dir, child_env, log=log_path, port=self.port)

    def start(self, timeout: float = START_TIMEOUT) -> str:
        return self.server.start(timeout)

    @property
    def pid(self) -> int:
        return self.server.pid

    def kill(self) -> None:
        """SIGKILL: the server finishes nothing (a crash); the port stays this server's."""
        self.server.kill()

    def stop(self) -> None:
        """SIGTERM and wait (SIGKILL after 10 s); the port stays this server's."""
        self.server.stop()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


def running(
    folder: Path, *, database_url: str | None = None, env: Mapping[str, str] | None = None
) -> Iterator[LoggedServer]:
    """A fixture's server (``yield from running(folder, …)``): ``ligretto serve``
    on ``folder/data`` with its log in ``folder/server.log``, stopped after."""
    server = LoggedServer(
        folder / "data", folder / "server.log", database_url=database_url, env=env
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()
