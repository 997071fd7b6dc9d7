"""The API's answers built from stored games: the models of ``schemas``, and the ETag.

The values come from the Tafel domain (:func:`ligretto.tafel.describe`, the
shape of the exports too); the models define which of them the API answers
with, and FastAPI serialises them.
"""

from __future__ import annotations

from fastapi import Request, Response

from ligretto.store import CreatedGame, StoredGame, WriteResult
from ligretto.web.api.schemas import CreatedOut, GameOut, WriteOut
from ligretto.web.deps import edit_link, watch_path
from ligretto.web.public_url import absolute


def set_version(response: Response, version: int) -> None:
    """Carry the game version as the answer's ETag (for If-Match, T6)."""
    response.headers["ETag"] = f'"{version}"'


def game_out(request: Request, stored: StoredGame) -> GameOut:
    """The whole game with every round."""
    body = stored.describe()
    body["watch_url"] = absolute(request, watch_path(stored.id))
    return GameOut.model_validate(body)


def created_out(request: Request, created: CreatedGame) -> CreatedOut:
    """A new game with its secret edit token and edit link (the only answer that has them)."""
    stored = created.stored
    body = stored.describe()
    body["watch_url"] = absolute(request, watch_path(stored.id))
    body["edit_token"] = created.edit_token
    body["edit_url"] = absolute(request, edit_link(stored.id, created.edit_token))
    return CreatedOut.model_validate(body)


def write_out(request: Request, result: WriteResult) -> WriteOut:
    """The game without its rounds list, plus the round the write touched."""
    stored = result.stored
    body = stored.describe(with_rounds=False)
    body["watch_url"] = absolute(request, watch_path(stored.id))
    body["round"] = result.describe_round()
    return WriteOut.model_validate(body)
