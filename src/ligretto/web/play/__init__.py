"""Online play over the web: table creation, the game page, the WebSocket."""

from fastapi import APIRouter

from ligretto.web.play import (
    join,
    pages,
    quick_games,
    replay_page,
    seat_link,
    table_page,
    table_socket,
)
from ligretto.web.play.app_tables import start_tables, stop_tables

router = APIRouter()
# In this order: ``/play/join`` before ``/play/{code}``, which would take
# "join" for a code.
router.include_router(seat_link.router)
router.include_router(table_socket.router)
router.include_router(pages.router)
router.include_router(join.router)
router.include_router(quick_games.router)
router.include_router(table_page.router)
router.include_router(replay_page.router)

__all__ = ["router", "start_tables", "stop_tables"]
