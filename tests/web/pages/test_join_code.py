"""Join with a code: /play/join finds the table the typed code names, or says what is wrong."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from ligretto.web.qr import qr_svg_document


def open_table(client: TestClient) -> str:
    table = client.post("/play/quick", data={"name": "Anna"})
    assert table.status_code == 303
    return str(table.headers["location"]).split("#")[0].rsplit("/", 1)[1]


def test_a_code_typed_in_lower_case_with_spaces_leads_to_its_table(client: TestClient) -> None:
    code = open_table(client)
    typed = f" {code[:3].lower()} {code[3:].lower()} "
    answer = client.get("/play/join", params={"code": typed})
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/play/{code}"


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "There is no table with the code ABC234"),
        ("de", "keinen Tisch mit dem Code ABC234"),
        ("nb", "ikke noe bord med koden ABC234"),
    ],
)
def test_an_unknown_code_is_said_in_the_readers_language(
    client: TestClient, language: str, words: str
) -> None:
    answer = client.get("/play/join", params={"code": "abc 234", "lang": language})
    assert answer.status_code == 404
    assert words in answer.text
    assert 'aria-invalid="true"' in answer.text
    assert 'value="abc 234"' in answer.text  # what was typed comes back to be fixed


def test_a_malformed_code_says_what_a_code_looks_like(client: TestClient) -> None:
    answer = client.get("/play/join", params={"code": "hello?", "lang": "en"})
    assert answer.status_code == 404
    assert "A table code has six letters and digits" in answer.text
    empty = client.get("/play/join", params={"lang": "en"})
    assert empty.status_code == 404


def test_join_changes_nothing(client: TestClient) -> None:
    code = open_table(client)
    before = client.get(f"/play/{code}").text
    client.get("/play/join", params={"code": code})
    client.get("/play/join", params={"code": "ZZZZZZ"})
    assert client.get(f"/play/{code}").text == before


def test_the_join_field_is_on_the_start_page_and_on_play(client: TestClient) -> None:
    for path in ("/", "/play"):
        html = client.get(path, params={"lang": "en"}).text
        assert 'action="/play/join"' in html, path
        assert "Join with a code" in html, path


def test_the_lobbys_qr_code_is_the_join_link(client: TestClient) -> None:
    code = open_table(client)
    html = client.get(f"/play/{code}").text
    assert f'src="/play/{code}/qr.svg" data-url="/play/{code}"' in html
    answer = client.get(f"/play/{code}/qr.svg")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("image/svg+xml")
    # The very QR code of the join link (segno draws the same code twice alike).
    assert answer.text == qr_svg_document(f"http://testserver/play/{code}")
    assert client.get("/play/not-a-code/qr.svg").status_code == 404
    assert client.get(f"/play/{code.lower()}/qr.svg").status_code == 404
