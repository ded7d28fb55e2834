"""A turn's verdict in the words a phone shows, in the page's language: one headline ("Not
valid: B7 B8 is only 2 tiles", "Valid: Ann laid R7 R8 R9"), the reasons behind it, the penalty,
and the jokers whose meaning the verdict assumed (which the owner may declare).

The referee's own sentences (``TurnVerdict.summary``) are English and written for the CLI; the
pages build theirs from the verdict's data (violation codes, melds, tiles), so every language
gets whole sentences. Nothing is judged here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from flask_babel import gettext as _
from flask_babel import ngettext

import referee
from referee.codes import Code

OK, BAD, UNSURE, NONE = "ok", "bad", "unsure", "none"


@dataclass
class Assumed:
    """A meld whose jokers the tiles as laid leave open: what the verdict took them for, and
    every other reading the owner may declare (``options``: the jokers' tiles, in laid order,
    with ``kind`` "run" or "group")."""

    meld_index: int
    meld: str
    took: str
    declared: bool
    options: list[dict] = field(default_factory=list)


@dataclass
class Words:
    tone: str
    headline: str
    reasons: list[str] = field(default_factory=list)
    penalty: Optional[str] = None
    notes: list[str] = field(default_factory=list)
    jokers: list[Assumed] = field(default_factory=list)


def waiting() -> Words:
    return Words(NONE, _("Waiting for the first turn."))


def turn_words(turn: dict, rules: referee.Rules) -> Words:
    """The words for ``turn`` (``views.turn_json``'s data)."""
    v = turn.get("verdict")
    player = turn["player"]
    if v is None:
        return Words(UNSURE, _("Cannot judge this turn: a tile was misread"),
                     reasons=[_("The camera read a table that cannot be right (%(problem)s). "
                                "Tap the wrong tile to correct it and the turn is judged again.",
                                problem=turn.get("problem") or "")])
    jokers = _assumed(v, rules)
    notes = _notes(turn, v)
    if v["legal"]:
        return Words(OK, _valid_headline(v, player), reasons=_joker_moves(v), notes=notes,
                     jokers=jokers)
    reasons = [_violation(x, v, player, rules) for x in v.get("violations", ())]
    headline = _("Not valid: %(reason)s", reason=reasons[0]) if reasons else _("Not valid")
    return Words(BAD, headline, reasons=reasons, penalty=_penalty(v), notes=notes,
                 jokers=jokers)


def reason_words(reason: Optional[str]) -> str:
    """Why the camera read the table then (a turn row's ``reason``)."""
    if reason == "end-turn":
        return _("Read when End turn was tapped.")
    return _("Read when the table had been still for a moment.")


def _tiles(tiles) -> str:
    return " ".join(str(t) for t in tiles)


def _valid_headline(v: dict, player: str) -> str:
    placed = _tiles(v.get("placed", ()))
    if v["kind"] == "draw":
        return _("%(player)s played no tiles and draws one", player=player)
    if v["kind"] == "opening":
        return _("Valid: %(player)s opened with %(tiles)s (%(points)s points)", player=player,
                 tiles=placed, points=v.get("initial_points") or 0)
    if not placed:
        return _("Valid: %(player)s rearranged the table", player=player)
    return _("Valid: %(player)s laid %(tiles)s", player=player, tiles=placed)


def _violation(x: dict, v: dict, player: str, rules: referee.Rules) -> str:
    code, melds, tiles = x.get("code"), x.get("melds") or [], x.get("tiles") or []
    meld = melds[0] if melds else ""
    if code == Code.TILES_TAKEN:
        return ngettext("%(tiles)s was taken off the table", "%(tiles)s were taken off the table",
                        len(tiles), tiles=_tiles(tiles))
    if code == Code.NOT_FROM_RACK:
        return ngettext("%(tiles)s is not on the player's rack",
                        "%(tiles)s are not on the player's rack", len(tiles), tiles=_tiles(tiles))
    if code == Code.INVALID_MELD:
        return _meld_problem(meld, rules)
    if code == Code.TABLE_TOUCHED_BEFORE_OPENING:
        return _("%(player)s changed melds on the table before making the initial meld",
                 player=player)
    if code == Code.INITIAL_MELD_TOO_LOW:
        return _("the initial meld is worth %(points)s points, %(needed)s are needed",
                 points=v.get("initial_points") or 0, needed=rules.initial_meld_points)
    if code == Code.JOKER_MELD_MANIPULATED:
        return _("%(meld)s holds a joker: it may be added to, not split or rearranged",
                 meld=meld)
    if code == Code.JOKER_REPLACEMENT_FROM_TABLE:
        return _("the joker in %(meld)s must be exchanged for a tile from the rack", meld=meld)
    if code == Code.JOKER_GROUP_NEEDS_BOTH:
        return _("the joker in %(meld)s may only be taken by adding both missing colours",
                 meld=meld)
    if code == Code.JOKER_NOT_REUSED:
        return _("a joker taken from the table must be laid again this turn in a new set")
    if code == Code.JOKER_NOT_REPLACED:
        return _("the joker in %(meld)s was taken without putting the tile it stands for in "
                 "its place", meld=meld)
    if code == Code.JOKER_BEFORE_OPENING:
        return _("the joker in %(meld)s was taken before the initial meld", meld=meld)
    if code == Code.TIME_EXCEEDED:
        return _("the turn took longer than %(limit)s seconds", limit=rules.turn_time_limit)
    return x.get("message") or str(code)


def _meld_problem(meld: str, rules: referee.Rules) -> str:
    tiles = referee.parse_tiles(meld, check=False)
    if len(tiles) < 3:
        return ngettext("%(meld)s is only %(num)s tile", "%(meld)s is only %(num)s tiles",
                        len(tiles), meld=meld or "—")
    real = [t for t in tiles if not t.is_joker]
    if not real:
        return _("%(meld)s has no numbered tile", meld=meld)
    colours, numbers = {t.colour for t in real}, {t.number for t in real}
    if len(colours) == 1 and len(numbers) == len(real):
        return _("%(meld)s is not a run: the numbers must follow each other", meld=meld)
    if len(numbers) == 1:
        if len(tiles) > 4:
            return _("%(meld)s is not a group: a group has at most 4 tiles", meld=meld)
        return _("%(meld)s is not a group: each colour may appear only once", meld=meld)
    return _("%(meld)s is neither a run nor a group", meld=meld)


def _penalty(v: dict) -> Optional[str]:
    n = int(v.get("penalty_draw") or 0)
    if v.get("restore"):
        return ngettext("Put the table back as it was, take back the tiles laid and draw "
                        "%(num)s tile.",
                        "Put the table back as it was, take back the tiles laid and draw "
                        "%(num)s tiles.", n)
    if n:
        return ngettext("Draw %(num)s tile.", "Draw %(num)s tiles.", n)
    return None


def _joker_moves(v: dict) -> list[str]:
    before = [m.strip() for m in (v.get("before") or "").split("|")] if v.get("before") else []
    out = []
    for f in v.get("jokers", ()):
        if not f.get("taken"):
            continue
        b = f.get("before_meld")
        meld = before[b] if b is not None and b < len(before) else ""
        if f.get("replaced_by"):
            out.append(_("The joker in %(meld)s was exchanged for %(tiles)s.", meld=meld,
                          tiles=_tiles(f["replaced_by"])))
        else:
            out.append(_("The joker was taken from %(meld)s.", meld=meld))
    return out


def _notes(turn: dict, v: dict) -> list[str]:
    out = []
    if turn.get("unrestored"):
        out.append(_("The table was not put back after the previous turn: this turn is judged "
                     "against the table as it was before it."))
    for n in v.get("notes", ()):
        if " was already invalid before this turn" in n:
            out.append(_("%(meld)s was already wrong before this turn; that is not this "
                         "player's fault.", meld=n.split(" was already invalid")[0]))
    return out


def _assumed(v: dict, rules: referee.Rules) -> list[Assumed]:
    out = []
    for i, m in enumerate(v.get("melds", ())):
        if not m.get("ok") or not (m.get("assumed") or m.get("declared")):
            continue
        tiles = referee.parse_tiles(m["meld"], check=False)
        slots = [k for k, t in enumerate(tiles) if t.is_joker]
        stands = m.get("stands_for") or []
        took = _tiles(stands[k] for k in slots if k < len(stands))
        options = []
        for r in referee.meld_readings(m["meld"], rules):
            pick = _tiles(r.stands_for[k] for k in slots)
            # In a group the jokers' colours may lie in any order: B1 O1 is O1 B1.
            same = (lambda o: sorted(o["tiles"].split()) == sorted(pick.split())) \
                if r.kind == "group" else (lambda o: o["tiles"] == pick)
            if not any(o["kind"] == r.kind and same(o) for o in options):
                options.append({"tiles": pick, "kind": r.kind,
                                "label": _kind_label(r.kind, pick)})
        out.append(Assumed(i, m["meld"], took, bool(m.get("declared")), options))
    return out


def _kind_label(kind: str, tiles: str) -> str:
    if kind == "run":
        return _("%(tiles)s (a run)", tiles=tiles)
    return _("%(tiles)s (a group)", tiles=tiles)


def as_dict(w: Words) -> dict[str, Any]:
    from dataclasses import asdict

    return asdict(w)
