"""Building the API's JSON answers from stored games."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse

from ligretto.store import StoredGame, WriteResult
from ligretto.web.deps import absolute, watch_path


def game_body(request: Request, stored: StoredGame, *, with_rounds: bool = True) -> dict[str, Any]:
    body = stored.describe(with_rounds=with_rounds)
    body["watch_url"] = absolute(request, watch_path(stored.id))
    return body


def versioned(body: dict[str, Any], version: int, status_code: int = 200) -> JSONResponse:
    """A JSON answer carrying the game version as its ETag (for If-Match)."""
    return JSONResponse(body, status_code=status_code, headers={"ETag": f'"{version}"'})


def write_answer(request: Request, result: WriteResult, status_code: int = 200) -> JSONResponse:
    """The game without its rounds list, plus the round the write touched."""
    body = game_body(request, result.stored, with_rounds=False)
    body["round"] = result.describe_round()
    return versioned(body, result.stored.version, status_code)
