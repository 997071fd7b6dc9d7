"""One way to read typed numbers, for the Tafel pages and the play pages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from ligretto.web.app import create_app
from ligretto.web.forms import choice, whole_field, whole_number
from ligretto.web.settings import Settings


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(data_dir=tmp_path, database_url=None))) as client:
        yield client


@pytest.mark.parametrize(
    ("text", "expected"),
    [("7", 7), ("007", 7), ("", None), ("-1", None), ("²", None), ("1.5", None), ("٣", None)],
)
def test_whole_number_reads_ascii_digits_only(text: str, expected: int | None) -> None:
    assert whole_number(text) == expected


def test_whole_field_allows_spaces_but_not_endless_digits() -> None:
    assert whole_field(" 12 ") == 12
    assert whole_field("9" * 5000) is None
    assert whole_field("1234567", max_digits=6) is None


@given(st.text(max_size=30))
def test_whole_number_never_raises(text: str) -> None:
    value = whole_number(text)
    assert value is None or value == int(text)


def test_choice_falls_back_on_forged_values() -> None:
    assert choice("cards", ("ligretto", "cards"), "ligretto") == "cards"
    assert choice("<b>", ("ligretto", "cards"), "ligretto") == "ligretto"


@pytest.mark.parametrize("path", ["/play", "/"])
def test_a_5000_digit_number_is_refused_with_422_not_500(app_client: TestClient, path: str) -> None:
    huge = "9" * 5000
    data = (
        {"name": "Anna", "seats": huge, "mode": "target", "target": "99"}
        if path == "/play"
        else {"player": ["Anna", "Ben"], "mode": "rounds", "rounds": huge}
    )
    response = app_client.post(path, data=data, follow_redirects=False)
    assert response.status_code == 422
    assert "Traceback" not in response.text
