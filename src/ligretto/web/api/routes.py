"""All routers of the JSON API, for ``create_app`` to include at once."""

from fastapi import APIRouter

from ligretto.web.api import events, exports, games, history, rounds, tables

router = APIRouter()
for _module in (games, rounds, history, exports, events, tables):
    router.include_router(_module.router)
