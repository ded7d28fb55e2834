"""rummiref's rules library: tiles and their notation, melds, rule presets, turn checking,
the live referee's turn log, scoring and an exact solver. Pure Python, no third-party
dependencies.

    >>> import referee
    >>> referee.check_meld("R7 R8 J R10").ok
    True
    >>> str(referee.parse_table("r7 r8 r9 | k5 b5 o5"))
    'R7 R8 R9 | K5 B5 O5'
"""

from .tiles import (COLOURS, JOKER, Colour, ImpossibleTilesError, Meld, NotationError,
                    RummirefError, Table, Tile, all_tiles, check_counts, format_tiles,
                    parse_table, parse_tiles)
from .rules import DEFAULT_PRESET, PRESETS, Rules, UnknownRulesError, get_rules
from .melds import MeldVerdict, check_meld, meld_points
from .solver import TableUnsolvableError, arrange, max_score
from .codes import Code, Violation
from .melds import DeclarationError, Reading, meld_readings
from .turns import TurnKind, TurnVerdict, check_table, check_turn
from .changes import TableDiff, diff_tables, same_table
from .hints import Move, best_move
from .steps import MoveStep
from .dispute import LayAnswer, could_lay
from .turnlog import Entry, EntryKind, Outcome, Step, Turn, TurnLog
from .scoring import RoundResult, ScoringError, rack_value, settle_round

__all__ = [
    "COLOURS", "JOKER", "Colour", "ImpossibleTilesError", "Meld", "NotationError",
    "RummirefError", "Table", "Tile", "all_tiles", "check_counts", "format_tiles",
    "parse_table", "parse_tiles",
    "DEFAULT_PRESET", "PRESETS", "Rules", "UnknownRulesError", "get_rules",
    "MeldVerdict", "check_meld", "meld_points", "DeclarationError", "Reading", "meld_readings",
    "Move", "MoveStep", "TableUnsolvableError", "arrange", "best_move", "max_score",
    "Code", "TurnKind", "TurnVerdict", "Violation", "check_table", "check_turn",
    "TableDiff", "diff_tables", "same_table", "LayAnswer", "could_lay",
    "Entry", "EntryKind", "Outcome", "Step", "Turn", "TurnLog",
    "RoundResult", "ScoringError", "rack_value", "settle_round",
]
