"""How card colours look to colour-blind eyes, and whether two can be told apart.

Dichromacy is simulated with the matrices of Machado, Oliveira and Fernandes
(2009), severity 1.0, applied to linear RGB (as Viénot, Brettel and Mollon
1999 do for the same three deficiencies): protanopia (no L cones),
deuteranopia (no M cones; with protanopia about one man in twelve has one of
the two or a milder form) and tritanopia (no S cones, rare). Two colours are
told apart by their lightness (the WCAG contrast ratio of their relative
luminances) or by their hue and chroma (CIEDE2000 colour difference).
"""

from __future__ import annotations

import math
from typing import Final

RGB = tuple[float, float, float]
Matrix = tuple[RGB, RGB, RGB]

# Machado et al. 2009, Table of severity 1.0 (linear RGB in, linear RGB out).
DICHROMACIES: Final[dict[str, Matrix]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
# The D65 white of sRGB, for CIELAB.
_WHITE: Final = (0.95047, 1.0, 1.08883)


def parse_hex(colour: str) -> RGB:
    """``"#d7263d"`` or ``"#fff"`` as sRGB components in 0…1."""
    text = colour.strip().lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    if len(text) != 6 or any(c not in "0123456789abcdefABCDEF" for c in text):
        raise ValueError(f"not a #rgb or #rrggbb colour: {colour!r}")
    return (int(text[0:2], 16) / 255, int(text[2:4], 16) / 255, int(text[4:6], 16) / 255)


def to_linear(rgb: RGB) -> RGB:
    def one(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return (one(rgb[0]), one(rgb[1]), one(rgb[2]))


def to_srgb(linear: RGB) -> RGB:
    def one(c: float) -> float:
        c = min(1.0, max(0.0, c))
        return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055

    return (one(linear[0]), one(linear[1]), one(linear[2]))


def simulate(rgb: RGB, vision: str) -> RGB:
    """The sRGB colour that ``rgb`` looks like to ``vision`` ("normal" or a key of DICHROMACIES)."""
    if vision == "normal":
        return rgb
    matrix = DICHROMACIES[vision]
    lin = to_linear(rgb)
    mixed = tuple(sum(row[i] * lin[i] for i in range(3)) for row in matrix)
    return to_srgb((mixed[0], mixed[1], mixed[2]))


def luminance(rgb: RGB) -> float:
    """WCAG relative luminance of an sRGB colour."""
    r, g, b = to_linear(rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio (1 … 21) of two sRGB colours."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def to_lab(rgb: RGB) -> RGB:
    """CIELAB (D65) of an sRGB colour."""
    r, g, b = to_linear(rgb)
    xyz = (
        0.4124564 * r + 0.3575761 * g + 0.1804375 * b,
        0.2126729 * r + 0.7151522 * g + 0.0721750 * b,
        0.0193339 * r + 0.1191920 * g + 0.9503041 * b,
    )

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = (f(xyz[i] / _WHITE[i]) for i in range(3))
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e_2000(lab1: RGB, lab2: RGB) -> float:
    """CIEDE2000 colour difference (Sharma, Wu and Dalal 2005) of two CIELAB colours."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl = l2 - l1
    dc = c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    else:
        dh = h2p - h1p
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean = (l1 + l2) / 2
    cp_mean = (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        h_mean = (h1p + h2p + 360) / 2
    else:
        h_mean = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * cp_mean
    sh = 1 + 0.015 * cp_mean * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt(
        (dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh)
    )


def difference(a: RGB, b: RGB, vision: str) -> tuple[float, float]:
    """(contrast ratio, CIEDE2000) of two sRGB colours as ``vision`` sees them."""
    sa, sb = simulate(a, vision), simulate(b, vision)
    return contrast_ratio(sa, sb), delta_e_2000(to_lab(sa), to_lab(sb))
