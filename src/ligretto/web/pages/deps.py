"""What the page routes share with the JSON API: the service and the game's URLs."""

from __future__ import annotations

from fastapi import Request

from ligretto.web.deps import Service, edit_path, tafel_service, watch_path

__all__ = ["Service", "absolute", "edit_path", "tafel_service", "watch_path"]


def absolute(request: Request, path: str) -> str:
    """*path* on this server as a full URL, for sharing and QR codes."""
    return str(request.base_url).rstrip("/") + path
