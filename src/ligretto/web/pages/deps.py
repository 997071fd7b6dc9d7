"""What the page routes share with the JSON API: the service and the game's URLs."""

from __future__ import annotations

from ligretto.web.deps import Service, absolute, edit_path, tafel_service, watch_path

__all__ = ["Service", "absolute", "edit_path", "tafel_service", "watch_path"]
