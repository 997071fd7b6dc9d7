"""A real ``ligretto serve``: links and QR codes from its public address, whatever Host is sent.

Any client can send any ``Host``. Before, the watch page and the lobby's QR
code were drawn from it: a client chose the address other phones were sent
to, and a ``Host`` of 2,340 characters and more no longer fitted a QR code
(500). Now they come from ``LIGRETTO_PUBLIC_URL``, or without it from the
address the connection reached.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ligretto.serve_process import ServeProcess, environment_without_database_url
from ligretto.web.qr import qr_svg, qr_svg_document

pytestmark = pytest.mark.slow

LONG_HOST = "a" * 2400 + ".example"
PUBLIC = "https://ligretto.example.org"


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[ServeProcess]:
    env = {**environment_without_database_url(), "LIGRETTO_RATE_LIMITS": "0"}
    with ServeProcess(tmp_path / "data", env) as server:
        server.start()
        yield server


@pytest.fixture
def serve_public(tmp_path: Path) -> Iterator[ServeProcess]:
    env = {
        **environment_without_database_url(),
        "LIGRETTO_RATE_LIMITS": "0",
        "LIGRETTO_PUBLIC_URL": PUBLIC,
    }
    with ServeProcess(tmp_path / "public", env) as server:
        server.start()
        yield server


def _game_and_table(client: httpx.Client, host: str) -> tuple[dict[str, str], dict[str, str]]:
    game = client.post("/api/games", json={"players": ["Anna", "Ben"]}, headers={"Host": host})
    table = client.post("/api/tables", json={"seats": 2, "name": "Anna"}, headers={"Host": host})
    assert game.status_code == 201 and table.status_code == 201, (game.text, table.text)
    return game.json(), table.json()


@pytest.mark.parametrize("host", ["evil.example", LONG_HOST])
def test_links_and_qr_codes_come_from_the_served_address(serve: ServeProcess, host: str) -> None:
    base = serve.base  # http://127.0.0.1:<port>, where the connection arrived
    with httpx.Client(base_url=base, timeout=30) as client:
        game, table = _game_and_table(client, host)
        assert game["watch_url"] == f"{base}/g/{game['id']}"
        assert table["invite_url"] == f"{base}/play/{table['code']}"
        assert table["ws_url"] == f"ws://127.0.0.1:{serve.port}/play/{table['code']}/ws"
        page = client.get(f"/g/{game['id']}", headers={"Host": host})
        assert page.status_code == 200
        assert f"{base}/g/{game['id']}" in page.text and host not in page.text
        assert str(qr_svg(f"{base}/g/{game['id']}")) in page.text
        qr = client.get(f"/play/{table['code']}/qr.svg", headers={"Host": host})
        assert qr.status_code == 200
        assert qr.text == qr_svg_document(f"{base}/play/{table['code']}")


def test_links_and_qr_codes_come_from_the_public_url(serve_public: ServeProcess) -> None:
    with httpx.Client(base_url=serve_public.base, timeout=30) as client:
        game, table = _game_and_table(client, LONG_HOST)
        assert game["watch_url"] == f"{PUBLIC}/g/{game['id']}"
        assert table["ws_url"] == f"wss://ligretto.example.org/play/{table['code']}/ws"
        qr = client.get(f"/play/{table['code']}/qr.svg", headers={"Host": LONG_HOST})
        assert qr.text == qr_svg_document(f"{PUBLIC}/play/{table['code']}")
        page = client.get(f"/g/{game['id']}", headers={"Host": LONG_HOST})
        assert page.status_code == 200 and f"{PUBLIC}/g/{game['id']}" in page.text
