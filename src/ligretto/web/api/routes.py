"""All routers of the JSON API, for ``create_app`` to include at once."""

from fastapi import APIRouter

from ligretto.web.api import (
    events,
    exports,
    games,
    group_import,
    group_reads,
    groups,
    history,
    rounds,
    tables,
)
from ligretto.web.play import lobby_api as lobby
from ligretto.web.play import match_api as match
from ligretto.web.play import ratings_api as ratings

router = APIRouter()
for _module in (
    games,
    rounds,
    history,
    exports,
    events,
    tables,
    lobby,
    match,
    ratings,
    groups,
    group_import,
    group_reads,
):
    router.include_router(_module.router)
