"""Checking a reading sent over the network, field by field: each check returns the value in
the reading's own types or raises :class:`~vision.tile_reading.ReadingError` naming the field
(``tiles[3].corners``) and saying what it must be. :meth:`vision.reading.Reading.from_json`
puts them together."""

from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np

from .tile_reading import (MAX_ALTERNATIVES, MAX_COORD, MAX_NOTES, MAX_TEXT, MAX_TILES,
                           ReadingError, TileReading, Uncertain)

READING_FIELDS = {"tiles", "melds", "uncertain", "notes", "image_size", "image", "table"}
TILE_FIELDS = {"tile", "confidence", "corners", "alternatives", "upside_down", "score"}
UNCERTAIN_FIELDS = {"index", "tile", "confidence", "reason", "alternatives"}


def check_notation(text: Any, where: str) -> str:
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


def check_number(value: Any, where: str, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ReadingError(where, "must be a number")
    if not math.isfinite(value) or not lo <= value <= hi:
        raise ReadingError(where, f"must be a number from {lo:g} to {hi:g}, not {value!r}")
    return float(value)


def check_text(value: Any, where: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise ReadingError(where, f"must be text of at most {MAX_TEXT} characters")
    return value


def check_list(value: Any, where: str, most: int) -> list:
    if not isinstance(value, list):
        raise ReadingError(where, "must be a list")
    if len(value) > most:
        raise ReadingError(where, f"holds {len(value)} items; at most {most}")
    return value


def tile_from_json(raw: Any, where: str) -> TileReading:
    if not isinstance(raw, dict):
        raise ReadingError(where, 'a tile is an object like {"tile": "R7", "confidence": 0.98, '
                                  '"corners": [[x, y], [x, y], [x, y], [x, y]]}')
    unknown = sorted(set(map(str, raw)) - TILE_FIELDS)
    if unknown:
        raise ReadingError(f"{where}.{unknown[0]}", "unknown field; a tile has "
                                                    + ", ".join(sorted(TILE_FIELDS)))
    tile = check_notation(raw.get("tile"), f"{where}.tile")
    conf = check_number(raw.get("confidence", 1.0), f"{where}.confidence", 0.0, 1.0)
    corners = None
    if raw.get("corners") is not None:
        pts = check_list(raw["corners"], f"{where}.corners", 4)
        if len(pts) != 4:
            raise ReadingError(f"{where}.corners", "four corners [[x, y], ...]: top left, top "
                                                   "right, bottom right, bottom left")
        for k, p in enumerate(pts):
            if not isinstance(p, list) or len(p) != 2:
                raise ReadingError(f"{where}.corners[{k}]", "a corner is [x, y]")
            for v in p:
                check_number(v, f"{where}.corners[{k}]", -MAX_COORD, MAX_COORD)
        corners = np.array(pts, np.float32)
    alts = []
    for k, a in enumerate(check_list(raw.get("alternatives", []), f"{where}.alternatives",
                                MAX_ALTERNATIVES)):
        if not isinstance(a, list) or len(a) != 2:
            raise ReadingError(f"{where}.alternatives[{k}]", 'an alternative is ["R8", 0.12]')
        alts.append((check_notation(a[0], f"{where}.alternatives[{k}]"),
                     check_number(a[1], f"{where}.alternatives[{k}]", 0.0, 1.0)))
    upside = raw.get("upside_down", False)
    if not isinstance(upside, bool):
        raise ReadingError(f"{where}.upside_down", "must be true or false")
    score = check_number(raw.get("score", 1.0), f"{where}.score", 0.0, 1.0)
    return TileReading(tile, conf, corners, alts, upside, score)


def melds_from_json(raw: Any, n: int) -> list[list[int]]:
    if raw is None:
        raise ReadingError("melds", "say which tiles lie together: lists of tile indices")
    melds = []
    where_of: dict[int, int] = {}
    for m_i, m in enumerate(check_list(raw, "melds", MAX_TILES)):
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


def uncertain_from_json(raw: Any, tiles: list[TileReading]) -> list[Uncertain]:
    out: list[Uncertain] = []
    seen: set[int] = set()
    for k, u in enumerate(check_list(raw if raw is not None else [], "uncertain", MAX_TILES)):
        where = f"uncertain[{k}]"
        if not isinstance(u, dict):
            raise ReadingError(where, 'an uncertain tile is {"index": 3, "reason": "..."}')
        unknown = sorted(set(map(str, u)) - UNCERTAIN_FIELDS)
        if unknown:
            raise ReadingError(f"{where}.{unknown[0]}", "unknown field")
        i = u.get("index")
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(tiles):
            raise ReadingError(f"{where}.index", f"{i!r} is not a tile index")
        if i in seen:
            raise ReadingError(f"{where}.index", f"tile {i} is listed twice")
        seen.add(i)
        if "tile" in u and check_notation(u["tile"], f"{where}.tile") != tiles[i].tile:
            raise ReadingError(f"{where}.tile", f"tile {i} is {tiles[i].tile}, not {u['tile']}")
        alts = [check_notation(a, f"{where}.alternatives")
                for a in check_list(u.get("alternatives", []), f"{where}.alternatives",
                               MAX_ALTERNATIVES)]
        out.append(Uncertain(i, check_text(u.get("reason", ""), f"{where}.reason"), alts))
    return out


def notes_from_json(raw: Any) -> list[str]:
    if raw is None:
        return []
    return [check_text(n, f"notes[{k}]") for k, n in enumerate(check_list(raw, "notes", MAX_NOTES))]


def image_size_from_json(raw: Any) -> tuple[int, int]:
    if raw is None:
        return (0, 0)
    if not isinstance(raw, list) or len(raw) != 2 or \
            any(isinstance(v, bool) or not isinstance(v, int) for v in raw):
        raise ReadingError("image_size", "[width, height] in pixels")
    w, h = (int(check_number(v, "image_size", 0, MAX_COORD)) for v in raw)
    return (w, h)


def label_from_json(raw: Any) -> Optional[str]:
    return None if raw is None else check_text(raw, "image")
