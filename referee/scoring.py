"""Scoring a round: losers pay their rack, the winner collects, and every round sums to zero."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Optional, Union

from .rules import Rules, get_rules
from .words import plural
from .tiles import (COPIES, JOKERS, MAX_NUMBER, NotationError, RummirefError, Tile, TilesLike,
                    check_counts, format_tiles, parse_tiles)


def max_rack_points(rules: Rules) -> int:
    """The most a rack can be worth: every numbered tile of the set, and both jokers."""
    return 4 * COPIES * (MAX_NUMBER * (MAX_NUMBER + 1) // 2) + JOKERS * rules.joker_penalty


Rack = Union[int, str, TilesLike]


class ScoringError(RummirefError, ValueError):
    """A round that cannot be scored as given (unknown winner, negative rack, ...)."""


def rack_value(tiles: "TilesLike", rules: "Rules | str | None" = None) -> int:
    """What a rack costs its owner: face values, each joker at the preset's joker penalty."""
    rules = get_rules(rules)
    tiles = parse_tiles(tiles)
    return sum(rules.joker_penalty if t.is_joker else t.number for t in tiles)


@dataclass(frozen=True)
class RoundResult:
    """``scores``: each player's plus or minus for the round, in the order the players were given.
    ``rack_values``: what each rack was worth. ``winner``: who went out, or who counts as the
    winner of a round nobody won (a list when several tie). ``explanation``: the arithmetic in
    plain words."""

    scores: dict[str, int]
    rack_values: dict[str, int]
    winner: Union[str, list[str]]
    went_out: bool
    rules: str
    explanation: list[str] = field(default_factory=list)
    racks: dict[str, Optional[str]] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.scores.values())

    def to_dict(self) -> dict:
        return {"scores": dict(self.scores), "rack_values": dict(self.rack_values),
                "winner": self.winner, "went_out": self.went_out, "rules": self.rules,
                "racks": dict(self.racks), "explanation": list(self.explanation),
                "total": self.total}


def _is_whole_number(text: str) -> bool:
    """Whether ``text`` is what ``int()`` reads as a whole number: one optional sign and
    decimal digits. ``str.isdigit()`` alone also passes superscripts ("²") and a doubled
    sign ("+-5"), which ``int()`` refuses."""
    text = text.strip()
    if text[:1] in ("+", "-"):
        text = text[1:]
    return text.isdecimal()


def _rack(player: str, rack: Rack, rules: Rules) -> tuple[int, Optional[tuple[Tile, ...]]]:
    if isinstance(rack, bool):
        raise ScoringError(f"{player}: a rack is a number of points or a list of tiles, not {rack!r}")
    if isinstance(rack, int):
        points = rack
        tiles = None
    elif isinstance(rack, float):
        if not rack.is_integer():
            raise ScoringError(f"{player}: rack points are whole numbers, not {rack}")
        points, tiles = int(rack), None
    elif isinstance(rack, str) and _is_whole_number(rack):
        points, tiles = int(rack.strip()), None
    else:
        try:
            tiles = parse_tiles(rack if rack is not None else "")
        except NotationError as e:
            raise ScoringError(f"{player}'s rack: {e}") from e
        points = sum(rules.joker_penalty if t.is_joker else t.number for t in tiles)
    if points < 0:
        raise ScoringError(f"{player}: a rack cannot be worth {points}; enter what the tiles add up "
                           f"to, without a minus sign")
    limit = max_rack_points(rules)
    if points > limit:
        raise ScoringError(f"{player}: {points} points is more than every tile of a set together "
                           f"({limit})")
    return points, tiles


def settle_round(racks: Mapping[str, Rack], winner: Optional[str] = None,
                 rules: "Rules | str | None" = None) -> RoundResult:
    """Score one round.

    ``racks`` maps every player (in seat order) to what is left on their rack: a number of
    points, or tiles (``"R5 K13 J"`` or a list). The winner's entry may be left out or empty.
    ``winner`` is the player who went out, or ``None`` when the pool ran out and nobody did:
    then the preset decides who counts as the winner and how the losers pay.
    """
    rules = get_rules(rules)
    players = list(racks)
    if winner is not None and winner not in racks:
        players.append(winner)
    if len(players) < 2:
        raise ScoringError("a round needs at least two players")
    if any(not isinstance(p, str) or not p.strip() for p in players):
        raise ScoringError("every player needs a name")
    values: dict[str, int] = {}
    tiles: dict[str, Optional[tuple[Tile, ...]]] = {}
    for p in players:
        values[p], tiles[p] = _rack(p, racks.get(p, 0) if p == winner else racks[p], rules)
    known = [t for ts in tiles.values() if ts for t in ts]
    try:
        check_counts(known, "the racks together")
    except NotationError as e:
        raise ScoringError(str(e)) from e
    shown = {p: (format_tiles(ts) if ts is not None else None) for p, ts in tiles.items()}
    lines: list[str] = []

    if winner is not None:
        if values[winner] != 0:
            raise ScoringError(f"{winner} went out, so {winner}'s rack must be empty "
                               f"(it was given as {plural(values[winner], 'point')})")
        scores = {p: -values[p] for p in players}
        scores[winner] = sum(values[p] for p in players if p != winner)
        for p in players:
            if p != winner:
                lines.append(f"{p}: rack {values[p]}, scores {scores[p]}")
        lines.append(f"{winner} went out and collects {scores[winner]}")
        return RoundResult(scores, values, winner, True, rules.name, lines, shown)

    # Nobody went out: the preset says who counts as the winner.
    if rules.no_winner_winner == "fewest-tiles":
        if any(tiles[p] is None for p in players):
            raise ScoringError(f"under {rules.title} the round nobody wins goes to the player with the "
                               f"fewest tiles: give every rack as tiles, not points")
        key = {p: len(tiles[p]) for p in players}  # type: ignore[arg-type]
        lines.append("Nobody went out; fewest tiles wins: "
                     + ", ".join(f"{p} {key[p]}" for p in players))
    else:
        key = dict(values)
        lines.append("Nobody went out; the lowest rack wins: "
                     + ", ".join(f"{p} {values[p]}" for p in players))
    best = min(key.values())
    winners = [p for p in players if key[p] == best]
    if len(winners) == len(players):
        lines.append("Every player tied: nobody scores")
        return RoundResult({p: 0 for p in players}, values, winners, False, rules.name, lines, shown)
    base = min(values[w] for w in winners) if rules.no_winner_scoring == "difference" else 0
    scores = {p: 0 for p in players}
    for p in players:
        if p not in winners:
            scores[p] = -(values[p] - base)
            how = f"rack {values[p]} - {base} = {values[p] - base}" if base else f"rack {values[p]}"
            lines.append(f"{p}: {how}, scores {scores[p]}")
    pot = -sum(scores.values())
    share, extra = divmod(pot, len(winners))
    for i, w in enumerate(winners):  # a tie splits the pot; odd points go in seat order
        scores[w] = share + (1 if i < extra else 0)
    if len(winners) == 1:
        lines.append(f"{winners[0]} collects {pot}")
    else:
        lines.append(f"{', '.join(winners)} tie and split {pot}")
    return RoundResult(scores, values, winners[0] if len(winners) == 1 else winners, False,
                       rules.name, lines, shown)
