"""Why a turn is not valid: the violation codes and the violation itself."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Code(str, enum.Enum):
    """Why a turn is not valid, most basic first. A ``str`` enum: ``Code.INVALID_MELD ==
    "invalid-meld"``, and its value is what the JSON forms carry."""

    TILES_TAKEN = "tiles-taken"                  #: a tile on the table before is gone after
    NOT_FROM_RACK = "not-from-rack"              #: a tile added that the player did not hold
    INVALID_MELD = "invalid-meld"                #: a meld left invalid at the end of the turn
    TABLE_TOUCHED_BEFORE_OPENING = "table-touched-before-opening"
    INITIAL_MELD_TOO_LOW = "initial-meld-too-low"
    JOKER_MELD_MANIPULATED = "joker-meld-manipulated"
    JOKER_REPLACEMENT_FROM_TABLE = "joker-replacement-from-table"
    JOKER_GROUP_NEEDS_BOTH = "joker-group-needs-both"
    JOKER_NOT_REUSED = "joker-not-reused"
    JOKER_NOT_REPLACED = "joker-not-replaced"    #: a joker taken without the tile it stood for
    JOKER_BEFORE_OPENING = "joker-before-opening"  #: a joker taken before the initial meld
    TIME_EXCEEDED = "time-exceeded"

    def __str__(self) -> str:
        return self.value


# Each code by name at module level too (``turns.INVALID_MELD``).
TILES_TAKEN = Code.TILES_TAKEN
NOT_FROM_RACK = Code.NOT_FROM_RACK
INVALID_MELD = Code.INVALID_MELD
TABLE_TOUCHED_BEFORE_OPENING = Code.TABLE_TOUCHED_BEFORE_OPENING
INITIAL_MELD_TOO_LOW = Code.INITIAL_MELD_TOO_LOW
JOKER_MELD_MANIPULATED = Code.JOKER_MELD_MANIPULATED
JOKER_REPLACEMENT_FROM_TABLE = Code.JOKER_REPLACEMENT_FROM_TABLE
JOKER_GROUP_NEEDS_BOTH = Code.JOKER_GROUP_NEEDS_BOTH
JOKER_NOT_REUSED = Code.JOKER_NOT_REUSED
JOKER_NOT_REPLACED = Code.JOKER_NOT_REPLACED
JOKER_BEFORE_OPENING = Code.JOKER_BEFORE_OPENING
TIME_EXCEEDED = Code.TIME_EXCEEDED


@dataclass(frozen=True)
class Violation:
    code: Code
    message: str
    melds: tuple[str, ...] = ()
    tiles: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"code": self.code.value, "message": self.message, "melds": list(self.melds),
                "tiles": list(self.tiles)}

    @classmethod
    def from_dict(cls, d: dict) -> "Violation":
        return cls(Code(d["code"]), d["message"], tuple(d.get("melds", ())),
                   tuple(d.get("tiles", ())))
