"""The strategy lab's routes: the form, a study's page and link, its progress, its cancel.

``GET /lab`` is the form, ``POST /lab`` queues a study and answers 303 to
its page ``/lab/{id}`` (the shareable link); a refusal shows the form again
with its message (400 for what was typed or a study over the cap, 429 over
the client's quota, 503 when the queue is full). ``/lab/{id}/events`` sends
the progress as server-sent events; ``/lab/{id}.json`` is the result,
``/lab/{id}/rounds.jsonl.gz`` its rounds, one line of JSON each.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import anyio
from babel.numbers import format_decimal
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from sse_starlette import EventSourceResponse, ServerSentEvent

from ligretto.bots import strategy_names
from ligretto.sim.house import MAX_PENALTY
from ligretto.simulate.study import StudySpec
from ligretto.store.studies import StoredStudy
from ligretto.web.lab.answers import answer
from ligretto.web.lab.form import LabForm, read_form, template_form
from ligretto.web.lab.runner import LabLimitError, LiveStudy, StudyLab
from ligretto.web.lab.seat_form import (
    LEVELS,
    MAX_FORM_SPEED,
    MIN_FORM_SPEED,
    SHUFFLES,
    LabFormError,
)
from ligretto.web.lab.seats import SEAT_NAMES, bot_label, seat_name, shuffle_words
from ligretto.web.lab.view import plots
from ligretto.web.numbers import LOCALES, number
from ligretto.web.public_url import absolute
from ligretto.web.ratelimit import request_client
from ligretto.web.rendering import render, request_language

router = APIRouter(include_in_schema=False)

PING_SECONDS = 15
REFUSAL_STATUS = {"too_big": 400, "quota": 429, "busy": 503}


def whole(language: str, value: int) -> str:
    """A large whole number grouped as *language* writes it (``200.000`` in de)."""
    return format_decimal(value, locale=LOCALES.get(language, "en_GB"))


def _lab(request: Request) -> StudyLab:
    lab: StudyLab = request.app.state.lab
    return lab


def _client(request: Request) -> str:
    return request_client(request.scope, request.app.state.settings.rate_limit_settings())


def _form_page(
    request: Request, form: LabForm, *, error: dict[str, Any] | None = None, status: int = 200
) -> HTMLResponse:
    lab = _lab(request)
    return render(
        request,
        "lab/form.html",
        {
            "current_page": "lab",
            "form": form,
            "error": error,
            "strategies": strategy_names(),
            "levels": LEVELS,
            "seat_names": SEAT_NAMES,
            "shuffles": SHUFFLES,
            "shuffle_words": shuffle_words(request_language(request)),
            "min_speed": number(request_language(request), MIN_FORM_SPEED, 2),
            "max_speed": number(request_language(request), MAX_FORM_SPEED, 0),
            "max_penalty": MAX_PENALTY,
            "cap": whole(request_language(request), lab.limits.max_seat_rounds),
            "budget": whole(request_language(request), lab.limits.max_actions),
        },
        status_code=status,
        path="/lab",
    )


@router.get("/lab", response_class=HTMLResponse)
async def lab_form(request: Request) -> HTMLResponse:
    return _form_page(request, template_form(request.query_params))


@router.post("/lab", response_class=HTMLResponse)
async def start_study(request: Request) -> Response:
    data = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
    form = LabForm()
    try:
        form, spec = read_form(data)
    except LabFormError as error:
        shown = error.form if isinstance(error.form, LabForm) else _keep(form, data)
        return _form_page(request, shown, error={"code": error.code, **error.params}, status=400)
    except ValueError as error:  # the rules' own limits (R1), said in their words
        return _form_page(
            request, form, error={"code": "invalid", "detail": str(error)}, status=400
        )
    try:
        study = await _lab(request).submit(spec, _client(request))
    except LabLimitError as refusal:
        language = request_language(request)
        said = {
            "code": refusal.code,
            "limit": whole(language, refusal.limit),
            "asked": whole(language, refusal.asked),
        }
        return _form_page(request, form, error=said, status=REFUSAL_STATUS[refusal.code])
    return RedirectResponse(f"/lab/{study.id}", status_code=303)


def _keep(form: LabForm, data: dict[str, str]) -> LabForm:
    """The form as it was sent, when reading it failed half way."""
    if not form.seats:
        form.seats = template_form({"question": "custom", **data}).seats
    return form


async def _stored(request: Request, study_id: str) -> StoredStudy:
    if len(study_id) > 16:
        raise HTTPException(404)
    stored = await anyio.to_thread.run_sync(_lab(request).store.get, study_id)
    if stored is None:
        raise HTTPException(404)
    return stored


@router.get("/lab/{study_id}.json")
async def study_json(request: Request, study_id: str) -> JSONResponse:
    """The study, and its result once it is done (the command's report inside)."""
    stored = await _stored(request, study_id)
    return JSONResponse(
        {"id": stored.id, "state": stored.state, "spec": stored.spec, "result": stored.result},
        headers={"Cache-Control": "no-store"},
    )


@router.get("/lab/{study_id}/rounds.jsonl.gz")
async def study_rounds(request: Request, study_id: str) -> FileResponse:
    """The study's rounds as JSON lines, compressed (``ligretto simulate --records``'s lines).

    Only once the study is done, and only from the process that ran it
    (``web/lab/round_files.py``); otherwise 404.
    """
    stored = await _stored(request, study_id)
    records = _lab(request).records
    path = records.finished(study_id) if records is not None else None
    if stored.state != "done" or path is None:
        raise HTTPException(404)
    return FileResponse(
        path,
        media_type="application/gzip",
        filename=f"ligretto-study-{study_id}-rounds.jsonl.gz",
        headers={"Cache-Control": "no-store"},
    )


@router.get("/lab/{study_id}", response_class=HTMLResponse)
async def study_page(request: Request, study_id: str) -> HTMLResponse:
    stored = await _stored(request, study_id)
    lab = _lab(request)
    live = lab.studies.get(study_id)
    spec = StudySpec.from_dict(stored.spec)
    progress = lab.progress(live) if live is not None else None
    state = progress.state if progress is not None else stored.state
    language = request_language(request)
    result = stored.result
    report = result["report"] if result is not None else None
    charts = plots(result, language) if result is not None and report is not None else {}
    # studies kept before the budget have none in their result
    budget = result.get("budget") if result is not None else None
    return render(
        request,
        "lab/study.html",
        {
            "current_page": "lab",
            "study": stored,
            "spec": spec,
            "seat_labels": [
                f"{seat_name(seat)}: {bot_label(language, label)}"
                for seat, label in enumerate(spec.config().labels)
            ],
            "house": spec.house,
            "state": state,
            "progress": progress,
            "charts": charts,
            "report": report,
            "answer": answer(spec, report, language) if report is not None else None,
            "records": state == "done" and _lab(request).has_records(study_id),
            "budget": _budget_words(budget, language) if budget else None,
            # the command of what was played: a study stopped at its budget asks for less
            "command": result["command"] if result is not None else spec.command(),
            "owner": live is not None and live.client == _client(request),
            "link": absolute(request, f"/lab/{study_id}"),
        },
    )


def _budget_words(budget: dict[str, Any], language: str) -> dict[str, Any]:
    """The result's budget with its numbers grouped as the page's language writes them."""
    return {
        "stopped": bool(budget["stopped"]),
        "played": whole(language, int(budget["played"])),
        "asked": whole(language, int(budget["asked"])),
        "actions": whole(language, int(budget["actions"])),
    }


def _live(request: Request, study_id: str) -> LiveStudy | None:
    return _lab(request).studies.get(study_id)


@router.post("/lab/{study_id}/cancel")
async def cancel_study(request: Request, study_id: str) -> Response:
    """Cancel a queued or running study: only the client who started it may."""
    live = _live(request, study_id)
    if live is not None:
        if live.client != _client(request):
            raise HTTPException(403)
        await _lab(request).cancel(live)
    else:
        await _stored(request, study_id)  # 404 for no such study; an ended one stays
    return RedirectResponse(f"/lab/{study_id}", status_code=303)


@router.get("/lab/{study_id}/events", response_class=EventSourceResponse)
async def study_events(request: Request, study_id: str) -> EventSourceResponse:
    """``event: progress`` with ``{"state", "done", "total", "place"}`` at every change.

    The stream ends when the study has ended (done, cancelled or stopped);
    a study this process does not run gets one event with its stored state.
    """
    stored = await _stored(request, study_id)
    live = _live(request, study_id)
    lab = _lab(request)
    shutdown = anyio.Event()

    async def events() -> AsyncIterator[ServerSentEvent]:
        if live is None:
            spec = StudySpec.from_dict(stored.spec)
            budget = (stored.result or {}).get("budget") or {}
            done = int(budget.get("played", spec.size)) if stored.state == "done" else 0
            data = {"state": stored.state, "done": done, "total": spec.size, "place": None}
            yield ServerSentEvent(data=json.dumps(data), event="progress")
            return
        async for progress in lab.updates(live):
            yield ServerSentEvent(data=json.dumps(progress.to_dict()), event="progress")
            if shutdown.is_set():
                return

    return EventSourceResponse(
        events(), ping=PING_SECONDS, shutdown_event=shutdown, shutdown_grace_period=1.0
    )
