"""Reading a photo of a loser's rack at the end of a round: the tiles and what they are worth,
for the round form. Nothing is stored, so no database write waits on the reader."""

from __future__ import annotations

from typing import Callable

import referee
from vision.reading import Reading

from ..service import Invalid

#: Largest rack photo accepted (bytes).
MAX_PHOTO_BYTES = 12 * 1024 * 1024

def read_rack(data: bytes, rules: referee.Rules, reader: Callable[..., Reading]) -> dict:
    """The tiles on the photographed rack, their value under ``rules`` and the tiles to check.
    Invalid (field ``photo``) for a file that is not a usable photo or a reading that cannot be
    a rack."""
    from vision.imageio import WORK_MAX_SIDE, ImageError, open_image

    try:
        image = open_image(data, "photo", max_side=WORK_MAX_SIDE).image
    except ImageError as e:
        raise Invalid(str(e), field="photo") from None
    reading = reader(image)
    notations = reading.notations
    try:
        tiles = referee.parse_tiles(notations)
        value = referee.rack_value(tiles, rules)
    except referee.RummirefError as e:
        raise Invalid(f"the photo was read as {' '.join(notations)}, which cannot be a rack "
                      f"({e}); type the rack instead", field="photo") from None
    doubted = sorted(reading.uncertain_indices)
    return {"tiles": referee.format_tiles(tiles), "count": len(tiles), "value": value,
            "uncertain": [notations[i] for i in doubted],
            "confidence": [round(float(c), 3) for c in reading.confidence],
            "rules": rules.name}
