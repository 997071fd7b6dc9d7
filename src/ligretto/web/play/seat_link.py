"""``POST /play/{code}/seat-link``: the link that moves a seat to another device."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from ligretto.web.errors import ApiError
from ligretto.web.play.app_tables import find_table
from ligretto.web.play.errors import PlayRoute
from ligretto.web.public_url import absolute
from ligretto.web.qr import qr_svg

router = APIRouter(route_class=PlayRoute)


class SeatLinkIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: Annotated[str, Field(min_length=1, max_length=100)]


class SeatLink(BaseModel):
    url: str
    qr_svg: str


@router.post("/play/{code}/seat-link", tags=["online play"])
async def post_seat_link(code: str, body: SeatLinkIn, request: Request) -> SeatLink:
    """The personal link (and its QR code) that moves a seat to another device.

    The token travels in the request body, never in a URL the server logs,
    and comes back only to its holder; the link carries it in the fragment
    (``#seat=…``), which browsers send neither to servers nor in Referer.
    """
    table = await find_table(request.app, code)
    if table.seat_of_token(body.token) is None:
        raise ApiError(404, "bad_token", "no seat at this table belongs to this token")
    url = absolute(request, f"/play/{table.code}#seat={body.token}")
    return SeatLink(url=url, qr_svg=str(qr_svg(url)))
