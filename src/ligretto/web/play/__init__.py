"""Online play over the web: table creation, the game page, the WebSocket."""

from ligretto.web.play.routes import router, start_tables, stop_tables

__all__ = ["router", "start_tables", "stop_tables"]
