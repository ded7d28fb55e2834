"""Rule options and the named presets built from the rule texts the project follows.

The sources disagree on a handful of points; each point is one field of :class:`Rules`,
and each preset says where its values come from. Nothing else in rummiref hard-codes a
rule: it asks a ``Rules`` object.

Presets (``rummiref presets`` lists them):

``pressman-1998``
    The 1998 Pressman American edition ("The Original Rummikub", USA/Canada) as retold by
    the Wikipedia-derived texts: a single set of at least 30 points opens; jokers count 30
    on a rack; a retrieved joker must go into a set with at least two other tiles from the
    player's rack; no turn timer; a failed turn is restored and the player draws three;
    a round nobody wins goes to the player with the fewest tiles, scored as usual.
``sabra``
    The current "Original" (Sabra) rules printed with today's sets: 30 points in one or more
    sets; joker 30; a set holding a joker may be added to, split or taken from; a joker is
    retrieved with the tile it stands for, from the rack or the table, and must be reused in
    a new set that turn; one minute per turn, and running out of time counts as a failed
    turn (restore, draw three); a round nobody wins goes to the lowest rack, and each loser
    scores minus the difference to it. It follows text 003 where 001, the other text of the
    Sabra rules, says otherwise: 001 gives two minutes a turn, replaces a joker only from the
    hand, forbids moving tiles of a combination holding a joker, and asks for one
    combination of 30 (see ``DEPARTURES``).
``sabra-way``
    Hertzano's "Sabra Way" leaflet: 50 points in one or more sets; a meld holding a joker may
    be added to but not taken from or rearranged until its joker is retrieved; a retrieved
    joker is played at once with two more tiles from the hand; two minutes per turn, and a
    player over time draws one tile; failed turn: restore and draw three; the no-winner
    round is scored by the difference to the lowest rack.
``tournament``
    The tournament variant mentioned in the Sabra Way text on top of the current rules: a
    joker taken from a group of three must be replaced by both missing tiles; otherwise as
    ``sabra``.

The default preset is ``sabra``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal, NamedTuple

from .tiles import RummirefError


class UnknownRulesError(RummirefError, KeyError):
    def __str__(self) -> str:  # KeyError quotes its message; people should not see that
        return str(self.args[0])


@dataclass(frozen=True)
class Rules:
    """One complete set of rule options. Make variants with ``rules.replace(joker_penalty=25)``."""

    name: str = "custom"
    title: str = "Custom rules"
    source: str = ""

    # The initial meld.
    initial_meld_points: int = 30
    """Points the first meld of a player must reach, from rack tiles only."""
    initial_meld_single_set: bool = False
    """True: one set alone must reach the threshold; False: all sets of that turn together."""
    initial_meld_joker_value: Literal["represented", "zero"] = "represented"
    """What a joker counts toward the initial meld: the tile it stands for, or nothing."""

    # Melds.
    meld_order: Literal["any", "as-laid"] = "any"
    """``any``: a meld is valid if its tiles can be laid as a run or group (the verdict says how);
    ``as-laid``: a run's tiles must already lie in sequence, so a joker's place fixes its value."""

    # Jokers.
    joker_penalty: int = 30
    """What a joker left on a rack costs when someone else goes out."""
    joker_melds_manipulable: bool = True
    """False: a meld holding a joker may only be added to (not split, rearranged or taken from)
    until its joker has been retrieved."""
    joker_replacement_from_table: bool = True
    """May the tile that replaces a joker come from the table (True) or only from the rack?"""
    joker_reuse_min_rack_tiles: int = 0
    """A retrieved joker must be played this turn in a new set holding at least this many other
    tiles from the player's rack (Pressman and the Sabra Way leaflet say 2)."""
    joker_group_needs_both_missing: bool = False
    """Tournament rule: a joker in a group of three is freed only by adding both missing colours."""

    # Time and penalties.
    turn_time_limit: int | None = 60
    """Seconds per turn, or None for no timer."""
    timeout_penalty: Literal["failed-turn", "draw"] = "failed-turn"
    """Running out of time: treated as a failed turn, or the player draws ``timeout_draw`` tiles."""
    timeout_draw: int = 3
    failed_turn_draw: int = 3
    """A player who leaves an invalid table restores it, takes back their tiles and draws this many."""

    # The round nobody wins.
    no_winner_winner: Literal["lowest-points", "fewest-tiles"] = "lowest-points"
    """When the pool runs out and nobody goes out: who counts as the winner."""
    no_winner_scoring: Literal["difference", "plain"] = "difference"
    """``difference``: each loser scores minus (their rack - the winner's rack);
    ``plain``: losers score minus their whole rack, as in a normal round."""

    def replace(self, **changes: Any) -> "Rules":
        if "name" not in changes:
            changes["name"] = f"{self.name}+custom" if not self.name.endswith("+custom") else self.name
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Rules":
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise UnknownRulesError(f"unknown rule options: {', '.join(sorted(unknown))}")
        return cls(**data)

    def citations(self) -> dict[str, Citation]:
        """The rule-text sentence behind each option of this preset (empty for custom
        rules): ``{field name: Citation}``."""
        return dict(CITATIONS.get(self.name, {}))

    def timeout_outcome(self) -> str | None:
        """What a player over the turn timer does, in words ("restore the table and draw 3",
        "draw 1"); None when the preset has no timer."""
        if not self.turn_time_limit:
            return None
        if self.timeout_penalty == "failed-turn":
            return f"restore the table and draw {self.failed_turn_draw}"
        return f"draw {self.timeout_draw}"

    def describe(self) -> list[str]:
        """The options as short plain sentences, for the CLI and the scoresheet."""
        single = "in a single set" if self.initial_meld_single_set else "in one or more sets"
        out = [f"Initial meld: at least {self.initial_meld_points} points {single}, from rack tiles only"
               + (" (a joker counts 0)" if self.initial_meld_joker_value == "zero" else "")]
        out.append(f"Joker left on a rack: {self.joker_penalty} points")
        out.append("Melds holding a joker may be rearranged" if self.joker_melds_manipulable
                   else "Melds holding a joker may only be added to until the joker is retrieved")
        src = "rack or table" if self.joker_replacement_from_table else "rack"
        reuse = (f", with at least {self.joker_reuse_min_rack_tiles} other tiles from the rack"
                 if self.joker_reuse_min_rack_tiles else "")
        out.append(f"Joker retrieval: replace it with the tile it stands for (from the {src}); "
                   f"play the joker in a new set that turn{reuse}"
                   + ("; from a group of three, only by adding both missing colours"
                      if self.joker_group_needs_both_missing else ""))
        if self.turn_time_limit:
            out.append(f"Turn timer: {self.turn_time_limit} s; over time: {self.timeout_outcome()}")
        else:
            out.append("No turn timer")
        out.append(f"Invalid table at the end of a turn: restore it, take back your tiles and draw "
                   f"{self.failed_turn_draw}")
        who = "the lowest rack" if self.no_winner_winner == "lowest-points" else "the fewest tiles"
        how = ("each loser scores minus the difference to the winner's rack"
               if self.no_winner_scoring == "difference" else "scored like a normal round")
        out.append(f"Pool exhausted, nobody out: {who} wins; {how}")
        return out


