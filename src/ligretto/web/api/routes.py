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

router = APIRouter()
for _module in (games, rounds, history, exports, events, tables, groups, group_import, group_reads):
    router.include_router(_module.router)
