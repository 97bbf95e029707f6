"""A QR code as SVG text (pure: segno, a maintained QR library, and the standard
library). The class mode's join link is drawn with it on the projector: phones read
it from the back of a hall when it is big, dark on light and has its quiet zone."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

import segno


@dataclass(frozen=True)
class QrImage:
    """svg: the SVG text; side: its width and height in CSS px (square)."""

    svg: str
    side: int


def qr_image(text: str, *, least_px: int, dark: str, light: str, border: int) -> QrImage:
    """`text` as a QR code (error correction M: a smudged projector still reads), each
    module a whole number of pixels (crisp edges), the image at least `least_px` wide:
    `border` light modules around it (the quiet zone a reader needs)."""
    code = segno.make_qr(text, error="m")
    modules = code.symbol_size(border=border)[0]
    scale = max(1, math.ceil(least_px / modules))
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        xmldecl=False,
        svgns=True,
        nl=False,
        border=border,
        scale=scale,
        dark=dark,
        light=light,
    )
    return QrImage(out.getvalue().decode("utf-8"), modules * scale)
