"""What the page routes share with the JSON API: the service, the game and its URLs."""

from __future__ import annotations

from ligretto.web.deps import (
    EDIT_COOKIE_MAX_AGE,
    TOKEN_FIELD,
    TOKEN_HEADER,
    EditableGame,
    EditableGameDep,
    GameDep,
    Service,
    edit_base,
    edit_cookie_name,
    edit_link,
    request_token,
    tafel_service,
    watch_path,
)
from ligretto.web.public_url import absolute

__all__ = [
    "EDIT_COOKIE_MAX_AGE",
    "TOKEN_FIELD",
    "TOKEN_HEADER",
    "EditableGame",
    "EditableGameDep",
    "GameDep",
    "Service",
    "absolute",
    "edit_base",
    "edit_cookie_name",
    "edit_link",
    "request_token",
    "tafel_service",
    "watch_path",
]
