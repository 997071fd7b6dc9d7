import socket
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI
from typer.testing import CliRunner

from ligretto import __version__
from ligretto.cli import app


def test_version_command_prints_the_package_version_and_the_build() -> None:
    import ligretto.rules.round

    result = CliRunner().invoke(app, ["version"])
    assert result.exit_code == 0
    version, build = result.output.strip().splitlines()
    assert version == __version__
    compiled = not (ligretto.rules.round.__file__ or "").endswith(".py")
    assert build.startswith("core: compiled with mypyc" if compiled else "core: pure Python (")


def _serve(monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[FastAPI, dict[str, Any]]:
    """Run ``ligretto serve`` with uvicorn replaced; the app and uvicorn's arguments."""
    ran: list[tuple[FastAPI, dict[str, Any]]] = []
    monkeypatch.delenv("LIGRETTO_DATABASE_URL", raising=False)
    monkeypatch.delenv("LIGRETTO_PROCESS_ID", raising=False)
    monkeypatch.delenv("LIGRETTO_TRUSTED_PROXIES", raising=False)
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: ran.append((app, options)))
    result = CliRunner().invoke(app, ["serve", *args])
    assert result.exit_code == 0, result.output
    (served,) = ran
    return served


def test_serve_names_its_process_by_host_name_and_port_and_ignores_proxy_headers(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    application, options = _serve(monkeypatch, "--port", "8123", "--data-dir", str(tmp_path))
    assert application.state.settings.process_id == f"{socket.gethostname()}:8123"
    assert application.state.settings.trusted_proxies == []
    assert options["port"] == 8123
    assert options["proxy_headers"] is False  # nobody may claim an address


def test_serve_behind_a_proxy_believes_only_that_proxy_for_limits_and_addresses(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    application, options = _serve(
        monkeypatch,
        "--data-dir",
        str(tmp_path),
        "--trusted-proxy",
        "127.0.0.1",
        "--trusted-proxy",
        "10.0.0.0/24",
        "--process-id",
        "web-1",
    )
    settings = application.state.settings
    assert settings.process_id == "web-1"
    assert settings.trusted_proxies == ["127.0.0.1", "10.0.0.0/24"]
    assert settings.rate_limit_settings().trusted_proxies == ("127.0.0.1", "10.0.0.0/24")
    assert options["proxy_headers"] is True
    assert options["forwarded_allow_ips"] == ["127.0.0.1", "10.0.0.0/24"]


def test_serve_takes_the_process_id_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LIGRETTO_PROCESS_ID", "from-env")
    ran: list[FastAPI] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: ran.append(app))
    result = CliRunner().invoke(app, ["serve", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert ran[0].state.settings.process_id == "from-env"
