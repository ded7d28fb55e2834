"""Reading a photo of a loser's rack at the end of a round: the tiles, row by row, what they
are worth, and the tiles to check, for the round form. Nothing is stored, so no database
write waits on the reader.

A photo is always answered with what was read: a rack read with three R10s or three jokers
is not refused, those tiles are listed to check (:func:`vision.rack.as_rack`), and the
player corrects them in the round form."""

from __future__ import annotations

from typing import Callable

import referee
from vision.reading import Reading

from ..service import Invalid

#: Largest rack photo accepted (bytes).
MAX_PHOTO_BYTES = 12 * 1024 * 1024


def read_rack(data: bytes, rules: referee.Rules, reader: Callable[..., Reading]) -> dict:
    """The photographed rack: ``tiles`` (notation, back row first), ``rows``, ``count``,
    ``value`` under ``rules`` (as read), ``uncertain`` (the tiles to check, in notation),
    ``doubts`` (for each of those: its place in ``tiles``, why, and the likelier readings),
    ``confidence`` per tile and ``notes``. Invalid (field ``photo``) for a file that is not
    a usable photo."""
    from vision.imageio import ImageError, open_image
    from vision.rack import RACK_MAX_SIDE, as_rack, rows_notation

    try:
        image = open_image(data, "photo", max_side=RACK_MAX_SIDE).image
    except ImageError as e:
        raise Invalid(str(e), field="photo") from None
    reading = as_rack(reader(image))
    order = [i for row in reading.melds for i in row]
    place = {i: k for k, i in enumerate(order)}
    tiles = referee.parse_tiles([reading.tiles[i].tile for i in order], check=False)
    value = sum(referee.rack_value([t], rules) for t in tiles)
    doubts = sorted(reading.uncertain, key=lambda u: place[u.index])
    return {"tiles": referee.format_tiles(tiles), "rows": rows_notation(reading),
            "count": len(tiles), "value": value,
            "uncertain": [reading.tiles[u.index].tile for u in doubts],
            "doubts": [{"index": place[u.index], "tile": reading.tiles[u.index].tile,
                        "reason": u.reason, "alternatives": list(u.alternatives)}
                       for u in doubts],
            "confidence": [round(float(reading.tiles[i].confidence), 3) for i in order],
            "notes": list(reading.notes), "rules": rules.name}
