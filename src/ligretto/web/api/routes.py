"""All routers of the JSON API, for ``create_app`` to include at once."""

from fastapi import APIRouter

from ligretto.web.api import events, exports, games, groups, history, rounds, tables

router = APIRouter()
for _module in (games, rounds, history, exports, events, tables, groups):
    router.include_router(_module.router)
