"""Online play over the web: table creation, the game page, the WebSocket."""

from fastapi import APIRouter

from ligretto.web.play import pages, replay_page, routes
from ligretto.web.play.routes import start_tables, stop_tables

router = APIRouter()
router.include_router(routes.router)
router.include_router(pages.router)
router.include_router(replay_page.router)

__all__ = ["router", "start_tables", "stop_tables"]
