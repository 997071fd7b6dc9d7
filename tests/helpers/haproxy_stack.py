"""Two server processes behind the shipped HAProxy on one PostgreSQL (the deploy tests' stack)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from helpers.haproxy import HAProxy
from ligretto.serve_process import ServeProcess, environment_without_database_url

WAIT = 15.0  # seconds to wait for what must happen; never a speed claim
LOOKUPS_PER_MINUTE = 20


@dataclass
class Stack:
    """Processes ``proc-a`` and ``proc-b`` behind one HAProxy."""

    a: ServeProcess
    b: ServeProcess
    proxy: HAProxy
    database_url: str

    def stop(self) -> None:
        self.proxy.stop()
        for process in (self.a, self.b):
            process.stop()


def client(
    base: str, source: str = "127.0.0.2", timeout: float = 10, **kwargs: Any
) -> httpx.Client:
    """An HTTP client whose requests come from the loopback address ``source``."""
    transport = httpx.HTTPTransport(local_address=source)
    return httpx.Client(
        base_url=base, transport=transport, trust_env=False, timeout=timeout, **kwargs
    )


def start_stack(
    tmp_path: Path, database_url: str, extra_env: dict[str, str] | None = None
) -> Stack:
    env = environment_without_database_url()
    env |= extra_env or {}
    env |= {
        "LIGRETTO_DATABASE_URL": database_url,
        "LIGRETTO_RATE_LIMITS": "1",
        "LIGRETTO_RATE_TABLE_LOOKUP": f"{LOOKUPS_PER_MINUTE}/minute",
        "LIGRETTO_RATE_CREATE_TABLE": "1000/minute",
        "LIGRETTO_RATE_CREATE_GAME": "1000/minute",
    }
    processes = []
    try:
        for name in ("proc-a", "proc-b"):
            args = ["--trusted-proxy", "127.0.0.1", "--process-id", name]
            process = ServeProcess(tmp_path / name, env, args)
            processes.append(process)
            process.start()
        a, b = processes
        proxy = HAProxy(tmp_path, [a.port, b.port])  # skips the test when haproxy is missing
    except BaseException:
        for process in processes:  # a skip, too, must not leave servers running
            process.stop()
        raise
    stack = Stack(a, b, proxy, database_url)
    try:
        proxy.start()
        wait_until(lambda: health(a.base)["live_updates"] == "listening")
        wait_until(lambda: health(b.base)["live_updates"] == "listening")
        seen: set[str] = set()

        def proxy_reaches_both() -> bool:  # round robin
            with client(proxy.url) as through:
                seen.add(through.get("/healthz").json()["process"])
            return len(seen) == 2

        wait_until(proxy_reaches_both)
    except BaseException:
        stack.stop()
        raise
    return stack


def wait_until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while True:
        try:
            if condition():
                return
        except (httpx.HTTPError, KeyError):
            pass
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.05)


def health(base: str) -> dict[str, Any]:
    with client(base) as c:
        answer: dict[str, Any] = c.get("/healthz").json()
        return answer
