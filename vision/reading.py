"""One table as read: every tile, the melds as laid, and what the reader doubts.

A :class:`Reading` is what every producer makes and every consumer takes. Producers: the tile
reader (:meth:`vision.Reader.read`), the consensus over several frames
(:func:`vision.consensus.consensus`), a table typed in notation (:meth:`Reading.from_table`)
and a reading sent over the network (:meth:`Reading.from_json`). Consumers: meld grouping and
the sanity checks (:mod:`vision.melds`), the annotator (:mod:`vision.annotate`), the watcher
and the scoresheet server.

:meth:`Reading.to_json` / :meth:`Reading.from_json` is its one wire form, and ``from_json`` is
also the server's check of a reading it is sent: anything malformed (an unknown tile, a number
that is not finite or absurdly large, more tiles than a set holds, a tile in two melds, an index
out of range, an unknown field) raises :class:`ReadingError` naming the field.

    >>> r = Reading.from_table("R7 R8 R9 | K5 B5 O5")
    >>> r.notations, r.melds
    (['R7', 'R8', 'R9', 'K5', 'B5', 'O5'], [[0, 1, 2], [3, 4, 5]])
    >>> str(Reading.from_json(r.to_json()).table)
    'R7 R8 R9 | K5 B5 O5'
    >>> Reading.from_json({"tiles": [{"tile": "R14", "confidence": 1}], "melds": [[0]]})
    Traceback (most recent call last):
    ...
    vision.reading.ReadingError: tiles[0].tile: 'R14': tile numbers run from 1 to 13
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

#: The most tiles a reading may hold: a whole set.
MAX_TILES = 106
#: The largest pixel coordinate or image side accepted (a tile may lie partly off the picture).
MAX_COORD = 100_000.0
#: Limits on the free text a reading carries.
MAX_NOTES = 50
MAX_TEXT = 500
MAX_ALTERNATIVES = 8

_READING_FIELDS = {"tiles", "melds", "uncertain", "notes", "image_size", "image", "table"}
_TILE_FIELDS = {"tile", "confidence", "corners", "alternatives", "upside_down", "score"}
_UNCERTAIN_FIELDS = {"index", "tile", "confidence", "reason", "alternatives"}


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


@dataclass
class Reading:
    """What was read in one image. ``melds`` are lists of indices into ``tiles``, in the order
    the tiles are laid; every tile is in exactly one meld (a lone tile is a meld of one).
    ``uncertain``: the tiles to confirm; ``notes``: what else a person should know;
    ``image_size``: (width, height) of the image the corners refer to; ``image``: what was
    read (a file name), when known; ``timings``: milliseconds per step (not sent over the
    wire)."""

    tiles: list[TileReading] = field(default_factory=list)
    melds: list[list[int]] = field(default_factory=list)
    uncertain: list[Uncertain] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    image_size: tuple[int, int] = (0, 0)
    image: Optional[str] = None
    timings: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.tiles)

    # -- columnar views ---------------------------------------------------------------------
    @property
    def notations(self) -> list[str]:
        return [t.tile for t in self.tiles]

    @property
    def confidence(self) -> np.ndarray:
        return np.array([t.confidence for t in self.tiles], dtype=np.float32)

    @property
    def corners(self) -> np.ndarray:
        """N x 4 x 2 outlines (NaN where a tile has none)."""
        out = np.full((len(self.tiles), 4, 2), np.nan, np.float32)
        for i, t in enumerate(self.tiles):
            if t.corners is not None:
                out[i] = t.corners
        return out

    @property
    def meld_tiles(self) -> list[list[str]]:
        return [[self.tiles[i].tile for i in m] for m in self.melds]

    @property
    def table(self):
        """The melds as a ``referee.Table`` (not checked: a third copy of a tile is flagged in
        ``uncertain``, not raised)."""
        from referee import Table, parse_tiles

        return Table([parse_tiles(m, check=False) for m in self.meld_tiles])

    @property
    def uncertain_indices(self) -> set[int]:
        return {u.index for u in self.uncertain}

    # -- new readings from this one ----------------------------------------------------------
    def scaled(self, factor: float) -> "Reading":
        """The same reading for the image scaled by ``factor`` (corners and size)."""
        tiles = [dataclasses.replace(t, corners=None if t.corners is None
                                     else t.corners * np.float32(factor)) for t in self.tiles]
        w, h = self.image_size
        return dataclasses.replace(self, tiles=tiles,
                                   image_size=(round(w * factor), round(h * factor)))

    def corrected(self, index: int, tile: str) -> "Reading":
        """The same reading with tile ``index`` read as ``tile`` by a person: sure, and no
        longer doubted."""
        if not 0 <= index < len(self.tiles):
            raise ReadingError("index", f"give a tile number from 0 to {len(self.tiles) - 1}")
        notation = _notation(tile, "tile")
        tiles = list(self.tiles)
        tiles[index] = dataclasses.replace(tiles[index], tile=notation, confidence=1.0,
                                           alternatives=[])
        return dataclasses.replace(self, tiles=tiles,
                                   uncertain=[u for u in self.uncertain if u.index != index])

    # -- the wire form ------------------------------------------------------------------------
    def to_json(self) -> dict:
        """JSON-ready data; :meth:`from_json` gives the reading back. ``table`` (the melds in
        notation) is there for people; ``timings`` are left out."""
        out: dict[str, Any] = {
            "image": self.image, "image_size": [int(v) for v in self.image_size],
            "tiles": [t.to_json() for t in self.tiles],
            "melds": [[int(i) for i in m] for m in self.melds],
            "uncertain": [{"index": u.index, "tile": self.tiles[u.index].tile,
                           "confidence": round(float(self.tiles[u.index].confidence), 4),
                           "reason": u.reason, "alternatives": list(u.alternatives)}
                          for u in self.uncertain],
            "notes": list(self.notes), "table": str(self.table)}
        return out

    @classmethod
    def from_json(cls, data: Any) -> "Reading":
        """A reading from :meth:`to_json`'s data, checked; :class:`ReadingError` names the
        first thing wrong. A reading with ``table`` and no ``tiles`` is a table typed in
        notation (:meth:`from_table`)."""
        if not isinstance(data, dict):
            raise ReadingError("reading", "send a JSON object with tiles and melds (or a table "
                                          "in notation)")
        unknown = sorted(set(map(str, data)) - _READING_FIELDS)
        if unknown:
            raise ReadingError(unknown[0], f"unknown field; a reading has "
                                           f"{', '.join(sorted(_READING_FIELDS))}")
        if "tiles" not in data:
            if not isinstance(data.get("table"), str):
                raise ReadingError("tiles", "send tiles and melds, or a table in notation")
            extra = sorted(set(data) - {"table", "image", "image_size", "notes"})
            if extra:
                raise ReadingError(extra[0], "goes with tiles; a table in notation has none")
            reading = cls.from_table(data["table"])
            reading.image = _label(data.get("image"))
            reading.notes = _notes(data.get("notes"))
            reading.image_size = _image_size(data.get("image_size"))
            return reading
        raw_tiles = data["tiles"]
        if not isinstance(raw_tiles, list):
            raise ReadingError("tiles", "must be a list of tiles")
        if len(raw_tiles) > MAX_TILES:
            raise ReadingError("tiles", f"{len(raw_tiles)} tiles; a set has {MAX_TILES}, so a "
                                        f"table holds at most that many")
        tiles = [_tile(t, f"tiles[{i}]") for i, t in enumerate(raw_tiles)]
        melds = _melds(data.get("melds"), len(tiles))
        uncertain = _uncertain(data.get("uncertain"), tiles)
        reading = cls(tiles, melds, uncertain, _notes(data.get("notes")),
                      _image_size(data.get("image_size")), _label(data.get("image")))
        if "table" in data:
            if not isinstance(data["table"], str):
                raise ReadingError("table", "must be the melds in notation")
            from referee import RummirefError, same_table

            try:
                same = same_table(data["table"], reading.table)
            except RummirefError as e:
                raise ReadingError("table", str(e), getattr(e, "token", None)) from None
            if not same:
                raise ReadingError("table", f"says {data['table']!r} but the tiles and melds "
                                            f"are {str(reading.table)!r}")
        return reading

    @classmethod
    def from_table(cls, text: str) -> "Reading":
        """A table typed in notation (``"R7 R8 R9 | K5 B5 O5"``): sure tiles, no outlines.
        Tiles are checked one by one: a misreading may hold a third copy of a tile, to be
        corrected later."""
        if len(text) > 20 * MAX_TILES:
            raise ReadingError("table", "is too long for a table of tiles")
        tiles: list[TileReading] = []
        melds: list[list[int]] = []
        for chunk in text.replace("\n", "|").split("|"):
            tokens = chunk.replace(",", " ").split()
            if not tokens:
                continue
            melds.append([])
            for tok in tokens:
                melds[-1].append(len(tiles))
                tiles.append(TileReading(_notation(tok, "table"), 1.0, None))
        if len(tiles) > MAX_TILES:
            raise ReadingError("table", f"{len(tiles)} tiles; a set has {MAX_TILES}")
        return cls(tiles, melds)


# --- checking the wire form ---------------------------------------------------------------------

def _notation(text: Any, where: str) -> str:
    from referee import NotationError, parse_tiles

    if not isinstance(text, str) or not text.strip() or len(text) > 10:
        raise ReadingError(where, 'a tile in notation, like "R7", "K13" or "J"')
    try:
        parsed = parse_tiles(text, check=False)
    except NotationError as e:
        raise ReadingError(where, str(e), e.token) from None
    if len(parsed) != 1:
        raise ReadingError(where, f"one tile, not {text!r}", text)
    return str(parsed[0])


def _number(value: Any, where: str, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ReadingError(where, "must be a number")
    if not math.isfinite(value) or not lo <= value <= hi:
        raise ReadingError(where, f"must be a number from {lo:g} to {hi:g}, not {value!r}")
    return float(value)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise ReadingError(where, f"must be text of at most {MAX_TEXT} characters")
    return value


def _list(value: Any, where: str, most: int) -> list:
    if not isinstance(value, list):
        raise ReadingError(where, "must be a list")
    if len(value) > most:
        raise ReadingError(where, f"holds {len(value)} items; at most {most}")
    return value


def _tile(raw: Any, where: str) -> TileReading:
    if not isinstance(raw, dict):
        raise ReadingError(where, 'a tile is an object like {"tile": "R7", "confidence": 0.98, '
                                  '"corners": [[x, y], [x, y], [x, y], [x, y]]}')
    unknown = sorted(set(map(str, raw)) - _TILE_FIELDS)
    if unknown:
        raise ReadingError(f"{where}.{unknown[0]}", "unknown field; a tile has "
                                                    + ", ".join(sorted(_TILE_FIELDS)))
    tile = _notation(raw.get("tile"), f"{where}.tile")
    conf = _number(raw.get("confidence", 1.0), f"{where}.confidence", 0.0, 1.0)
    corners = None
    if raw.get("corners") is not None:
        pts = _list(raw["corners"], f"{where}.corners", 4)
        if len(pts) != 4:
            raise ReadingError(f"{where}.corners", "four corners [[x, y], ...]: top left, top "
                                                   "right, bottom right, bottom left")
        for k, p in enumerate(pts):
            if not isinstance(p, list) or len(p) != 2:
                raise ReadingError(f"{where}.corners[{k}]", "a corner is [x, y]")
            for v in p:
                _number(v, f"{where}.corners[{k}]", -MAX_COORD, MAX_COORD)
        corners = np.array(pts, np.float32)
    alts = []
    for k, a in enumerate(_list(raw.get("alternatives", []), f"{where}.alternatives",
                                MAX_ALTERNATIVES)):
        if not isinstance(a, list) or len(a) != 2:
            raise ReadingError(f"{where}.alternatives[{k}]", 'an alternative is ["R8", 0.12]')
        alts.append((_notation(a[0], f"{where}.alternatives[{k}]"),
                     _number(a[1], f"{where}.alternatives[{k}]", 0.0, 1.0)))
    upside = raw.get("upside_down", False)
    if not isinstance(upside, bool):
        raise ReadingError(f"{where}.upside_down", "must be true or false")
    score = _number(raw.get("score", 1.0), f"{where}.score", 0.0, 1.0)
    return TileReading(tile, conf, corners, alts, upside, score)


def _melds(raw: Any, n: int) -> list[list[int]]:
    if raw is None:
        raise ReadingError("melds", "say which tiles lie together: lists of tile indices")
    melds = []
    where_of: dict[int, int] = {}
    for m_i, m in enumerate(_list(raw, "melds", MAX_TILES)):
        if not isinstance(m, list) or not m:
            raise ReadingError(f"melds[{m_i}]", "a meld is a non-empty list of tile indices")
        for i in m:
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < n:
                raise ReadingError(f"melds[{m_i}]", f"{i!r} is not a tile index (0 to {n - 1})")
            if i in where_of:
                raise ReadingError(f"melds[{m_i}]", f"tile {i} is in two melds "
                                                    f"({where_of[i]} and {m_i})")
            where_of[i] = m_i
        melds.append(list(m))
    missing = [i for i in range(n) if i not in where_of]
    if missing:
        raise ReadingError("melds", f"tile {missing[0]} is in no meld; a lone tile is a meld "
                                    f"of one")
    return melds


def _uncertain(raw: Any, tiles: list[TileReading]) -> list[Uncertain]:
    out: list[Uncertain] = []
    seen: set[int] = set()
    for k, u in enumerate(_list(raw if raw is not None else [], "uncertain", MAX_TILES)):
        where = f"uncertain[{k}]"
        if not isinstance(u, dict):
            raise ReadingError(where, 'an uncertain tile is {"index": 3, "reason": "..."}')
        unknown = sorted(set(map(str, u)) - _UNCERTAIN_FIELDS)
        if unknown:
            raise ReadingError(f"{where}.{unknown[0]}", "unknown field")
        i = u.get("index")
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(tiles):
            raise ReadingError(f"{where}.index", f"{i!r} is not a tile index")
        if i in seen:
            raise ReadingError(f"{where}.index", f"tile {i} is listed twice")
        seen.add(i)
        if "tile" in u and _notation(u["tile"], f"{where}.tile") != tiles[i].tile:
            raise ReadingError(f"{where}.tile", f"tile {i} is {tiles[i].tile}, not {u['tile']}")
        alts = [_notation(a, f"{where}.alternatives")
                for a in _list(u.get("alternatives", []), f"{where}.alternatives",
                               MAX_ALTERNATIVES)]
        out.append(Uncertain(i, _text(u.get("reason", ""), f"{where}.reason"), alts))
    return out


def _notes(raw: Any) -> list[str]:
    if raw is None:
        return []
    return [_text(n, f"notes[{k}]") for k, n in enumerate(_list(raw, "notes", MAX_NOTES))]


def _image_size(raw: Any) -> tuple[int, int]:
    if raw is None:
        return (0, 0)
    if not isinstance(raw, list) or len(raw) != 2 or \
            any(isinstance(v, bool) or not isinstance(v, int) for v in raw):
        raise ReadingError("image_size", "[width, height] in pixels")
    w, h = (int(_number(v, "image_size", 0, MAX_COORD)) for v in raw)
    return (w, h)


def _label(raw: Any) -> Optional[str]:
    return None if raw is None else _text(raw, "image")
