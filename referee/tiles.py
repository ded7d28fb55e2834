"""Tiles, melds and tables, and the text notation they share with the CLI, API and database.

Notation: a tile is a colour letter and a number, ``R7``, ``K13``; ``J`` is a joker.
Colours: ``K`` black, ``B`` blue, ``O`` orange (``Y`` for yellow is accepted and written
back as ``O``), ``R`` red. A meld is tiles in the order they lie, separated by spaces
(``R7 R8 J R10``). A table is melds separated by ``|`` or new lines.

Parsing is forgiving about case, spacing and commas, strict about meaning: every error
names the token that is wrong.
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Sequence, Union

from .words import quoted

MIN_NUMBER = 1
MAX_NUMBER = 13
COPIES = 2  #: each coloured number exists twice in a set
JOKERS = 2  #: a set holds two jokers


class Colour(enum.Enum):
    """The four tile colours, in notation order."""

    BLACK = "K"
    BLUE = "B"
    ORANGE = "O"
    RED = "R"

    @property
    def letter(self) -> str:
        return self.value

    @classmethod
    def from_letter(cls, letter: str) -> "Colour":
        letter = letter.upper()
        if letter == "Y":  # yellow editions: the same colour slot as orange
            letter = "O"
        return _COLOUR_BY_LETTER[letter]


_COLOUR_BY_LETTER = {c.value: c for c in Colour}
#: each kind of tile's (hash, place in the sort order), by (letter, number): see Tile
_KEPT: dict = {}
COLOURS: tuple[Colour, ...] = tuple(Colour)


class RummirefError(Exception):
    """Base of every error the referee raises on purpose."""


#: The most characters of a bad token kept in :attr:`NotationError.token`.
TOKEN_MAX = 40


class NotationError(RummirefError, ValueError):
    """Text that does not describe tiles, melds or a table.

    ``token`` is the offending piece of text (or ``None`` when the problem is the whole text).
    """

    def __init__(self, message: str, token: str | None = None):
        super().__init__(message)
        # The token is quoted back to people and programs: a long one by its start only.
        self.token = token if token is None or len(token) <= TOKEN_MAX else token[:TOKEN_MAX]


class ImpossibleTilesError(NotationError):
    """Tiles that cannot all exist in one Rummikub set (a third R7, a third joker)."""


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile: a coloured number, or a joker (``colour`` and ``number`` both ``None``)."""

    colour: Colour | None
    number: int | None
    #: the tile's hash and place in the sort order, worked out once (see __hash__, __lt__);
    #: not fields a caller gives or compares
    _hash: int = field(default=0, init=False, repr=False, compare=False)
    _order: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if (self.colour is None) != (self.number is None):
            raise NotationError("a tile has both a colour and a number, or neither (a joker)")
        if self.number is not None and not (MIN_NUMBER <= self.number <= MAX_NUMBER):
            raise NotationError(
                f"{self.colour.letter}{self.number}: numbers run from {MIN_NUMBER} to {MAX_NUMBER}",
                f"{self.colour.letter}{self.number}",
            )
        # what the generated hash does, hashing the colour's letter instead of the Enum member
        # (whose hash is a Python call), and the place in sort_key's order; kept, as tiles
        # are hashed and compared millions of times in a hint, and worked out once a kind
        kind = (None if self.colour is None else self.colour._value_, self.number)
        kept = _KEPT.get(kind)
        if kept is None:
            first, second = self.sort_key()
            kept = _KEPT[kind] = (hash(kind), first * 16 + second)  # (numbers run to 13)
        object.__setattr__(self, "_hash", kept[0])
        object.__setattr__(self, "_order", kept[1])

    @classmethod
    def parse(cls, token: str) -> "Tile":
        """Parse one tile, ``r7``, ``K13``, ``Y5`` (= ``O5``), ``J``."""
        return _parse_token(token)

    @property
    def is_joker(self) -> bool:
        return self.colour is None

    @property
    def face_value(self) -> int:
        """The number printed on the tile; 0 for a joker (its worth depends on where it is)."""
        return self.number or 0

    def sort_key(self) -> tuple[int, int]:
        if self.colour is None:
            return (len(COLOURS), 0)
        return (COLOURS.index(self.colour), self.number)  # type: ignore[arg-type]

    def __str__(self) -> str:
        if self.colour is None:
            return "J"
        return f"{self.colour._value_}{self.number}"  # the letter, without two Python calls

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self):
        # a copy or a pickle is made again from colour and number: the hash of a string
        # differs from one process to the next
        return (Tile, (self.colour, self.number))

    def __repr__(self) -> str:
        return f"Tile({str(self)!r})"

    def __eq__(self, other) -> bool:
        # what the generated one does (colour members are single objects), without building
        # two tuples: every look-up that finds a tile equal to another compares them
        if other.__class__ is not Tile:
            return NotImplemented
        return self.number == other.number and self.colour is other.colour

    def __lt__(self, other: "Tile") -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self._order < other._order  # sort_key's order


JOKER = Tile(None, None)

_TOKEN_RE = re.compile(r"^([A-Za-z])\s*(\d+)$")
_SPLIT_RE = re.compile(r"[\s,;]+")


