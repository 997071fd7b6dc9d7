"""QR codes of links, as inline SVG: the Tafel's watch link and the seat link of online play."""

from __future__ import annotations

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
