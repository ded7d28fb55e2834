"""A snapshot's picture, as sent or annotated by :func:`vision.annotate.annotate` (the same
drawing ``rummiref read --annotate`` makes): each meld outlined green when valid and red when
not, each tile labelled, doubted tiles circled with a "?". The stored picture is decoded through
``vision.imageio`` (its size checked first, and reduced) after the database session is closed."""

from __future__ import annotations

from markupsafe import escape

import referee
from vision.reading import Reading

#: The annotated picture's longer side, at most (pixels).
ANNOTATED_MAX_SIDE = 1280


def annotated(image: bytes, reading: Reading, rules: referee.Rules) -> bytes:
    """The picture with ``reading`` drawn on it, as a JPEG (the corners are in the stored
    picture's pixels)."""
    import cv2

    from vision.annotate import annotate
    from vision.imageio import open_image

    pic = open_image(image, "the stored picture", max_side=ANNOTATED_MAX_SIDE)
    drawn = annotate(pic.image, reading.scaled(pic.scale) if pic.scale != 1.0 else reading,
                     rules)
    ok, buf = cv2.imencode(".jpg", drawn, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        raise ValueError("could not encode the annotated picture")
    return buf.tobytes()


def placeholder_svg(text: str) -> str:
    """A stand-in picture for a snapshot sent without one (a table typed in notation)."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" '
            f'viewBox="0 0 640 360"><rect width="640" height="360" fill="#1b5e20"/>'
            f'<text x="320" y="185" font-size="22" text-anchor="middle" fill="#fff" '
            f'font-family="sans-serif">{escape(text)}</text></svg>')
