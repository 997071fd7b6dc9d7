"""A real HTTP server on a free port of 127.0.0.1, for tests and benchmarks.

:class:`ServeProcess` runs ``ligretto serve`` as a child process — to kill
it mid-write, to stop it with Ctrl-C, to time requests over real HTTP.
:class:`ServerThread` runs an app under uvicorn in a thread of this process
(a browser or a streaming client needs a real socket, and the test can still
reach the app's state). The app itself never imports this module.

    with ServeProcess(data_dir) as server:
        base = server.start()  # "http://127.0.0.1:<port>", once it answers
        ...

Starting, waiting for and stopping the child is :mod:`ligretto.child_process`.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from ligretto.child_process import ChildProcess, answers, free_port


def environment_without_database_url() -> dict[str, str]:
    """This process's environment minus ``LIGRETTO_DATABASE_URL`` (so: SQLite)."""
    return {k: v for k, v in os.environ.items() if k != "LIGRETTO_DATABASE_URL"}


#: How long a server may take to answer after it starts. Seconds when the
#: machine is idle; a pure build on two loaded cores (its imports, the
#: migrations, the OpenAPI document prepared before serving) took over 30.
#: Only a server that never starts waits this long.
START_TIMEOUT = 120.0


class ServeProcess:
    """``python -m ligretto.cli serve --port <port> --data-dir <data_dir>``.

    ``env`` is the child's whole environment; by default this process's
    without ``LIGRETTO_DATABASE_URL``, so the server uses SQLite in
    ``data_dir``. :meth:`start` may be called again after :meth:`kill` or
    :meth:`stop`: a restart with the same data, on a new free port unless
    ``port`` fixes one for the server's life.
    """

    def __init__(
        self,
        data_dir: Path,
        env: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
        *,
        log: Path | None = None,
        port: int | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.env = dict(environment_without_database_url() if env is None else env)
        self.args = list(args)
        """More options of ``ligretto serve`` (``--trusted-proxy``, ``--process-id`` …)."""
        self.log = log
        """Where the server's output goes (appended); nowhere without it."""
        self.process: ChildProcess | None = None
        self.fixed_port = port
        self.port = port or 0
        self.base = f"http://127.0.0.1:{port}" if port else ""

    def start(self, timeout: float = START_TIMEOUT) -> str:
        """Start the server and wait until it answers; return its base URL."""
        port = self.fixed_port or free_port()
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.process = ChildProcess(
            [
                sys.executable,
                "-m",
                "ligretto.cli",
                "serve",
                "--port",
                str(port),
                "--data-dir",
                str(self.data_dir),
                *self.args,
            ],
            env=self.env,
            log=self.log,
            name="ligretto serve",
        )
        self.process.start(answers(f"{self.base}/openapi.json"), timeout)
        return self.base

    @property
    def pid(self) -> int:
        assert self.process is not None, "not started"
        return self.process.pid

    def kill(self) -> None:
        """SIGKILL: the server gets no chance to finish anything."""
        if self.process is not None:
            self.process.kill()

    def stop(self) -> None:
        """SIGTERM and wait (a graceful shutdown); SIGKILL after 10 s."""
        if self.process is not None:
            self.process.stop()

    def __enter__(self) -> ServeProcess:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


class ServerThread:
    """``app`` under uvicorn on a free 127.0.0.1 port, in a daemon thread.

    ``url`` is known before :meth:`start`; :meth:`stop` asks uvicorn to shut
    down (open streams get ``graceful_seconds``) and waits for the thread.
    """

    def __init__(self, app: Any, *, graceful_seconds: int = 1) -> None:
        import uvicorn  # only here: the child-process helper needs no uvicorn

        from ligretto.web.server_options import uvicorn_options

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            timeout_graceful_shutdown=graceful_seconds,
            **uvicorn_options(),
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self, timeout: float = START_TIMEOUT) -> str:
        """Start serving and wait until uvicorn listens; return the base URL."""
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server thread did not start")
            time.sleep(0.02)
        return self.url

    def stop(self, timeout: float = 60.0) -> None:
        # Generous: open streams are cut after ``graceful_seconds``, but the
        # app's shutdown (tables, the board process) may wait for a core on
        # a loaded machine; a server that never stops still fails its test.
        self.server.should_exit = True
        self.thread.join(timeout=timeout)
