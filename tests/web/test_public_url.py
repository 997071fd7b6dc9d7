"""Shared links and QR codes name the server by its public address, never by the Host header."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from helpers.live_wire import open_table
from ligretto.web.public_url import MAX_PUBLIC_URL, checked_public_url, served_address
from ligretto.web.qr import qr_svg_document
from ligretto.web.settings import Settings

HOSTS = [f"guest-{n}.example" for n in range(40)] + ["a" * 2400 + ".example"]


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("https://ligretto.example.org", "https://ligretto.example.org"),
        ("https://ligretto.example.org/", "https://ligretto.example.org"),
        ("http://192.0.2.7:8000", "http://192.0.2.7:8000"),
        ("http://[2001:db8::7]:8000", "http://[2001:db8::7]:8000"),
    ],
)
def test_a_public_url_is_a_scheme_a_host_and_a_port(given: str, kept: str) -> None:
    assert checked_public_url(given) == kept
    assert Settings(public_url=given).public_url == kept


@pytest.mark.parametrize(
    "given",
    [
        "ligretto.example.org",
        "ftp://ligretto.example.org",
        "https://",
        "https://ligretto.example.org/tafel",
        "https://ligretto.example.org?x=1",
        "https://user:secret@ligretto.example.org",
        "https://ligretto.example.org:99999",
        "https://" + "a" * MAX_PUBLIC_URL + ".org",
    ],
)
def test_a_public_url_that_is_not_one_is_refused_at_start(given: str) -> None:
    with pytest.raises(ValueError):
        checked_public_url(given)
    with pytest.raises(ValidationError):
        Settings(public_url=given)


@pytest.mark.parametrize(
    ("scope", "address"),
    [
        ({"scheme": "http", "server": ("192.0.2.7", 8000)}, "http://192.0.2.7:8000"),
        ({"scheme": "https", "server": ("192.0.2.7", 443)}, "https://192.0.2.7"),
        ({"scheme": "ws", "server": ("::1", 8000)}, "http://[::1]:8000"),
        ({"scheme": "http", "server": ("/run/ligretto.sock", None)}, ""),
        ({"scheme": "http", "server": None}, ""),
    ],
)
def test_the_served_address_is_the_socket_a_request_reached(
    scope: dict[str, Any], address: str
) -> None:
    assert served_address(scope) == address


def test_links_and_the_join_qr_ignore_the_host_header(client: TestClient) -> None:
    table = open_table(client)
    code = table["code"]
    assert table["invite_url"] == f"http://testserver/play/{code}"
    drawn_before = qr_svg_document.cache_info().misses
    for host in HOSTS:
        answer = client.get(f"/play/{code}/qr.svg", headers={"Host": host})
        assert answer.status_code == 200
        assert answer.text == qr_svg_document(f"http://testserver/play/{code}")
    for host in HOSTS[:2] + HOSTS[-1:]:
        game = client.post("/api/games", json={"players": ["Anna", "Ben"]}, headers={"Host": host})
        assert game.json()["watch_url"].startswith("http://testserver/g/"), game.text
    assert qr_svg_document.cache_info().misses - drawn_before == 1  # drawn once


def test_no_qr_is_drawn_for_a_code_without_a_table(client: TestClient) -> None:
    drawn_before = qr_svg_document.cache_info().misses
    for code in ("ZZZZZZ", "QQQQQ2", "2AB3CD"):
        assert client.get(f"/play/{code}/qr.svg").status_code == 404
    assert qr_svg_document.cache_info().misses == drawn_before
