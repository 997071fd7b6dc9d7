"""How uvicorn serves the app: the access log's redaction, the connection limits' settings."""

from __future__ import annotations

import logging

import pytest

from ligretto.web.client_share import CLIENT_SHARE
from ligretto.web.http_protocol import (
    HEADER_SECONDS,
    MAX_HEAD_BYTES,
    MAX_HEADERS,
    MAX_URL_BYTES,
    HttpBounds,
)
from ligretto.web.limits import BODY_GRACE_SECONDS, BODY_MIN_RATE
from ligretto.web.server_options import (
    KEEP_ALIVE_SECONDS,
    REDACTED,
    RedactTokens,
    log_config,
    redact_tokens,
)
from ligretto.web.settings import Settings, default_max_connections

TOKEN = "Au8J_Ctdai4QKIajS8yQYB99KGKgTAzk"


@pytest.mark.parametrize(
    ("path", "logged"),
    [
        (f"/g/abc/edit/{TOKEN}", f"/g/abc/edit/{REDACTED}"),
        (f"/g/abc/edit/{TOKEN}/history?lang=de", f"/g/abc/edit/{REDACTED}/history?lang=de"),
        (f"/g/abc/edit/{TOKEN}/rounds/2", f"/g/abc/edit/{REDACTED}/rounds/2"),
        (f"/groups/xyz/edit/{TOKEN}", f"/groups/xyz/edit/{REDACTED}"),
        ("/g/abc/edit/short", f"/g/abc/edit/{REDACTED}"),  # any unknown segment
        # The edit pages' own names and every other path stay as they are.
        ("/g/abc/edit/rounds/2/remove", "/g/abc/edit/rounds/2/remove"),
        ("/g/abc/edit/stacks", "/g/abc/edit/stacks"),
        ("/groups/xyz/edit/add-game", "/groups/xyz/edit/add-game"),
        ("/g/abc/edit?created=1", "/g/abc/edit?created=1"),
        ("/play/ABCD/ws", "/play/ABCD/ws"),
        ("/api/games/abc/rounds", "/api/games/abc/rounds"),
    ],
)
def test_the_access_log_never_writes_a_token_after_edit(path: str, logged: str) -> None:
    assert redact_tokens(path) == logged


def test_the_filter_redacts_uvicorns_access_record() -> None:
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", f"/g/abc/edit/{TOKEN}", "1.1", 303),
        None,
    )
    assert RedactTokens().filter(record)
    assert record.getMessage() == f'127.0.0.1:5000 - "GET /g/abc/edit/{REDACTED} HTTP/1.1" 303'
    config = log_config()
    assert config["loggers"]["uvicorn.access"]["filters"] == ["redact_tokens"]


def test_the_connection_limits_have_defaults_and_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    defaults = Settings().server_options()
    assert defaults["timeout_keep_alive"] == KEEP_ALIVE_SECONDS
    assert defaults["http"].bounds == HttpBounds(
        header_timeout=HEADER_SECONDS,
        max_head_bytes=MAX_HEAD_BYTES,
        max_headers=MAX_HEADERS,
        max_url_bytes=MAX_URL_BYTES,
        connections_per_client=int(default_max_connections() * CLIENT_SHARE),
    )
    assert defaults["limit_concurrency"] == default_max_connections() >= 100
    pace = Settings().body_pace()
    assert (pace.grace, pace.min_rate) == (BODY_GRACE_SECONDS, BODY_MIN_RATE)
    for name, value in {
        "KEEP_ALIVE_TIMEOUT": "2",
        "HEADER_TIMEOUT": "1.5",
        "MAX_CONNECTIONS": "300",
        "CLIENT_SHARE": "0.1",
        "MAX_HEADER_BYTES": "4096",
        "MAX_HEADERS": "20",
        "MAX_URL_BYTES": "1024",
        "BODY_TIMEOUT": "3",
        "BODY_MIN_RATE": "100",
        "TRUSTED_PROXIES": '["10.0.0.0/24"]',
    }.items():
        monkeypatch.setenv(f"LIGRETTO_{name}", value)
    options = Settings().server_options()
    assert options["timeout_keep_alive"] == 2
    assert options["http"].bounds == HttpBounds(
        header_timeout=1.5,
        max_head_bytes=4096,
        max_headers=20,
        max_url_bytes=1024,
        connections_per_client=30,
        trusted_proxies=("10.0.0.0/24",),
    )
    assert options["limit_concurrency"] == 300
    pace = Settings().body_pace()
    assert (pace.grace, pace.min_rate, pace.due(300)) == (3, 100, 6)
    for name, bad in (
        ("HEADER_TIMEOUT", "0"),
        ("CLIENT_SHARE", "0"),
        ("CLIENT_SHARE", "1.5"),
        ("MAX_HEADERS", "0"),
        ("BODY_MIN_RATE", "0"),
    ):
        with monkeypatch.context() as patched:
            patched.setenv(f"LIGRETTO_{name}", bad)
            with pytest.raises(ValueError, match=name.lower()):
                Settings()
    with pytest.raises(ValueError, match="must be positive"):
        HttpBounds(header_timeout=0)
