"""The shipped ``deploy/haproxy.cfg`` run by a real HAProxy on free ports of 127.0.0.1.

The configuration is the shipped file with only its listening address and
its server lines replaced, so what the tests check is what is deployed.
HAProxy is Debian's package (``.ci/run`` installs it); without it the tests
that need it skip.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from ligretto.child_process import ChildProcess, free_port, listening

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "haproxy.cfg"


def haproxy_binary() -> str:
    """The ``haproxy`` program, or skip the test."""
    found = shutil.which("haproxy") or next(
        (p for p in ("/usr/sbin/haproxy",) if Path(p).is_file()), None
    )
    if found is None:
        pytest.skip("haproxy is not installed (apt-get install haproxy)")
    return found


def render_config(
    listen_port: int,
    servers: Sequence[int],
    bind_options: str = "",
    metrics_port: int | None = None,
    metrics_servers: Sequence[int] = (),
) -> str:
    """The shipped configuration listening on ``listen_port``, one server per port
    (and its local peer on a free port); ``bind_options`` are added to the
    ``bind`` line (``accept-proxy`` lets a test name the client's address).
    The ``metrics`` frontend listens on ``metrics_port`` (a free port if not
    given), with one server per port of ``metrics_servers`` (the shipped ones
    if none)."""
    text = CONFIG.read_text()
    bind = f"    bind 127.0.0.1:{listen_port} {bind_options}".rstrip()
    text, binds = re.subn(r"^    bind 127\.0\.0\.1:8000$", bind, text, flags=re.M)
    assert binds == 1, "deploy/haproxy.cfg: expected one `bind 127.0.0.1:8000` line"
    metrics_bind = f"    bind 127.0.0.1:{metrics_port or free_port()}"
    text, binds = re.subn(r"^    bind 127\.0\.0\.1:18000$", metrics_bind, text, flags=re.M)
    assert binds == 1, "deploy/haproxy.cfg: expected one `bind 127.0.0.1:18000` line"
    text, peers = re.subn(
        r"^    peer proxy1 127\.0\.0\.1:\d+$",
        f"    peer proxy1 127.0.0.1:{free_port()}",
        text,
        flags=re.M,
    )
    assert peers == 1, "deploy/haproxy.cfg: expected one `peer proxy1 127.0.0.1:PORT` line"
    lines = [f"    server p{n} 127.0.0.1:{port} id {n}" for n, port in enumerate(servers, start=1)]
    text, count = re.subn(r"(^    server p\d+ .*\n)+", "\n".join(lines) + "\n", text, flags=re.M)
    assert count == 1, "deploy/haproxy.cfg: expected one block of `server` lines"
    if metrics_servers:
        lines = [
            f"    server m{n} 127.0.0.1:{port} id {n}"
            for n, port in enumerate(metrics_servers, start=1)
        ]
        text, count = re.subn(
            r"(^    server m\d+ .*\n)+", "\n".join(lines) + "\n", text, flags=re.M
        )
        assert count == 1, "deploy/haproxy.cfg: expected one block of `server m…` lines"
    return text


class HAProxy:
    """``haproxy -db -f <rendered config>`` in the foreground; :meth:`stop` ends it."""

    def __init__(
        self,
        directory: Path,
        servers: Sequence[int],
        bind_options: str = "",
        rate_limits: bool = True,
        metrics_servers: Sequence[int] = (),
    ) -> None:
        self.binary = haproxy_binary()
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.metrics_port = free_port()
        self.metrics_url = f"http://127.0.0.1:{self.metrics_port}"
        """The ``metrics`` frontend (the processes' ``--metrics-address``)."""
        self.config = directory / "haproxy.cfg"
        self.config.write_text(
            render_config(self.port, servers, bind_options, self.metrics_port, metrics_servers)
        )
        self.log_path = directory / "haproxy.log"
        # The proxy's rate limits follow LIGRETTO_RATE_LIMITS as the processes'
        # do; set here, since the test suite turns the processes' off by default.
        self.env = os.environ | {"LIGRETTO_RATE_LIMITS": "1" if rate_limits else "0"}
        self.process = ChildProcess(
            [self.binary, "-db", "-f", str(self.config)],
            log=self.log_path,
            name="haproxy",
            env=self.env,
        )

    def start(self, timeout: float = 15.0) -> str:
        checked = subprocess.run(
            [self.binary, "-c", "-q", "-f", str(self.config)],
            capture_output=True,
            check=False,
            env=self.env,
        )
        assert checked.returncode == 0, checked.stderr.decode(errors="replace")
        self.process.start(listening(self.port), timeout)
        return self.url

    def stop(self) -> None:
        self.process.stop()

    def log(self) -> str:
        return self.process.output()
