"""The routes of ``/api/groups`` that create and change a group: the group,
its members, its games.

Writes need the group's token (``Authorization: Bearer <token>``) and take
the group's version in ``If-Match``; they go the API's one way
(:mod:`ligretto.web.api.writes`). The other routes of ``/api/groups``:
:mod:`~ligretto.web.api.group_reads` (history, statistics, league, a
member, exports) and :mod:`~ligretto.web.api.group_import`; what they
share, :mod:`~ligretto.web.api.group_deps`.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from ligretto.store.results import StoredGroup
from ligretto.tafel.group_exchange import season_from_json
from ligretto.web.api.group_answers import group_out
from ligretto.web.api.group_deps import Groups, GroupToken
from ligretto.web.api.group_schemas import (
    GROUP_ERRORS,
    AddGameIn,
    GroupCreatedOut,
    GroupGameCreatedOut,
    GroupGameIn,
    GroupIn,
    GroupOut,
    GroupPatchIn,
    MembersIn,
)
from ligretto.web.api.responses import created_out, set_version
from ligretto.web.api.writes import GroupWriter, Written, written
from ligretto.web.deps import ExpectedVersion, group_edit_link
from ligretto.web.errors import ApiError
from ligretto.web.public_url import absolute

router = APIRouter(prefix="/api/groups", tags=["groups"])


@router.post("", status_code=201, responses=GROUP_ERRORS)
def create_group(
    body: GroupIn, service: Groups, request: Request, response: Response
) -> GroupCreatedOut:
    """Create a group. The answer holds the secret ``token`` — only here."""
    created = service.create_group(body.name, body.members)
    return created_group(request, response, created.stored, created.token)


def created_group(
    request: Request, response: Response, stored: StoredGroup, token: str
) -> GroupCreatedOut:
    set_version(response, stored.version)
    response.headers["Location"] = f"/api/groups/{stored.id}"
    body = group_out(request, stored)
    body["token"] = token
    body["edit_url"] = absolute(request, group_edit_link(stored.id, token))
    return GroupCreatedOut.model_validate(body)


@router.get("/{group_id}", responses=GROUP_ERRORS)
def get_group(group_id: str, service: Groups, request: Request, response: Response) -> GroupOut:
    """The group: name, members, season, number of games. No token needed."""
    stored = service.get_group(group_id)
    set_version(response, stored.version)
    return GroupOut.model_validate(group_out(request, stored))


@router.patch("/{group_id}", responses=GROUP_ERRORS)
async def update_group(body: GroupPatchIn, w: GroupWriter) -> GroupOut:
    """Rename the group or set its season (``"season": null`` goes back to calendar years)."""
    given = body.model_fields_set
    if not given:
        raise ApiError(422, "nothing_to_change", "give the name, the season, or both")
    kwargs: dict[str, Any] = {}
    if "name" in given:
        kwargs["name"] = body.name
    if "season" in given:
        kwargs["season"] = (
            None if body.season is None else season_from_json(body.season.model_dump())
        )
    return await w.answer(
        lambda: w.service.update_group(w.group_id, w.token, expected_version=w.version, **kwargs)
    )


@router.post("/{group_id}/members", responses=GROUP_ERRORS)
async def add_members(body: MembersIn, w: GroupWriter) -> GroupOut:
    """New members, each under the one name rule and unique in the group (T1)."""
    return await w.answer(
        lambda: w.service.add_members(w.group_id, w.token, body.names, expected_version=w.version)
    )


@router.post("/{group_id}/games", status_code=201, responses=GROUP_ERRORS)
async def create_group_game(
    group_id: str,
    body: GroupGameIn,
    service: Groups,
    token: GroupToken,
    version: ExpectedVersion,
    request: Request,
    response: Response,
) -> GroupGameCreatedOut:
    """A new game of the group; players who are not members need ``new_members`` (422
    ``new_members`` names them otherwise). The game has its own edit token, as any game."""

    def create() -> Written[GroupGameCreatedOut]:
        created, stored = service.create_game(
            group_id,
            token,
            body.players,
            mode=body.mode,
            target=body.target,
            rounds=body.rounds,
            deck=body.deck,
            row_storage=body.row_storage,
            new_members=body.new_members,
            expected_version=version,
        )
        answer = {"game": created_out(request, created), "group": group_out(request, stored)}
        return Written(stored.version, GroupGameCreatedOut.model_validate(answer))

    out = await written(response, create)
    response.headers["Location"] = f"/api/games/{out.game.id}"
    return out


@router.put("/{group_id}/games/{game_id}", responses=GROUP_ERRORS)
async def add_group_game(game_id: str, body: AddGameIn, w: GroupWriter) -> GroupOut:
    """Add an existing game to the group (its ``edit_token`` in the body)."""
    return await w.answer(
        lambda: w.service.add_game(
            w.group_id,
            w.token,
            game_id,
            body.edit_token,
            new_members=body.new_members,
            expected_version=w.version,
        )
    )


@router.delete("/{group_id}/games/{game_id}", responses=GROUP_ERRORS)
async def remove_group_game(game_id: str, w: GroupWriter) -> GroupOut:
    """Take a game out of the group; the game itself stays as it is."""
    return await w.answer(
        lambda: w.service.remove_game(w.group_id, w.token, game_id, expected_version=w.version)
    )