PRESETS: dict[str, Rules] = {}


def _preset(**kw: Any) -> Rules:
    rules = Rules(**kw)
    PRESETS[rules.name] = rules
    return rules


_preset(
    name="pressman-1998", title="Pressman 1998 (US)",
    source="shared/rules 000 and 002: the 1998 Pressman American edition",
    initial_meld_points=30, initial_meld_single_set=True,
    joker_penalty=30, joker_melds_manipulable=True,
    joker_replacement_from_table=False, joker_reuse_min_rack_tiles=2,
    turn_time_limit=None, failed_turn_draw=3,
    no_winner_winner="fewest-tiles", no_winner_scoring="plain",
)
SABRA = _preset(
    name="sabra", title="Sabra (current Original rules)",
    source="shared/rules 003 (the Original rules with today's sets) and 001; where 001 says "
           "otherwise (a 2-minute timer, a joker replaced from the hand only, joker melds not "
           "manipulable, one combination of 30) it follows 003",
    initial_meld_points=30, initial_meld_single_set=False,
    joker_penalty=30, joker_melds_manipulable=True,
    joker_replacement_from_table=True, joker_reuse_min_rack_tiles=0,
    turn_time_limit=60, timeout_penalty="failed-turn", failed_turn_draw=3,
    no_winner_winner="lowest-points", no_winner_scoring="difference",
)
_preset(
    name="sabra-way", title="The Sabra Way (50-point opening)",
    source="shared/rules 004: How to Play Rummikub, The Sabra Way",
    initial_meld_points=50, initial_meld_single_set=False,
    joker_penalty=30, joker_melds_manipulable=False,
    joker_replacement_from_table=False, joker_reuse_min_rack_tiles=2,
    turn_time_limit=120, timeout_penalty="draw", timeout_draw=1, failed_turn_draw=3,
    no_winner_winner="lowest-points", no_winner_scoring="difference",
)
_preset(
    name="tournament", title="Tournament",
    source="shared/rules 004 (tournament joker rule) on top of the current rules (003)",
    initial_meld_points=30, initial_meld_single_set=False,
    joker_penalty=30, joker_melds_manipulable=True,
    joker_replacement_from_table=True, joker_reuse_min_rack_tiles=0,
    joker_group_needs_both_missing=True,
    turn_time_limit=60, timeout_penalty="failed-turn", failed_turn_draw=3,
    no_winner_winner="lowest-points", no_winner_scoring="difference",
)

