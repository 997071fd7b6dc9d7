"""What the page routes share with the JSON API: the service, the game and its URLs."""

from __future__ import annotations

from ligretto.web.deps import (
    EditableGame,
    EditableGameDep,
    GameDep,
    Service,
    absolute,
    edit_path,
    tafel_service,
    watch_path,
)

__all__ = [
    "EditableGame",
    "EditableGameDep",
    "GameDep",
    "Service",
    "absolute",
    "edit_path",
    "tafel_service",
    "watch_path",
]
