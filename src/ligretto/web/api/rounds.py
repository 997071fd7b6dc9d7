"""``/api/games/{id}/rounds``: stacks first, then the middle; corrections (T2, T3, T6).

The writes go the API's one way (:mod:`ligretto.web.api.writes`): the
store's work and the answer's model in one trip to a worker thread.
"""

from __future__ import annotations

from fastapi import APIRouter, Response
from starlette.concurrency import run_in_threadpool

from ligretto.web.api.responses import set_version
from ligretto.web.api.schemas import ERRORS, RoundOpenIn, RoundOut, RoundPutIn, WriteOut
from ligretto.web.api.writes import GameWriter
from ligretto.web.deps import Service
from ligretto.web.errors import ApiError

router = APIRouter(prefix="/api/games/{game_id}/rounds", tags=["rounds"])


@router.post("", status_code=201, responses=ERRORS)
async def open_round(body: RoundOpenIn, w: GameWriter) -> WriteOut:
    """Save a new round with the stack counts only (T2); complete it with PUT."""
    out = await w.answer(
        lambda: w.service.open_round(w.game_id, w.token, body.stacks, expected_version=w.version)
    )
    if out.round is not None:
        w.response.headers["Location"] = f"/api/games/{w.game_id}/rounds/{out.round.n}"
    return out


@router.get("/{n}", responses=ERRORS)
async def get_round(game_id: str, n: int, service: Service, response: Response) -> RoundOut:
    """One round with its points and the running totals after it.

    Read on its own: the game's other rounds are neither loaded nor replayed.
    """

    def read() -> tuple[int, RoundOut]:
        stored = service.get_round(game_id, n)
        return stored.version, RoundOut.model_validate(stored.describe())

    version, out = await run_in_threadpool(read)
    set_version(response, version)
    return out


@router.put("/{n}", responses=ERRORS)
async def put_round(n: int, body: RoundPutIn, w: GameWriter) -> WriteOut:
    """``{"middle": …}`` completes the pending round (T3); with ``stacks`` and/or
    ``middle`` it corrects any round (T6). ``"confirm": true`` saves a round T3
    finds implausible."""
    if body.stacks is None and body.middle is None:
        raise ApiError(422, "nothing_to_change", "give the middle counts, the stacks, or both")
    return await w.answer(
        lambda: w.service.put_round(
            w.game_id,
            w.token,
            n,
            stacks=body.stacks,
            middle=body.middle,
            confirm=body.confirm,
            expected_version=w.version,
        )
    )


@router.delete("/{n}", responses=ERRORS)
async def delete_round(n: int, w: GameWriter) -> WriteOut:
    """Remove the last round (T6); earlier rounds are corrected with PUT instead."""
    return await w.answer(
        lambda: w.service.remove_last_round(w.game_id, w.token, n, expected_version=w.version)
    )