DEFAULT_PRESET = "sabra"


class Citation(NamedTuple):
    """Where a preset's value comes from: a rule text in ``shared/rules/`` (by its number,
    ``"003"``) and the sentence that says it, word for word."""

    text: str
    quote: str


_000_PRESSMAN = "000"  # Wikipedia, 2010: the 1998 Pressman American edition
_003 = "003"  # the Original rules (the "XXL" set's leaflet, retold)
_004 = "004"  # How to Play Rummikub, The Sabra Way

_SABRA = {
    "initial_meld_points": Citation(_003, "Players must place sets, valued at least 30 points"),
    "initial_meld_single_set": Citation(
        "001", "each player will attempt to make a set of one or more groups or runs that adds "
               "up to at least 30 points"),
    "initial_meld_joker_value": Citation(
        "001", "jokers may be subsitituted for any point value"),
    "meld_order": Citation(
        _003, "A “run” is a set of three or more consecutive (one after the other) numbers, "
              "which are all of the same colour"),
    "joker_penalty": Citation(
        _003, "The joker  has a penalty value of 30 points if it remains on a rack"),
    "joker_melds_manipulable": Citation(
        _003, "A set containing a joker can have tiles added to it, be split apart or have "
              "tiles removed from it."),
    "joker_replacement_from_table": Citation(
        _003, "The tile used to replace the joker can come from the player's rack or from the "
              "table."),
    "joker_reuse_min_rack_tiles": Citation(
        _003, "A joker that has been replaced must be used in the player's same turn as part "
              "of a new set."),
    "joker_group_needs_both_missing": Citation(
        _003, "In the case of a group of 3, the joker can be replaced by the tile of either "
              "the missing colours."),
    "turn_time_limit": Citation(_003, "have a time limit of 1 minute per turn"),
    "timeout_penalty": Citation(
        _003, "If by the end of 1 minute the player has failed to successfully manipulate "
              "tiles on the table, all tilex must be returned to their original position and "
              "three tiles must be taken from the pool as a penalty."),
    "failed_turn_draw": Citation(
        _003, "all tilex must be returned to their original position and three tiles must be "
              "taken from the pool as a penalty"),
    "no_winner_winner": Citation(
        _003, "the player with the lowest count on his or her rack is the winner"),
    "no_winner_scoring": Citation(
        _003, "adds up his or her total tile  value and subtract from  it the winners  total. "
              "This result is scored as a minus amount."),
}

