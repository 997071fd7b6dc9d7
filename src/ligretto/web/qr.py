"""QR codes of links as SVG: the Tafel's watch link; the seat and join links of online play."""

from __future__ import annotations

import io
from functools import lru_cache

import segno
from markupsafe import Markup


@lru_cache(maxsize=512)
def qr_svg(url: str) -> Markup:
    """The QR code of *url* as inline SVG (dark on white, scales with its box).

    Kept per address: a board's QR code never changes, and drawing one
    costs more than rendering the rest of its page.
    """
    code = segno.make(url, error="m")
    svg: str = code.svg_inline(scale=4, border=2, omitsize=True, svgclass="qr-code")
    return Markup(svg)


@lru_cache(maxsize=512)
def qr_svg_document(url: str) -> str:
    """The QR code of *url* as an SVG file of its own (an ``<img>``'s source).

    The same code as :func:`qr_svg`, with the namespace a file needs and a
    white quiet zone drawn in, so it scans on a dark page too.
    """
    code = segno.make(url, error="m")
    buffer = io.BytesIO()
    code.save(buffer, kind="svg", scale=4, border=2, omitsize=True, xmldecl=False, light="#fff")
    return buffer.getvalue().decode()
