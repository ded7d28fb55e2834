"""What the scoresheet does, apart from HTTP: games, rounds, totals, the timer, the audit trail.

Every score comes from :func:`referee.settle_round`; this module only stores what it returns and
adds rounds up. Functions that change something expect a Session whose transaction they may
write in and that the caller commits; they lock the game row first (``SELECT ... FOR UPDATE`` on
PostgreSQL; on SQLite the write transaction already holds the database's write lock), so two
phones changing one game at the same moment are applied one after the other.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import json
import secrets
import time
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Optional

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session, selectinload

import referee

from .models import (DEVICE_MAX, NAME_MAX, AuditEntry, Game, GameEvent, Player,
                     Round, RoundScore, utcnow)

MIN_PLAYERS, MAX_PLAYERS = 2, 6
RACK_TEXT_MAX = 400
TIMER_WARNING_SECONDS = 10


# --- errors -----------------------------------------------------------------------------------

class ServiceError(Exception):
    """A request that cannot be done; ``status`` is the HTTP status it maps to."""

    status = 400

    def __init__(self, message: str, **extra: Any):
        super().__init__(message)
        self.message = message
        self.extra = {k: v for k, v in extra.items() if v is not None}


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class Invalid(ServiceError):
    """Well-formed JSON that breaks the rules of the game or of the API."""

    status = 422


class PreconditionFailed(ServiceError):
    """The thing changed since the client read it (``If-Match``)."""

    status = 412


# --- small helpers ----------------------------------------------------------------------------

def iso(dt: Optional[datetime]) -> Optional[str]:
    if dt is None:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def iso_ms(ms: Optional[int]) -> Optional[str]:
    return None if ms is None else iso(datetime.fromtimestamp(ms / 1000, timezone.utc))


def now_ms() -> int:
    return int(time.time() * 1000)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(game: Game, token: str) -> bool:
    return hmac.compare_digest(game.token_hash, hash_token(token))


def name_key(name: str) -> str:
    """What makes two names one player: compatibility forms (full-width letters, ligatures),
    case and runs of spaces do not count. ``players.name_key`` holds it (migration 0002 wrote
    it for the names stored before)."""
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    return unicodedata.normalize("NFKC", text.casefold())


def clean_device(value: Any) -> Optional[str]:
    """A device name for the audit trail: printable, at most DEVICE_MAX characters."""
    if not isinstance(value, str):
        return None
    text = "".join(ch for ch in value if unicodedata.category(ch)[0] != "C").strip()
    return text[:DEVICE_MAX] or None


#: Zero-width (non-)joiners are part of how Persian, Indic scripts and emoji sequences are
#: written: allowed between two characters that are not ASCII, refused anywhere else.
_JOINERS = frozenset("\u200c\u200d")
#: Letters and symbols that show as nothing (Hangul fillers, the blank Braille pattern, the
#: combining grapheme joiner) and the variation selectors, which only mean something after
#: an emoji or an ideograph.
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")


def _hidden(name: str) -> Optional[str]:
    """The first character of ``name`` that a reader cannot see or that turns the text's
    direction (format, control, unassigned, private-use or separator characters), or None."""
    for i, ch in enumerate(name):
        cat = unicodedata.category(ch)
        variation = "\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef"
        if ch in _JOINERS or variation:
            before = name[i - 1] if i else ""
            after = name[i + 1] if i + 1 < len(name) else ""
            if before and not before.isascii() and (variation or (after and not after.isascii())):
                continue
            return ch
        if ch in _BLANK or cat in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            return ch
    return None


def clean_player_name(raw: Any, index: int) -> str:
    """A player's name as stored: NFKC (so full-width letters and ligatures are plain ones),
    spaces trimmed and single; :class:`Invalid` for an empty or long name, or one holding a
    character that hides (a zero-width space, a byte-order mark, a right-to-left override)."""
    if not isinstance(raw, str):
        raise Invalid(f"player {index + 1}: a name is text, not {json.dumps(raw)}",
                      field="players")
    name = " ".join(part for part in unicodedata.normalize("NFKC", raw).strip().split(" ") if part)
    hidden = _hidden(name)
    if hidden is not None:
        what = " ".join(filter(None, (f"U+{ord(hidden):04X}", unicodedata.name(hidden, ""))))
        kind = "a line break or control character" if unicodedata.category(hidden) in (
            "Cc", "Zl", "Zp") else "an invisible or text-direction character"
        raise Invalid(f"player {index + 1}'s name holds {kind} ({what}); type the name with "
                      f"letters, digits and spaces", field="players", player=ascii(name)[1:-1])
    if not name:
        raise Invalid(f"player {index + 1} has no name: type a name (1 to {NAME_MAX} characters)",
                      field="players")
    if len(name) > NAME_MAX:
        raise Invalid(f"the name {name[:NAME_MAX]!r}... is too long: {NAME_MAX} characters at most",
                      field="players")
    return name


# --- rules ------------------------------------------------------------------------------------

def timeout_penalty_text(rules: referee.Rules) -> Optional[str]:
    """What happens when the turn timer runs out, in the words of ``Rules.describe()``."""
    if not rules.turn_time_limit:
        return None
    for line in rules.describe():
        if line.startswith("Turn timer:") and "over time: " in line:
            return line.split("over time: ", 1)[1]
    if rules.timeout_penalty == "draw":
        return f"draw {rules.timeout_draw}"
    return f"restore the table and draw {rules.failed_turn_draw}"


def rules_json(rules: referee.Rules) -> dict[str, Any]:
    return {"name": rules.name, "title": rules.title, "source": rules.source,
            "description": list(rules.describe()), "joker_penalty": rules.joker_penalty,
            "turn_time_limit": rules.turn_time_limit,
            "timeout_penalty": timeout_penalty_text(rules), "options": rules.to_dict()}


def presets_json() -> dict[str, Any]:
    return {"default": referee.DEFAULT_PRESET,
            "presets": [rules_json(r) for r in referee.PRESETS.values()]}


def rack_preview(body: Any) -> dict[str, Any]:
    """What a rack is worth under a preset, without saving anything (the tile keypad's total)."""
    if not isinstance(body, dict) or not isinstance(body.get("tiles"), (str, list)):
        raise Invalid('send {"tiles": "R5 K13 J", "rules": "sabra"}', field="tiles")
    unknown = set(body) - {"tiles", "rules"}
    if unknown:
        raise Invalid(f"unknown field(s) {', '.join(sorted(map(str, unknown)))}; send tiles and "
                      f"rules", field=sorted(unknown)[0])
    tiles_in = body["tiles"]
    if isinstance(tiles_in, str) and len(tiles_in) > RACK_TEXT_MAX or \
            isinstance(tiles_in, list) and (len(tiles_in) > 106
                                            or not all(isinstance(t, str) for t in tiles_in)):
        raise Invalid("the tiles are a text like \"R5 K13 J\" or a list of up to 106 tiles",
                      field="tiles")
    rules_name = body.get("rules")
    if rules_name is not None and not isinstance(rules_name, str):
        raise Invalid(f'"rules" is the name of a preset: {", ".join(referee.PRESETS)}',
                      field="rules")
    try:
        rules = referee.get_rules(rules_name)
        tiles = referee.parse_tiles(tiles_in)
        value = referee.rack_value(tiles, rules)
    except referee.RummirefError as e:
        raise Invalid(str(e), token=getattr(e, "token", None),
                      field="rules" if isinstance(e, referee.UnknownRulesError) else "tiles") \
            from None
    return {"tiles": referee.format_tiles(tiles), "value": value, "count": len(tiles),
            "rules": rules.name}


def game_rules(game: Game) -> referee.Rules:
    return referee.get_rules(game.rules)


# --- reading ----------------------------------------------------------------------------------

def get_game(db: Session, game_id: str, *, lock: bool = False) -> Game:
    stmt = select(Game).where(Game.id == game_id)
    if lock:
        stmt = stmt.with_for_update()
    game = db.execute(stmt).scalar_one_or_none()
    if game is None:
        raise NotFound(f"there is no game {game_id!r}; check the link", game=game_id)
    return game


def load_game(db: Session, game_id: str) -> Game:
    stmt = (select(Game).where(Game.id == game_id)
            .options(selectinload(Game.players), selectinload(Game.rounds)))
    game = db.execute(stmt).scalar_one_or_none()
    if game is None:
        raise NotFound(f"there is no game {game_id!r}; check the link", game=game_id)
    return game


def round_json(r: Round) -> dict[str, Any]:
    return _round_dict(r.number, r.starter, r.winner, r.racks, r.result, r.created_at,
                       r.updated_at, r.edits, r.version or 0)


def round_etag(r: Round) -> str:
    """The round's entity tag (unquoted): its version."""
    return str(r.version or 0)


def _round_dict(number: int, starter: str, winner: Optional[str], racks: dict, res: dict,
                created_at: datetime, updated_at: datetime, edits: int,
                version: int) -> dict[str, Any]:
    return {"number": number, "version": version, "starter": starter, "winner": winner,
            "went_out": bool(res["went_out"]), "counted_winner": res["winner"],
            "racks": dict(racks), "rack_values": dict(res["rack_values"]),
            "scores": dict(res["scores"]), "total": res["total"],
            "explanation": list(res["explanation"]), "rules": res["rules"],
            "created_at": iso(created_at), "updated_at": iso(updated_at),
            "edited": edits > 0, "edits": edits}


def totals_of(players: list[Player], rounds: Iterable[Round]) -> dict[str, int]:
    totals = {p.name: 0 for p in players}
    for r in rounds:
        for name, score in r.result["scores"].items():
            totals[name] = totals.get(name, 0) + int(score)
    return totals


def ranking_of(players: list[Player], totals: dict[str, int]) -> list[dict[str, Any]]:
    """Highest total first; equal totals share a rank (1, 1, 3); ties keep seat order."""
    order = sorted(players, key=lambda p: (-totals[p.name], p.seat))
    out, rank = [], 0
    for i, p in enumerate(order):
        if i == 0 or totals[p.name] != totals[order[i - 1].name]:
            rank = i + 1
        out.append({"rank": rank, "name": p.name, "total": totals[p.name]})
    return out


def starter_seat(round_number: int, n_players: int) -> int:
    """Who starts round ``round_number`` (1-based): the deal rotates one seat per round."""
    return (round_number - 1) % n_players


def timer_json(game: Game, players: list[Player], rules: referee.Rules,
               at_ms: Optional[int] = None) -> dict[str, Any]:
    at_ms = now_ms() if at_ms is None else at_ms
    elapsed_ms = game.timer_elapsed_ms or 0
    if game.timer_state == "running" and game.timer_started_ms is not None:
        elapsed_ms += max(0, at_ms - game.timer_started_ms)
    limit = rules.turn_time_limit or None
    seat = game.timer_seat % len(players) if players else 0
    remaining = None if limit is None else round(limit - elapsed_ms / 1000, 3)
    return {"state": game.timer_state, "player": players[seat].name if players else None,
            "seat": seat, "turn": game.timer_turn, "limit": limit,
            "warning": min(TIMER_WARNING_SECONDS, limit) if limit else None,
            "elapsed": round(elapsed_ms / 1000, 3), "remaining": remaining,
            "expired": remaining is not None and remaining <= 0,
            "started_at": iso_ms(game.timer_started_ms) if game.timer_state == "running" else None,
            "server_time": iso_ms(at_ms), "penalty": timeout_penalty_text(rules)}


def links(game_id: str) -> dict[str, str]:
    base = f"/api/games/{game_id}"
    return {"self": base, "events": f"{base}/events", "csv": f"{base}/export.csv",
            "audit": f"{base}/audit", "timer": f"{base}/timer", "rounds": f"{base}/rounds"}


def game_json(game: Game) -> dict[str, Any]:
    rules = game_rules(game)
    players = list(game.players)
    rounds = list(game.rounds)
    totals = totals_of(players, rounds)
    next_round = (rounds[-1].number if rounds else 0) + 1
    return {"id": game.id, "created_at": iso(game.created_at), "updated_at": iso(game.updated_at),
            "version": game.version, "rules": rules_json(rules),
            "players": [{"name": p.name, "seat": p.seat} for p in players],
            "rounds": [round_json(r) for r in rounds], "totals": totals,
            "ranking": ranking_of(players, totals), "next_round": next_round,
            "next_starter": players[starter_seat(next_round, len(players))].name,
            "timer": timer_json(game, players, rules), "links": links(game.id)}


def game_state(db: Session, game_id: str) -> dict[str, Any]:
    """Exactly what ``GET /api/games/<id>`` returns."""
    return game_json(load_game(db, game_id))


def list_games(db: Session, *, limit: int = 50, offset: int = 0,
               player: Optional[str] = None) -> dict[str, Any]:
    base = select(Game.id)
    if player:
        base = base.where(Game.id.in_(select(Player.game_id)
                                      .where(Player.name_key == name_key(player))))
    total = db.execute(select(func.count()).select_from(base.subquery())).scalar_one()
    games = db.execute(select(Game).where(Game.id.in_(base))
                       .order_by(Game.created_at.desc(), Game.id)
                       .limit(limit).offset(offset)
                       .options(selectinload(Game.players))).scalars().all()
    ids = [g.id for g in games]
    sums: dict[int, int] = {}
    rounds_per_game: dict[str, int] = {}
    if ids:
        for pid, total_score in db.execute(
                select(RoundScore.player_id, func.sum(RoundScore.score))
                .join(Player, Player.id == RoundScore.player_id)
                .where(Player.game_id.in_(ids)).group_by(RoundScore.player_id)):
            sums[pid] = int(total_score or 0)
        for gid, n in db.execute(select(Round.game_id, func.count()).where(Round.game_id.in_(ids))
                                 .group_by(Round.game_id)):
            rounds_per_game[gid] = int(n)
    out = []
    for g in games:
        totals = {p.name: sums.get(p.id, 0) for p in g.players}
        n_rounds = rounds_per_game.get(g.id, 0)
        best = max(totals.values()) if totals else 0
        rules = referee.PRESETS.get(g.rules)
        out.append({"id": g.id, "created_at": iso(g.created_at), "updated_at": iso(g.updated_at),
                    "rules": g.rules, "rules_title": rules.title if rules else g.rules,
                    "players": [p.name for p in g.players], "rounds": n_rounds, "totals": totals,
                    "leaders": [n for n, t in totals.items() if t == best] if n_rounds else []})
    return {"games": out, "total": int(total), "limit": limit, "offset": offset}


def player_records(db: Session) -> dict[str, Any]:
    """Each player's record across all games; the same name in any case is one player."""
    rows = db.execute(
        select(Player.id, Player.game_id, Player.name, Player.name_key, Game.updated_at,
               func.coalesce(func.sum(RoundScore.score), 0),
               func.count(RoundScore.round_id),
               func.coalesce(func.sum(case((RoundScore.won, 1), else_=0)), 0))
        .join(Game, Game.id == Player.game_id)
        .outerjoin(RoundScore, RoundScore.player_id == Player.id)
        .group_by(Player.id, Player.game_id, Player.name, Player.name_key, Game.updated_at)
    ).all()
    by_game: dict[str, list] = {}
    for row in rows:
        by_game.setdefault(row[1], []).append(row)
    records: dict[str, dict[str, Any]] = {}
    seen_at: dict[str, datetime] = {}    # the newest game of each player: its name spelling
    played_at: dict[str, datetime] = {}  # the newest game with rounds
    for game_rows in by_game.values():
        played = any(r[6] for r in game_rows)
        best = max(int(r[5]) for r in game_rows)
        for _pid, _gid, name, key, updated, total, n_rounds, n_won in game_rows:
            rec = records.setdefault(key, {"name": name, "games": 0, "won": 0, "total_score": 0,
                                           "rounds": 0, "rounds_won": 0, "last_played": None})
            if key not in seen_at or updated > seen_at[key]:
                seen_at[key], rec["name"] = updated, name
            if played:
                rec["games"] += 1
                rec["won"] += int(int(total) == best)
                if key not in played_at or updated > played_at[key]:
                    played_at[key] = updated
                    rec["last_played"] = iso(updated)
            rec["total_score"] += int(total)
            rec["rounds"] += int(n_rounds)
            rec["rounds_won"] += int(n_won)
    out = list(records.values())
    out.sort(key=lambda r: (-r["won"], -r["total_score"], r["name"].casefold()))
    return {"players": out}


def audit_json(db: Session, game_id: str) -> dict[str, Any]:
    get_game(db, game_id)
    entries = db.execute(select(AuditEntry).where(AuditEntry.game_id == game_id)
                         .order_by(AuditEntry.id)).scalars().all()
    return {"entries": [{"id": e.id, "at": iso(e.at), "actor": e.actor, "action": e.action,
                         "round": e.round_number, "before": e.before, "after": e.after}
                        for e in entries]}


def get_round(db: Session, game_id: str, number: int) -> Round:
    r = db.execute(select(Round).where(Round.game_id == game_id, Round.number == number)
                   ).scalar_one_or_none()
    if r is None:
        get_game(db, game_id)
        raise NotFound(f"game {game_id} has no round {number}", game=game_id, round=number)
    return r


_DONE = {"add-round": "entered again", "edit-round": "edited", "undo-round": "undone"}


def check_round_unchanged(db: Session, game: Game, number: int, if_match) -> None:
    """Refuse a change of round ``number`` made from an old copy of it: ``if_match`` is the
    request's parsed ``If-Match`` (werkzeug ``ETags``; empty when the header was not sent,
    which skips the check). Raises :class:`PreconditionFailed` naming who changed it."""
    if not if_match:
        return
    r = db.execute(select(Round).where(Round.game_id == game.id, Round.number == number)
                   ).scalar_one_or_none()
    if r is not None and (if_match.star_tag or if_match.contains(round_etag(r))):
        return
    last = db.execute(select(AuditEntry).where(AuditEntry.game_id == game.id,
                                               AuditEntry.round_number == number)
                      .order_by(AuditEntry.id.desc()).limit(1)).scalar_one_or_none()
    if r is None and last is None:
        raise NotFound(f"game {game.id} has no round {number}", game=game.id, round=number)
    who = last.actor if last is not None else "another phone"
    done = _DONE.get(last.action, "changed") if last is not None else "changed"
    when = f" at {iso(last.at)[11:16]} UTC" if last is not None else ""
    raise PreconditionFailed(
        f"round {number} was {done} by \"{who}\"{when}, after this phone loaded it, so nothing "
        f"was changed. Reload the sheet, check round {number}, and make your change again if "
        f"it is still needed", round=number, changed_by=who)


# --- CSV --------------------------------------------------------------------------------------

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """Text that a spreadsheet would run as a formula (=, +, -, @, tab, CR) gets a leading '."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def export_csv(db: Session, game_id: str) -> str:
    game = load_game(db, game_id)
    players = list(game.players)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(["Round", "Starter", "Winner"] + [csv_cell(p.name) for p in players])
    for r in game.rounds:
        res = r.result
        if r.winner is not None:
            winner = r.winner
        else:
            cw = res["winner"]
            cw = ", ".join(cw) if isinstance(cw, list) else cw
            winner = f"nobody out ({cw})"
        w.writerow([r.number, csv_cell(r.starter), csv_cell(winner)]
                   + [int(res["scores"].get(p.name, 0)) for p in players])
    totals = totals_of(players, game.rounds)
    w.writerow(["Total", "", ""] + [totals[p.name] for p in players])
    return buf.getvalue()


# --- writing ----------------------------------------------------------------------------------

def next_version(game: Game) -> int:
    """The version that the change being made gives ``game`` (:func:`record_change` sets it)."""
    return (game.version or 0) + 1


def record_change(db: Session, game: Game, type_: str, data: dict[str, Any]) -> int:
    """Record a change of ``game``: bump its version and write its event in the caller's
    transaction. Every phone's event stream then sends ``type_`` (at most 20 characters) with
    ``data`` plus ``version``; returns the new version. ``game`` must be locked."""
    game.version = (game.version or 0) + 1
    game.updated_at = utcnow()
    payload = {"version": game.version, **data}
    db.add(GameEvent(game_id=game.id, version=game.version, type=type_, data=payload,
                     at=game.updated_at))
    return game.version


_emit = record_change


def _audit(db: Session, game: Game, actor: str, action: str, round_number: Optional[int],
           before: Optional[dict], after: Optional[dict]) -> None:
    db.add(AuditEntry(game_id=game.id, actor=actor, action=action, round_number=round_number,
                      before=before, after=after, at=utcnow()))


def create_game(db: Session, body: Any, actor: Optional[str],
                make_token: Optional[Callable[[str], str]] = None) -> tuple[dict[str, Any], str]:
    """Returns (the response body, the game id). The edit token appears only in this response;
    only its hash is stored. ``make_token(game_id)`` makes the token (default: random)."""
    if not isinstance(body, dict):
        raise Invalid('send a JSON object like {"players": ["Ann", "Ben"], "rules": "sabra"}')
    unknown = set(body) - {"players", "rules", "device"}
    if unknown:
        raise Invalid(f"unknown field(s) {', '.join(sorted(map(str, unknown)))}; a game takes "
                      f"players, rules and device", field=sorted(unknown)[0])
    raw = body.get("players")
    if not isinstance(raw, list):
        raise Invalid('"players" must be a list of 2 to 6 names in seat order, like '
                      '["Ann", "Ben", "Cy"]', field="players")
    if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        raise Invalid(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players; {len(raw)} given",
                      field="players")
    names = [clean_player_name(n, i) for i, n in enumerate(raw)]
    seen: dict[str, str] = {}
    for n in names:
        k = name_key(n)
        if k in seen:
            raise Invalid(f"two players are called {seen[k]!r}"
                          + (f" and {n!r}" if n != seen[k] else "")
                          + ": give each player a different name (case does not count)",
                          field="players", player=n)
        seen[k] = n
    rules_name = body.get("rules")
    if rules_name is None:
        rules = referee.get_rules(None)
    elif not isinstance(rules_name, str):
        raise Invalid(f'"rules" is the name of a preset: {", ".join(referee.PRESETS)}',
                      field="rules")
    else:
        try:
            rules = referee.get_rules(rules_name)
        except referee.RummirefError as e:
            raise Invalid(str(e), field="rules") from None
    if "device" in body and body["device"] is not None and not isinstance(body["device"], str):
        raise Invalid('"device" is a short name for this phone, like "Ann\'s phone"',
                      field="device")
    actor = clean_device(body.get("device")) or actor or "owner"
    game_id = secrets.token_urlsafe(6)
    token = make_token(game_id) if make_token else secrets.token_urlsafe(24)
    game = Game(id=game_id, rules=rules.name, token_hash=hash_token(token),
                owner_device=actor, version=0, timer_state="idle", timer_seat=0, timer_turn=0,
                timer_elapsed_ms=0)
    game.players = [Player(seat=i, name=n, name_key=name_key(n)) for i, n in enumerate(names)]
    db.add(game)
    db.flush()
    _audit(db, game, actor, "create-game", None, None,
           {"players": names, "rules": rules.name})
    record_change(db, game, "game-created",
                  {"players": names, "rules": rules.name, "actor": actor})
    return ({"id": game.id, "token": token, "url": f"/api/games/{game.id}",
             "game": game_json(game)}, game.id)


@dataclass
class RoundInput:
    winner: Optional[str]
    racks: dict[str, Any]      # what settle_round gets, in seat order
    entered: dict[str, Any]    # what was typed, per player (None where nothing was)


def parse_round(body: Any, players: list[Player]) -> RoundInput:
    example = '{"winner": "Ann", "racks": {"Ben": "R5 K13 J", "Cy": 12}}'
    if not isinstance(body, dict):
        raise Invalid(f"send a JSON object like {example}")
    unknown = set(body) - {"winner", "racks", "device"}
    if unknown:
        raise Invalid(f"unknown field(s) {', '.join(sorted(map(str, unknown)))}; a round takes "
                      f"winner and racks", field=sorted(unknown)[0])
    by_key = {p.name_key: p for p in players}
    names = ", ".join(p.name for p in players)

    def player_of(raw: Any, what: str) -> Player:
        if not isinstance(raw, str) or name_key(raw) not in by_key:
            shown = raw if isinstance(raw, str) else json.dumps(raw)
            raise Invalid(f"{what}: {shown!r} is not a player in this game; the players are "
                          f"{names}", field=what, player=shown if isinstance(shown, str) else None)
        return by_key[name_key(raw)]

    if "winner" not in body:
        raise Invalid('say who went out: "winner": a player\'s name, or null when the pool ran '
                      'out and nobody did', field="winner")
    winner = None if body["winner"] is None else player_of(body["winner"], "winner")
    racks_in = body.get("racks")
    if not isinstance(racks_in, dict):
        raise Invalid(f'"racks" must map each player to what is left on their rack, like {example}',
                      field="racks")
    given: dict[str, Any] = {}
    for raw_name, value in racks_in.items():
        p = player_of(raw_name, "racks")
        if p.name in given:
            raise Invalid(f"{p.name}'s rack is given twice", field=f"racks.{p.name}", player=p.name)
        if isinstance(value, bool) or not (
                value is None or isinstance(value, (int, float, str)) or (
                    isinstance(value, list) and all(isinstance(t, str) for t in value))):
            raise Invalid(f"{p.name}'s rack: give the points as a whole number (12) or the tiles "
                          f'as text ("R5 K13 J")', field=f"racks.{p.name}", player=p.name)
        if isinstance(value, str) and len(value) > RACK_TEXT_MAX:
            raise Invalid(f"{p.name}'s rack text is too long ({len(value)} characters)",
                          field=f"racks.{p.name}", player=p.name)
        if isinstance(value, list) and len(value) > 106:
            raise Invalid(f"{p.name}'s rack lists {len(value)} tiles; a set has 106",
                          field=f"racks.{p.name}", player=p.name)
        given[p.name] = value
    racks: dict[str, Any] = {}
    for p in players:
        value = given.get(p.name)
        if winner is not None and p.name == winner.name:
            racks[p.name] = 0 if value is None else value
        elif value is None:
            what = "the points or tiles left on their rack (0 if none)"
            raise Invalid(f"no rack for {p.name}: enter {what}", field=f"racks.{p.name}",
                          player=p.name)
        else:
            racks[p.name] = value
    return RoundInput(winner.name if winner else None, racks,
                      {p.name: given.get(p.name) for p in players})


def settle(inp: RoundInput, rules: referee.Rules) -> referee.RoundResult:
    try:
        return referee.settle_round(inp.racks, inp.winner, rules)
    except referee.RummirefError as e:
        cause = e.__cause__ if isinstance(e.__cause__, referee.NotationError) else e
        token = getattr(cause, "token", None)
        raise Invalid(str(e), token=token) from None


def stored_racks(inp: RoundInput, result: referee.RoundResult) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in inp.entered.items():
        if value is None:
            out[name] = None
        elif result.racks.get(name) is not None:
            out[name] = result.racks[name]
        else:
            out[name] = int(result.rack_values[name])
    return out


def _scores_rows(players: list[Player], result: referee.RoundResult) -> list[RoundScore]:
    won = result.winner if isinstance(result.winner, list) else [result.winner]
    return [RoundScore(player_id=p.id, score=int(result.scores[p.name]),
                       rack_value=int(result.rack_values[p.name]), won=p.name in won)
            for p in players]


def _reset_timer(game: Game, next_round: int, n_players: int) -> None:
    game.timer_state = "idle"
    game.timer_seat = starter_seat(next_round, n_players)
    game.timer_turn = 0
    game.timer_started_ms = None
    game.timer_elapsed_ms = 0


def _change_json(db: Session, game: Game) -> dict[str, Any]:
    """Totals, ranking and who starts next, after a change (summed in SQL)."""
    players = list(game.players)
    sums = dict(db.execute(
        select(RoundScore.player_id, func.sum(RoundScore.score))
        .join(Round, Round.id == RoundScore.round_id).where(Round.game_id == game.id)
        .group_by(RoundScore.player_id)).all())
    totals = {p.name: int(sums.get(p.id) or 0) for p in players}
    last = db.execute(select(func.max(Round.number)).where(Round.game_id == game.id)).scalar()
    next_round = (last or 0) + 1
    return {"totals": totals, "ranking": ranking_of(players, totals),
            "next_round": next_round,
            "next_starter": players[starter_seat(next_round, len(players))].name,
            "timer": timer_json(game, players, game_rules(game))}


def add_round(db: Session, game: Game, body: Any, actor: str) -> dict[str, Any]:
    """``game`` must be locked (``get_game(..., lock=True)``)."""
    players = list(game.players)
    rules = game_rules(game)
    inp = parse_round(body, players)
    result = settle(inp, rules)
    last = db.execute(select(func.max(Round.number)).where(Round.game_id == game.id)).scalar()
    number = (last or 0) + 1
    now = utcnow()
    starter = players[starter_seat(number, len(players))].name
    racks, res = stored_racks(inp, result), result.to_dict()
    r = Round(game_id=game.id, number=number, starter=starter, winner=inp.winner, racks=racks,
              result=res, edits=0, version=next_version(game), created_at=now, updated_at=now)
    r.scores = _scores_rows(players, result)
    db.add(r)
    after = round_json(r)
    _audit(db, game, actor, "add-round", number, None, after)
    _reset_timer(game, number + 1, len(players))
    change = _change_json(db, game)
    version = record_change(db, game, "round-added",
                            {"round": after, **change, "actor": actor})
    assert version == r.version
    return {"round": after, "scores": after["scores"], **change, "version": version}


def edit_round(db: Session, game: Game, number: int, body: Any, actor: str) -> dict[str, Any]:
    players = list(game.players)
    rules = game_rules(game)
    r = get_round(db, game.id, number)
    inp = parse_round(body, players)
    result = settle(inp, rules)
    before = round_json(r)
    racks = stored_racks(inp, result)
    if r.winner == inp.winner and r.racks == racks and r.result == result.to_dict():
        change = _change_json(db, game)
        return {"round": before, "scores": before["scores"], **change, "version": game.version}
    r.winner = inp.winner
    r.racks = racks
    r.result = result.to_dict()
    r.edits = (r.edits or 0) + 1
    r.version = next_version(game)
    r.updated_at = utcnow()
    by_player = {s.player_id: s for s in r.scores}
    won = result.winner if isinstance(result.winner, list) else [result.winner]
    for p in players:
        row = by_player[p.id]
        row.score = int(result.scores[p.name])
        row.rack_value = int(result.rack_values[p.name])
        row.won = p.name in won
    db.flush()
    after = round_json(r)
    _audit(db, game, actor, "edit-round", number, before, after)
    change = _change_json(db, game)
    version = record_change(db, game, "round-edited",
                    {"round": after, "before": before, **change, "actor": actor})
    assert version == r.version
    return {"round": after, "scores": after["scores"], **change, "version": version}


def undo_round(db: Session, game: Game, number: int, actor: str) -> dict[str, Any]:
    r = get_round(db, game.id, number)
    last = db.execute(select(func.max(Round.number)).where(Round.game_id == game.id)).scalar()
    if number != last:
        raise Conflict(f"only the last round ({last}) can be undone; to change round {number}, "
                       f"edit it instead", round=number, last_round=last)
    before = round_json(r)
    db.delete(r)
    db.flush()
    players = list(game.players)
    _audit(db, game, actor, "undo-round", number, before, None)
    _reset_timer(game, number, len(players))
    change = _change_json(db, game)
    version = record_change(db, game, "round-undone",
                            {"round": before, **change, "actor": actor})
    return {"deleted": before, **change, "version": version}


TIMER_ACTIONS = ("start", "next", "pause", "reset")


def timer_action(db: Session, game: Game, body: Any, actor: str) -> dict[str, Any]:
    if not isinstance(body, dict) or body.get("action") not in TIMER_ACTIONS:
        raise Invalid(f'send {{"action": ...}} with one of {", ".join(TIMER_ACTIONS)}',
                      field="action")
    unknown = set(body) - {"action", "player", "device"}
    if unknown:
        raise Invalid(f"unknown field(s) {', '.join(sorted(map(str, unknown)))}; the timer takes "
                      f"action and player", field=sorted(unknown)[0])
    players = list(game.players)
    action = body["action"]
    seat = None
    if body.get("player") is not None:
        if action not in ("start", "next"):
            raise Invalid(f'"player" goes with start or next, not {action}', field="player")
        raw = body["player"]
        match = [p for p in players if isinstance(raw, str) and p.name_key == name_key(raw)]
        if not match:
            raise Invalid(f"{raw!r} is not a player in this game; the players are "
                          f"{', '.join(p.name for p in players)}", field="player")
        seat = match[0].seat
    t = now_ms()
    if action == "start":
        if seat is not None and seat != game.timer_seat:
            game.timer_seat, game.timer_elapsed_ms = seat, 0
            game.timer_turn = (game.timer_turn or 0) + 1
            game.timer_state, game.timer_started_ms = "running", t
        elif game.timer_state != "running":
            if game.timer_state == "idle":
                game.timer_elapsed_ms = 0
                game.timer_turn = (game.timer_turn or 0) + 1
            game.timer_state, game.timer_started_ms = "running", t
    elif action == "next":
        game.timer_seat = seat if seat is not None else (game.timer_seat + 1) % len(players)
        game.timer_elapsed_ms = 0
        game.timer_turn = (game.timer_turn or 0) + 1
        game.timer_state, game.timer_started_ms = "running", t
    elif action == "pause":
        if game.timer_state == "running":
            game.timer_elapsed_ms = (game.timer_elapsed_ms or 0) + max(0, t - game.timer_started_ms)
            game.timer_state, game.timer_started_ms = "paused", None
    else:
        n = db.execute(select(func.max(Round.number)).where(Round.game_id == game.id)).scalar()
        _reset_timer(game, (n or 0) + 1, len(players))
    state = timer_json(game, players, game_rules(game), t)
    record_change(db, game, "timer", {"timer": state, "actor": actor})
    return state
