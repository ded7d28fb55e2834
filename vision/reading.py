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
    vision.tile_reading.ReadingError: tiles[0].tile: 'R14': tile numbers run from 1 to 13
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from .tile_reading import MAX_TILES, ReadingError, TileReading, Uncertain
from .wire import (READING_FIELDS, check_notation, image_size_from_json, label_from_json,
                   melds_from_json, notes_from_json, tile_from_json, uncertain_from_json)

__all__ = ["Reading", "ReadingError", "TileReading", "Uncertain", "MAX_TILES"]


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
        notation = check_notation(tile, "tile")
        tiles = list(self.tiles)
        tiles[index] = dataclasses.replace(tiles[index], tile=notation, confidence=1.0,
                                           alternatives=[])
        return dataclasses.replace(self, tiles=tiles,
                                   uncertain=[u for u in self.uncertain if u.index != index])

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
        unknown = sorted(set(map(str, data)) - READING_FIELDS)
        if unknown:
            raise ReadingError(unknown[0], f"unknown field; a reading has "
                                           f"{', '.join(sorted(READING_FIELDS))}")
        if "tiles" not in data:
            if not isinstance(data.get("table"), str):
                raise ReadingError("tiles", "send tiles and melds, or a table in notation")
            extra = sorted(set(data) - {"table", "image", "image_size", "notes"})
            if extra:
                raise ReadingError(extra[0], "goes with tiles; a table in notation has none")
            reading = cls.from_table(data["table"])
            reading.image = label_from_json(data.get("image"))
            reading.notes = notes_from_json(data.get("notes"))
            reading.image_size = image_size_from_json(data.get("image_size"))
            return reading
        raw_tiles = data["tiles"]
        if not isinstance(raw_tiles, list):
            raise ReadingError("tiles", "must be a list of tiles")
        if len(raw_tiles) > MAX_TILES:
            raise ReadingError("tiles", f"{len(raw_tiles)} tiles; a set has {MAX_TILES}, so a "
                                        f"table holds at most that many")
        tiles = [tile_from_json(t, f"tiles[{i}]") for i, t in enumerate(raw_tiles)]
        melds = melds_from_json(data.get("melds"), len(tiles))
        uncertain = uncertain_from_json(data.get("uncertain"), tiles)
        reading = cls(tiles, melds, uncertain, notes_from_json(data.get("notes")),
                      image_size_from_json(data.get("image_size")), label_from_json(data.get("image")))
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
                tiles.append(TileReading(check_notation(tok, "table"), 1.0, None))
        if len(tiles) > MAX_TILES:
            raise ReadingError("table", f"{len(tiles)} tiles; a set has {MAX_TILES}")
        return cls(tiles, melds)