CITATIONS: dict[str, dict[str, Citation]] = {
    "pressman-1998": {
        "initial_meld_points": Citation(
            _000_PRESSMAN, "For a player's first move, he must play a set with a value of at "
                           "least 30 points."),
        "initial_meld_single_set": Citation(
            _000_PRESSMAN, "he must play a set with a value of at least 30 points"),
        "initial_meld_joker_value": Citation(
            _000_PRESSMAN, "with the joker (if played) assuming the value of the tile it is "
                           "being used in place of"),
        "meld_order": Citation(
            _000_PRESSMAN, "Runs are composed of three or more, same-colored tiles, in "
                           "consecutive number order."),
        "joker_penalty": Citation(_000_PRESSMAN, "The joker has a penalty value of 30."),
        "joker_melds_manipulable": Citation(
            _000_PRESSMAN, "During a player's turn, sets of tiles that have already been "
                           "played may be manipulated to allow more tiles to be played."),
        "joker_replacement_from_table": Citation(
            _000_PRESSMAN, "A player with a tile matching the color and value of a joker may "
                           "replace the joker with that tile."),
        "joker_reuse_min_rack_tiles": Citation(
            _000_PRESSMAN, "The joker must be played that same turn in a set with at least two "
                           "other tiles from the player's rack."),
        "joker_group_needs_both_missing": Citation(
            _000_PRESSMAN, "A player with a tile matching the color and value of a joker may "
                           "replace the joker with that tile."),
        "failed_turn_draw": Citation(
            _000_PRESSMAN, "the offending player must return all sets on the table to their "
                           "original state, and pick up three tiles as a penalty"),
        "no_winner_winner": Citation(
            _000_PRESSMAN, "Should the game result in no winner, the player with the least "
                           "number of tiles in their rack is the winner."),
        "no_winner_scoring": Citation(
            _000_PRESSMAN, "Scoring is then carried out in the normal manner."),
    },
    "sabra": _SABRA,
    "sabra-way": {
        "initial_meld_points": Citation(
            _004, "each player must make an initial meld of 50 points in one or more sets"),
        "initial_meld_single_set": Citation(
            _004, "each player must make an initial meld of 50 points in one or more sets"),
        "initial_meld_joker_value": Citation(
            _004, "its point value is the same as the tile it represents when melding"),
        "meld_order": Citation(_004, "#4 Blue, Joker (replacing #5 blue), #6 Blue"),
        "joker_penalty": Citation(_004, "counting 30 points for a joker"),
        "joker_melds_manipulable": Citation(
            _004, "A meld containing a Joker may not be manipulated. After a Joker has been "
                  "taken from a meld as shown above, the meld may be manipulated."),
        "joker_replacement_from_table": Citation(
            _004, "You may take a Joker from a run or group in exchange for a tile of the same "
                  "value from your hand."),
        "joker_reuse_min_rack_tiles": Citation(
            _004, "You must use the Joker immediately with 2 more tiles from your hand to make "
                  "another meld onto the table."),
        "joker_group_needs_both_missing": Citation(
            _004, "Under tournament rules, a Joker taken from a group of three tiles must be "
                  "replaced with both missing tiles."),
        "turn_time_limit": Citation(_004, "Two minutes per turn - per player."),
        "timeout_penalty": Citation(
            _004, "A player who plays past the two-minute time limit must draw one tile from "
                  "the pool."),
        "timeout_draw": Citation(
            _004, "A player who plays past the two-minute time limit must draw one tile from "
                  "the pool."),
        "failed_turn_draw": Citation(
            _004, "must replace the tiles in their original positions, take back the tiles he "
                  "has melded, and draw three additional tiles from the pool"),
        "no_winner_winner": Citation(
            _004, "the player with the lowest count remaining on his rack is considered the "
                  "winner"),
        "no_winner_scoring": Citation(
            _004, "Each of the losers adds up his total remaining tile value, subtracts the "
                  "winner's total and scores the result as a minus amount"),
    },
    "tournament": {
        **_SABRA,
        "joker_group_needs_both_missing": Citation(
            _004, "Under tournament rules, a Joker taken from a group of three tiles must be "
                  "replaced with both missing tiles."),
    },
}
"""For each preset, the sentence of a rule text behind each of its values. Where a text is
silent on an option it has no use for (the Pressman rules set no timer), there is none; where
it sets a rule without an option (the tournament rule is only in 004), the citation is the
sentence that sets the rule."""

DEPARTURES: dict[str, tuple[Citation, ...]] = {
    "sabra": (
        Citation("001", "there is a time limit imposed on turns: 2 minutes"),
        Citation("001", "Players may, however, replace Jokers with the tile it is supposed to "
                        "represent if they have it in hand."),
        Citation("001", "Combinations with Jokers may have additions but can not have tiles "
                        "moved and rearranged from it (or with it)."),
        Citation("001", "The first meld must have at least one combination which have a total "
                        "value of 30 or more points."),
    ),
}
"""Where ``sabra`` (text 003) departs from text 001, the other account of the same rules: a
2-minute timer there, a joker replaced from the hand only, joker melds not manipulable, one
combination of 30. ``sabra`` follows 003; each 001 value is an option (``replace(...)``)."""


def get_rules(rules: "Rules | str | None" = None) -> Rules:
    """A :class:`Rules` from a preset name, a Rules object, or None (the default preset)."""
    if rules is None:
        return PRESETS[DEFAULT_PRESET]
    if isinstance(rules, Rules):
        return rules
    key = str(rules).strip().lower()
    aliases = {"us": "pressman-1998", "pressman": "pressman-1998", "original": "sabra",
               "default": DEFAULT_PRESET}
    key = aliases.get(key, key)
    try:
        return PRESETS[key]
    except KeyError:
        raise UnknownRulesError(
            f"unknown rule preset {rules!r}; choose one of: {', '.join(PRESETS)}") from None
