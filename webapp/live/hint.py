"""A hint on the live table: a player types their rack (or takes it from a rack photo) on their
phone and gets the turn that lays the most rack tiles (ties: the most points) under the game's
rules, from the table as the round's turn log has it, told as steps in the page's language.

The search is ``referee.best_move``: every hint is a legal turn (with the jokers the players
declared read as declared), may take a joker where the rules allow it, and says draw only when
no legal play exists or none was found (then the words say so). Whether the player has made
their initial meld comes from the log. Nothing is stored and no other phone hears of it: a
hint changes nothing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from flask_babel import gettext as _
from flask_babel import ngettext

import referee
from referee.hints import HINT_CPU_SECONDS

from ..exceptions import Conflict, Invalid, unknown_fields
from ..models import Game
from ..names import name_key
from ..presets import tiles_input
from . import store

FIELDS = {"rack", "player"}


@dataclass(frozen=True)
class Position:
    """What a hint is asked about: the table, the rules, who is to move, who has opened and
    what the table's jokers were declared to stand for (``{meld index: tiles}``)."""

    table: referee.Table
    rules: referee.Rules
    players: tuple[str, ...]
    to_move: str
    opened: frozenset[str]
    declared: dict = field(default_factory=dict)


def position(db, game: Game) -> Position:
    """The position of the game's live round: the table as the log has it (the table before a
    failed turn, when that one must be put back), or an empty table before the first snapshot."""
    players = tuple(p.name for p in game.players)
    rules = referee.get_rules(game.rules)
    s = store.current_session(db, game, create=False)
    if s is None:
        return Position(referee.Table(), rules, players,
                        players[(game.timer_seat or 0) % len(players)], frozenset())
    log = store.load(s)
    return Position(log.table, log.rules, players, log.to_move, log.opened, log.declared)


def parse(body: Any, players: tuple[str, ...]) -> tuple[list[referee.Tile], Optional[str]]:
    """(rack tiles, player or None) from ``{"rack": "R5 K9 J", "player": "Ann"}``."""
    if not isinstance(body, dict) or not isinstance(body.get("rack"), (str, list)):
        raise Invalid('send {"rack": "R5 K9 B9 J"} and, if it is not the turn of the player '
                      'to move, "player"', field="rack")
    unknown = set(body) - FIELDS
    if unknown:
        raise Invalid(f"{unknown_fields(unknown)}; send rack and player",
                      field=sorted(map(str, unknown))[0])
    rack = tiles_input(body["rack"], "rack")
    if not rack:
        raise Invalid("the rack is empty: type the tiles on it, like R5 K9 B9 J", field="rack")
    player = body.get("player")
    if player is not None and not isinstance(player, str):
        raise Invalid('"player" is a player\'s name', field="player")
    if player is not None:
        known = {name_key(p): p for p in players}
        if name_key(player) not in known:
            raise Invalid(f"{player!r} is not a player in this game; the players are "
                          f"{', '.join(players)}", field="player")
        player = known[name_key(player)]
    return rack, player


def hint(position: Position, rack: list[referee.Tile], player: Optional[str], *,
         cpu_limit: Optional[float] = HINT_CPU_SECONDS) -> dict:
    """The hint's answer: ``player``, ``opened``, ``table`` (before), ``rack``, ``move``
    (``referee.Move.to_dict()``) and ``words`` (:func:`words`). ``cpu_limit``: the CPU
    seconds the search may take (``referee.best_move``'s)."""
    who = player or position.to_move
    opened = who in position.opened
    try:
        move = referee.best_move(position.table, rack, position.rules, opened=opened,
                                 cpu_limit=cpu_limit, jokers=position.declared)
    except referee.TableUnsolvableError:
        raise Conflict("the table as the log has it cannot be laid in valid melds: correct the "
                       "misread tile in the last turn first, then ask again") from None
    except referee.RummirefError as e:  # a fourth R5 between the table and the rack, ...
        raise Invalid(f"this rack does not fit the table: {e}", field="rack") from None
    return {"player": who, "opened": opened, "table": str(position.table),
            "rack": referee.format_tiles(rack), "rules": position.rules.name,
            "move": move.to_dict(), "words": words(move, position.rules)}


def phrases() -> dict[str, str]:
    """:data:`referee.steps.PHRASES` in the page's language, each a whole sentence."""
    return {
        "swap": _("Swap the joker in %(meld)s for your %(tiles)s."),
        "swap-lay": _("Swap the joker in %(meld)s for your %(tiles)s, then lay it with "
                      "%(rest)s."),
        "swap-add": _("Swap the joker in %(meld)s for your %(tiles)s, then add it to "
                      "%(rest)s."),
        "swap-from": _("Swap the joker in %(meld)s for %(tiles)s from %(sources)s."),
        "swap-from-lay": _("Swap the joker in %(meld)s for %(tiles)s from %(sources)s, then "
                           "lay it with %(rest)s."),
        "swap-from-add": _("Swap the joker in %(meld)s for %(tiles)s from %(sources)s, then "
                           "add it to %(rest)s."),
        "split": _("Split %(meld)s at %(tile)s."),
        "move": _("Move %(tiles)s from %(meld)s to %(target)s."),
        "add": _("Add %(tiles)s to %(meld)s."),
        "lay": _("Lay %(meld)s."),
        "lay-with": _("Lay %(meld)s (%(moved)s)."),
    }


def step_words(step: referee.MoveStep) -> str:
    """One step as a sentence in the page's language."""
    args = dict(step.args)
    if "moved" in args:
        args["moved"] = "; ".join(_("%(tiles)s from %(meld)s", tiles=t, meld=m)
                                  for t, m in args["moved"])
    return phrases()[step.phrase] % args


def words(move: referee.Move, rules: referee.Rules) -> dict[str, Any]:
    """``headline``, ``steps`` (sentences), ``table`` (after the move, or None) and ``note``
    (None, or what the hint could not promise)."""
    note = None
    if move.draws:
        if not move.exact:
            headline = _("No play found in the time the referee may take: draw a tile.")
            note = _("A play may still exist; look for one yourself before drawing.")
        elif move.opening:
            headline = _("No initial meld of %(points)s points can be made from this rack: "
                         "draw a tile.", points=rules.initial_meld_points)
        else:
            headline = _("No tile can be played: draw a tile.")
        return {"headline": headline, "steps": [], "table": None, "note": note}
    n = len(move.placed)
    tiles = referee.format_tiles(move.placed)
    if move.opening:
        headline = ngettext("Open with %(tiles)s: %(num)d tile, %(points)s points toward the "
                            "initial meld.",
                            "Open with %(tiles)s: %(num)d tiles, %(points)s points toward the "
                            "initial meld.", n, tiles=tiles, points=move.initial_points)
    else:
        headline = ngettext("Play %(tiles)s: %(num)d tile.", "Play %(tiles)s: %(num)d tiles.",
                            n, tiles=tiles)
    if not move.exact:
        note = _("The best play found in the time the referee may take; a better one may "
                 "exist.")
    return {"headline": headline, "steps": [step_words(s) for s in move.steps],
            "table": str(move.table), "note": note}
