"""The start page: create a game (T1) and find this browser's games.

The form works without JavaScript: the buttons that add, remove and move
a name row post the form, and the server answers with the form changed.
With JavaScript the same buttons act in place.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from ligretto.tafel import (
    DEFAULT_ROUNDS,
    DEFAULT_TARGET,
    TARGET_CHOICES,
    Deck,
    TafelError,
    max_players,
)
from ligretto.web.forms import whole_field, whole_number
from ligretto.web.pages.deps import Service, edit_base
from ligretto.web.pages.game_access import remember_token
from ligretto.web.pages.messages import refusal
from ligretto.web.rendering import render, request_language
from ligretto.web.text import N_, gettext

router = APIRouter()

START_ROWS = 4
MAX_ROWS = 24


@dataclass(frozen=True, slots=True)
class StartForm:
    """The new-game form as the user left it."""

    players: tuple[str, ...] = ("",) * START_ROWS
    mode: str = "target"
    target_choice: str = str(DEFAULT_TARGET)
    target_other: str = ""
    rounds: str = str(DEFAULT_ROUNDS)
    deck_cards: bool = False
    row_storage: bool = False
    errors: tuple[str, ...] = ()
    focus: int | None = None

    @property
    def max_players(self) -> int:
        return max_players(Deck.CARDS if self.deck_cards else Deck.LIGRETTO)


def _read_form(data: FormData) -> StartForm:
    # Bounded, so an odd post cannot make the page echo thousands of rows.
    players = tuple(str(v)[:200] for v in data.getlist("player")[:MAX_ROWS])
    mode = str(data.get("mode") or "target")
    target = str(data.get("target") or str(DEFAULT_TARGET))
    return StartForm(
        players=players or ("",) * 2,
        mode=mode if mode in ("target", "rounds") else "target",
        target_choice=target if target in {*map(str, TARGET_CHOICES), "other"} else "other",
        target_other=str(data.get("target_other") or "").strip()[:10],
        rounds=str(data.get("rounds") or "").strip()[:10],
        deck_cards=data.get("deck") == "cards",
        row_storage=bool(data.get("row_storage")),
    )


def _edit_rows(form: StartForm, action: str) -> StartForm:
    """Apply an add/remove/move button of the form without JavaScript."""
    players = list(form.players)
    kind, _, index_text = action.partition("-")
    index = whole_number(index_text, 3)
    index = -1 if index is None else index
    focus = None
    if kind == "add" and len(players) < form.max_players:
        players.append("")
        focus = len(players) - 1
    elif kind == "remove" and 0 <= index < len(players) and len(players) > 2:
        del players[index]
        focus = min(index, len(players) - 1)
    elif kind == "up" and 0 < index < len(players):
        players[index - 1], players[index] = players[index], players[index - 1]
        focus = index - 1
    return replace(form, players=tuple(players), focus=focus)


def _games_i18n(language: str) -> dict[str, str]:
    """The few words the start page's script writes into the list of games."""
    return {
        "playing": gettext(language, N_("playing")),
        "tiebreak": gettext(language, N_("tie-break")),
        "finished": gettext(language, N_("finished")),
        "winner": gettext(language, N_("won by %(names)s"), names="%s"),
        "winners": gettext(language, N_("shared victory: %(names)s"), names="%s"),
        "rounds": gettext(language, N_("rounds: %(count)s"), count="%s"),
        "watching": gettext(language, N_("watch only")),
        "unsent": gettext(
            language,
            N_(
                "Rounds of this game that were not sent yet are lost when it is forgotten."
                " Forget it?"
            ),
        ),
        "forgetGroup": gettext(language, N_("Forget this group on this phone")),
    }


def _page(request: Request, form: StartForm, status_code: int = 200) -> HTMLResponse:
    language = request_language(request)
    return render(
        request,
        "start.html",
        {"form": form, "games_i18n": _games_i18n(language)},
        status_code=status_code,
        path="/",
    )


@router.get("/", response_class=HTMLResponse)
async def start_page(request: Request) -> HTMLResponse:
    # No autofocus on arrival: a phone would cover the page with its keyboard.
    return _page(request, StartForm())


@router.post("/", response_model=None)
async def create_game(request: Request, service: Service) -> Response:
    """Create the game and go to its edit page; or edit the name rows (no JS)."""
    language = request_language(request)
    data = await request.form()
    form = _read_form(data)
    action = str(data.get("action") or "create")
    if action != "create":
        return _page(request, _edit_rows(form, action))

    errors: list[str] = []
    names = [name.strip() for name in form.players if name.strip()]
    target: int | None = None
    rounds: int | None = None
    if form.mode == "target":
        chosen = form.target_other if form.target_choice == "other" else form.target_choice
        target = whole_field(chosen)
        if target is None:
            errors.append(gettext(language, N_("Enter the target as a whole number, e.g. 99.")))
    else:
        rounds = whole_field(form.rounds)
        if rounds is None:
            errors.append(
                gettext(language, N_("Enter the number of rounds as a whole number, e.g. 8."))
            )
    if not errors:
        try:
            created = await run_in_threadpool(
                service.create_game,
                names,
                mode=form.mode,
                target=target,
                rounds=rounds,
                deck=Deck.CARDS if form.deck_cards else Deck.LIGRETTO,
                row_storage=form.row_storage,
            )
        except TafelError as error:
            errors.append(refusal(language, error))
        else:
            # The token travels in the fragment, which no server ever sees.
            stored, token = created.stored, created.edit_token
            url = f"{edit_base(stored.id)}?created=1#t={token}"
            response = RedirectResponse(url, status_code=303)
            remember_token(response, request, stored.id, token)
            return response
    # Keep everything that was typed, so fixing one thing is enough.
    return _page(request, replace(form, errors=tuple(errors)), status_code=422)