def _parse_token(token: str) -> Tile:
    raw = token
    shown = quoted(raw)
    token = token.strip()
    if not token:
        raise NotationError("empty tile", raw)
    if token.upper() in ("J", "JOKER"):
        return JOKER
    m = _TOKEN_RE.match(token)
    if not m:
        raise NotationError(
            f"{shown} is not a tile: write a colour letter (K, B, O, R; Y for orange) "
            f"and a number 1-13, like R7, or J for a joker",
            raw,
        )
    letter, digits = m.group(1).upper(), m.group(2)
    if letter not in _COLOUR_BY_LETTER and letter != "Y":
        raise NotationError(
            f"{shown}: {letter!r} is not a colour (K black, B blue, O orange or Y, R red)", raw
        )
    # leading zeros are form, not meaning (R07 is R7, R013 is R13); past two digits left
    # the number is no tile's, and int() is not asked (it refuses thousands of digits)
    digits = digits.lstrip("0") or "0"
    number = int(digits) if len(digits) <= 2 else 0
    if not (MIN_NUMBER <= number <= MAX_NUMBER):
        raise NotationError(f"{shown}: tile numbers run from 1 to 13", raw)
    return Tile(Colour.from_letter(letter), number)


def all_tiles() -> tuple[Tile, ...]:
    """The full 106-tile set: every coloured number twice, and two jokers."""
    tiles = [Tile(c, n) for c in COLOURS for n in range(MIN_NUMBER, MAX_NUMBER + 1)
             for _ in range(COPIES)]
    return tuple(tiles) + (JOKER,) * JOKERS


def check_counts(tiles: Iterable[Tile], what: str = "these tiles") -> None:
    """Raise :class:`ImpossibleTilesError` if ``tiles`` hold a third copy of a tile or joker."""
    tiles = tuple(tiles)
    if all(n <= (JOKERS if t.is_joker else COPIES) for t, n in Counter(tiles).items()):
        return  # the usual case, counted at once; else the first tile over its count is named
    seen: Counter[Tile] = Counter()
    for tile in tiles:
        seen[tile] += 1
        limit = JOKERS if tile.is_joker else COPIES
        if seen[tile] > limit:
            if tile.is_joker:
                msg = f"J: a third joker in {what}; a set has only {JOKERS}"
            else:
                msg = f"{tile}: a third {tile} in {what}; a set has only {COPIES} of each tile"
            raise ImpossibleTilesError(msg, str(tile))


TilesLike = Union[str, Iterable[Union["Tile", str]]]


def parse_tiles(text: TilesLike, *, check: bool = True) -> tuple[Tile, ...]:
    """Parse tiles in order: ``"R7 r8, J  R10"`` -> ``(R7, R8, J, R10)``.

    Also takes an iterable of tiles or tokens. ``|`` is not allowed here (that is a table).
    With ``check`` (the default), a third copy of a tile or a third joker is an error.
    """
    if isinstance(text, str):
        if "|" in text or "\n" in text.strip():
            raise NotationError(
                "these are several melds (separated by | or new lines); give one list of tiles",
                "|",
            )
        tokens: list = [t for t in _SPLIT_RE.split(text.strip()) if t]
    else:
        tokens = list(text)
    tiles = tuple(t if isinstance(t, Tile) else _parse_token(str(t)) for t in tokens)
    if check:
        check_counts(tiles)
    return tiles


def format_tiles(tiles: Iterable[Tile]) -> str:
    return " ".join(str(t) for t in tiles)


@dataclass(frozen=True, slots=True)
class Meld:
    """Tiles as they lie on the table, in order. A meld need not be valid: see ``check_meld``."""

    tiles: tuple[Tile, ...]

    def __init__(self, tiles: TilesLike):
        object.__setattr__(self, "tiles", parse_tiles(tiles, check=False))

    def __iter__(self) -> Iterator[Tile]:
        return iter(self.tiles)

    def __len__(self) -> int:
        return len(self.tiles)

    def __getitem__(self, i: int) -> Tile:
        return self.tiles[i]

    def __str__(self) -> str:
        return format_tiles(self.tiles)

    def __repr__(self) -> str:
        return f"Meld({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Table:
    """The melds on the table, in the order given. ``str()`` gives ``R7 R8 R9 | K5 B5 O5``."""

    melds: tuple[Meld, ...]

    def __init__(self, melds: Iterable[Union[Meld, TilesLike]] = ()):
        ms = tuple(m if isinstance(m, Meld) else Meld(m) for m in melds)
        object.__setattr__(self, "melds", tuple(m for m in ms if len(m)))

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(t for m in self.melds for t in m.tiles)

    def __iter__(self) -> Iterator[Meld]:
        return iter(self.melds)

    def __len__(self) -> int:
        return len(self.melds)

    def __getitem__(self, i: int) -> Meld:
        return self.melds[i]

    def key(self) -> tuple:
        """The table regardless of the order of its melds and of the tiles in each meld: two
        tables with equal keys hold the same tiles grouped the same way."""
        return tuple(sorted(tuple(sorted(m.tiles)) for m in self.melds))

    def __str__(self) -> str:
        return " | ".join(str(m) for m in self.melds)

    def __repr__(self) -> str:
        return f"Table({str(self)!r})"


TableLike = Union[str, Table, Sequence[Union[Meld, TilesLike]]]


def parse_table(text: TableLike, *, check: bool = True) -> Table:
    """Parse a table: melds separated by ``|`` or new lines. An empty text is an empty table.

    Also takes a :class:`Table` or a list of melds (each a Meld, a string or a list of tokens).
    With ``check`` (the default) a third copy of a tile or a third joker anywhere on the
    table is an error naming that tile.
    """
    if isinstance(text, Table):
        table = text
    elif isinstance(text, str):
        parts = re.split(r"\s*(?:\||\r?\n)\s*", text.strip())
        table = Table(Meld(parse_tiles(p, check=False)) for p in parts if p.strip())
    else:
        table = Table(text)
    if check:
        check_counts(table.tiles, "the table")
    return table
