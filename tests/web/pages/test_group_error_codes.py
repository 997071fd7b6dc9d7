"""A group page says why a form was refused from the error's code, never its English text.

Every store error carries a :class:`~ligretto.store.errors.StoreCode`; the
group forms translate it (:mod:`ligretto.web.pages.group_messages`) and the
API sends it.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient
from markupsafe import escape

from ligretto.store.errors import (
    ForbiddenError,
    GameInGroupError,
    GameNotFoundError,
    GameNotInGroupError,
    GroupForbiddenError,
    GroupNotFoundError,
    StoreBusyError,
    StoreCode,
    StoreError,
    VersionConflictError,
)
from ligretto.web.i18n import LANGUAGES, catalogue_path
from ligretto.web.pages.group_messages import ANSWERED_ELSEWHERE, STORE_REFUSALS
from ligretto.web.text import gettext

ERRORS: list[StoreError] = [
    GameNotFoundError("g"),
    ForbiddenError(),
    VersionConflictError(1, 2),
    StoreBusyError(),
    GroupNotFoundError("g"),
    GroupForbiddenError(),
    GroupForbiddenError.for_game(),
    GameInGroupError("g", elsewhere=True),
    GameNotInGroupError("g"),
]


def test_every_store_error_carries_a_code_and_every_code_an_error() -> None:
    assert {e.code for e in ERRORS} == set(StoreCode)
    assert GroupForbiddenError().code is StoreCode.GROUP_FORBIDDEN
    assert GroupForbiddenError.for_game().code is StoreCode.FORBIDDEN  # the game's token


def test_every_store_code_has_a_sentence_on_the_group_pages_or_a_page_of_its_own() -> None:
    assert set(STORE_REFUSALS) | ANSWERED_ELSEWHERE == set(StoreCode)
    assert not set(STORE_REFUSALS) & ANSWERED_ELSEWHERE


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_store_sentence_is_translated(language: str) -> None:
    with catalogue_path(language).open("rb") as po:
        catalog = read_po(po, locale=language)
    for code, sentence in STORE_REFUSALS.items():
        message = catalog.get(sentence)
        assert message is not None and message.string, f"{language}: {code}"
        if language != "en":
            assert message.string != sentence, f"{language}: {code} untranslated"
        assert gettext(language, sentence) == message.string


def _create(client: TestClient, members: str = "Anna\nBen") -> tuple[str, str]:
    response = client.post("/groups", data={"name": "Donnerstag", "members": members})
    assert response.status_code == 303
    match = re.fullmatch(r"/groups/([\w-]+)/edit#t=([\w-]+)", response.headers["location"])
    assert match
    client.cookies.clear()
    return match[1], match[2]


def _shows(response_text: str, language: str, code: StoreCode) -> bool:
    return str(escape(gettext(language, STORE_REFUSALS[code]))) in response_text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_add_game_form_names_the_wrong_token_in_the_readers_language(
    client: TestClient, language: str
) -> None:
    gid, token = _create(client)
    game = client.post("/api/games", json={"players": ["Anna", "Ben"]}).json()
    wrong_game = f"/g/{game['id']}/edit#t=wrong"
    refused = client.post(
        f"/groups/{gid}/edit/add-game?lang={language}", data={"link": wrong_game, "token": token}
    )
    assert refused.status_code == 422
    assert _shows(refused.text, language, StoreCode.FORBIDDEN)
    right_game = f"/g/{game['id']}/edit#t={game['edit_token']}"
    no_group_link = client.post(
        f"/groups/{gid}/edit/add-game?lang={language}", data={"link": right_game, "token": "x"}
    )
    assert no_group_link.status_code == 422
    assert _shows(no_group_link.text, language, StoreCode.GROUP_FORBIDDEN)
    added = client.post(f"/groups/{gid}/edit/add-game", data={"link": right_game, "token": token})
    assert added.status_code == 303
    again = client.post(
        f"/groups/{gid}/edit/add-game?lang={language}", data={"link": right_game, "token": token}
    )
    assert again.status_code == 422
    assert _shows(again.text, language, StoreCode.GAME_IN_GROUP)


@pytest.mark.parametrize(
    "error",
    [e for e in ERRORS if e.code in STORE_REFUSALS],
    ids=lambda e: f"{type(e).__name__}-{e.code}",
)
def test_the_sentence_follows_the_code_whatever_the_english_message(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, error: StoreError
) -> None:
    gid, token = _create(client)
    # An English message that names the other token: the page must not care.
    misleading = "the game's edit link" if error.code is StoreCode.GROUP_FORBIDDEN else "group's"
    error.args = (misleading,)

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise error

    monkeypatch.setattr(client.app.state.groups, "add_members", refuse)  # type: ignore[attr-defined]
    refused = client.post(
        f"/groups/{gid}/edit/members?lang=de", data={"names": "Cleo", "token": token}
    )
    assert refused.status_code == 422
    assert _shows(refused.text, "de", error.code)
    assert misleading not in refused.text


def test_the_api_answers_a_group_error_with_its_code(client: TestClient) -> None:
    gid, token = _create(client)
    missing = client.get("/api/groups/nosuchgroup0000000000")
    assert missing.status_code == 404
    assert missing.json()["code"] == StoreCode.GROUP_NOT_FOUND.value
    outside = client.delete(
        f"/api/groups/{gid}/games/nosuchgame000000000", headers={"Authorization": f"Bearer {token}"}
    )
    assert outside.status_code == 404
    assert outside.json()["code"] == StoreCode.GAME_NOT_IN_GROUP.value
