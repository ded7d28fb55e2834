"""What the live page shows at a glance: the last turn's verdict in words and the table it was
judged on, drawn with this turn's tiles marked. The page is rendered with it, and fetches it
again (``/games/<id>/live/panel``) whenever the game's event stream says something changed."""

from __future__ import annotations

from typing import Optional

from sqlalchemy.orm import Session

import referee
from vision.reading import Reading

from .. import service
from ..models import Game
from . import board, store, views, words


def panel(db: Session, game: Game) -> dict:
    """``state`` (``views.state_json``), ``words`` (:class:`words.Words`) and ``board``
    (:func:`board.board`, or None before the camera has seen the table)."""
    state = views.state_json(db, game)
    rules = service.game_rules(game)
    last = state["last_turn"]
    s = store.current_session(db, game, create=False)
    out = {"state": state, "words": words.turn_words(last, rules) if last else words.waiting(),
           "board": None}
    if s is None:
        return out
    log = store.load(s)
    if last is not None:
        snap = store.snapshot(db, s, last["after"]["snapshot"])
        verdict = last["verdict"]
        added = verdict["placed"] if verdict else \
            referee.diff_tables(log.turns[-1].before, log.turns[-1].after).added
        out["board"] = _board(game, snap, verdict, rules, added=added, turn=last["number"])
    elif log.started:
        out["board"] = _board(game, store.snapshot(db, s, log.table_ref), None, rules)
    return out


def _board(game: Game, snap, verdict: Optional[dict], rules: referee.Rules, *, added=(),
           turn: Optional[int] = None) -> Optional[dict]:
    if snap is None:
        return None
    reading = Reading.from_json(snap.reading)
    image = views.picture_url(game.id, snap.id, annotated=False) if snap.image else None
    if image and not all(reading.image_size):
        reading.image_size = _picture_size(snap.image)
    return board.board(reading, image, added=added, turn=turn,
                       meld_ok=board.meld_validity(verdict, reading.table, rules))


def _picture_size(data: bytes) -> tuple[int, int]:
    """(width, height) from the picture's header (a reading sent without its image size: its
    corners are in the picture's pixels); (0, 0) when the header cannot be read."""
    from vision.imageio import ImageError, check_image

    try:
        info = check_image(data, "the stored picture")
    except ImageError:
        return (0, 0)
    return (info.width, info.height)
