"""One tile as read (notation, confidence, outline), a tile a person should confirm, and the
error a malformed reading raises; the limits on what a reading may hold."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import numpy as np

#: The most tiles a reading may hold: a whole set.
MAX_TILES = 106
#: The largest pixel coordinate or image side accepted (a tile may lie partly off the picture).
MAX_COORD = 100_000.0
#: Limits on the free text a reading carries.
MAX_NOTES = 50
MAX_TEXT = 500
MAX_ALTERNATIVES = 8


class ReadingError(ValueError):
    """A reading that is not well formed. ``field`` names where (``tiles[3].corners``);
    ``token`` is the bad tile text, when it is one."""

    def __init__(self, field: str, message: str, token: Optional[str] = None):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.token = token


@dataclass
class TileReading:
    """One tile as read: notation, confidence (the probability of that tile, either way up),
    outline (corners TL, TR, BR, BL as the tile is read, in image pixels; None when not
    known, as for a table typed in notation), the next most likely readings, whether it lies
    upside down from the camera's view, and the finder's score."""

    tile: str
    confidence: float
    corners: Optional[np.ndarray]
    alternatives: list[tuple[str, float]] = field(default_factory=list)
    upside_down: bool = False
    score: float = 1.0

    @property
    def centre(self) -> np.ndarray:
        return self.corners.mean(0)

    @property
    def size(self) -> float:
        """The square root of the outline's area (0 without an outline)."""
        if self.corners is None:
            return 0.0
        x, y = self.corners[:, 0].astype(np.float64), self.corners[:, 1].astype(np.float64)
        return abs(0.5 * float(x @ np.roll(y, -1) - y @ np.roll(x, -1))) ** 0.5

    def to_json(self) -> dict:
        return {"tile": self.tile, "confidence": round(float(self.confidence), 4),
                "corners": None if self.corners is None else
                [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
                "alternatives": [[a, round(float(p), 4)] for a, p in self.alternatives],
                "upside_down": bool(self.upside_down), "score": round(float(self.score), 4)}


@dataclass
class Uncertain:
    """A tile a person should confirm: its index in :attr:`Reading.tiles`, why, and the
    readings that would fit better."""

    index: int
    reason: str
    alternatives: list[str] = field(default_factory=list)
