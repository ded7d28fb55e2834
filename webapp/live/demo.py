"""``rummiref serve --demo``: a generated round played over and over through the live referee's
real path (rendered frames -> frame source -> watcher -> tile reader -> in-process sink ->
turn log -> phones), so a newcomer sees verdicts arrive without a camera, whenever they look.

The frames are drawn (:mod:`webapp.live.demo_footage`); nothing recorded is shipped. A hand
reaches over the table between turns. Each time round, the demo game starts a new round and
forgets the old ones (their pictures would pile up). The demo game is kept from one start of the
server to the next (its id and edit token in ``demo-game.json`` in the instance folder), so the
history does not fill with demo games. When the tile reader cannot be loaded (no model), the
demo says so and answers with the tables it drew.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Optional

import numpy as np

from .. import service
from ..transaction import read_session, run_write, write_session
from . import store
from .demo_footage import DEMO_GAME, KnownTablesReader, demo_frames, renderer

log = logging.getLogger(__name__)

PLAYERS = ["Ann", "Ben", "Cy"]
DEVICE = "demo camera"

#: Seconds the last table of a round stays on the phones before the demo starts again.
ROUND_PAUSE = 8.0

STATE_FILE = "demo-game.json"


def demo_game(app) -> tuple[str, str]:
    """(id, edit token) of the demo game: the one kept in the instance folder when it is still
    in the database, else a new one."""
    path = Path(app.instance_path) / STATE_FILE
    try:
        kept = json.loads(path.read_text())
        game_id, token = str(kept["game"]), str(kept["token"])
    except (OSError, ValueError, KeyError, TypeError):
        game_id = token = None
    if game_id:
        with closing(read_session(app)) as db:
            try:
                if service.token_matches(service.get_game(db, game_id), token):
                    return game_id, token
            except service.NotFound:
                pass

    def create(db):
        out, new_id = service.create_game(db, {"players": PLAYERS, "device": "demo"}, "demo")
        return (new_id, out["token"]), (new_id, out["game"]["version"])

    with closing(write_session(app)) as db:
        game_id, token = run_write(app, db, create)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump({"game": game_id, "token": token}, f)
    os.replace(tmp, path)
    return game_id, token


def new_round(app, game_id: str) -> None:
    """A new round for the demo game, and the demo's earlier rounds forgotten."""
    from .actions import new_round as start_round

    def change(db):
        game = service.get_game(db, game_id, lock=True)
        out = start_round(db, game, DEVICE)
        store.forget_sessions(db, game, keep=out["session"])
        return out, (game.id, game.version)

    with closing(write_session(app)) as db:
        run_write(app, db, change)


@dataclass
class Demo:
    """A running demo: its game, edit token, live page and watcher."""

    game: str
    token: str
    url: str
    watcher: object
    rounds: int = 0
    reader_name: str = ""
    _stopped: threading.Event = field(default_factory=threading.Event)

    def stop(self) -> None:
        self._stopped.set()
        self.watcher.stop()


def start_demo(app, fps: float = 15.0, reader=None, game=DEMO_GAME,
               rounds: Optional[int] = None, pause: float = ROUND_PAUSE) -> Demo:
    """Play ``game`` through a watcher in this process, round after round (``rounds`` times;
    None: until the server stops), ``pause`` seconds on the last table of each."""
    from vision.sources import iter_source
    from vision.watch import Watcher, WatchConfig

    from .camera import InProcessSink
    from .reader import ReaderUnavailable, get_reader

    game_id, token = demo_game(app)
    render = renderer()
    reader_name = "the tile reader"
    if reader is None:
        try:
            reader = get_reader(app)
        except ReaderUnavailable as e:
            reader = KnownTablesReader(render, game)
            reader_name = f"the tables as drawn ({e.message})"

    demo = Demo(game_id, token, f"/games/{game_id}/live", None, reader_name=reader_name)

    def frames() -> Iterator[np.ndarray]:
        last = None
        while rounds is None or demo.rounds < rounds:
            if demo._stopped.is_set():
                return
            new_round(app, game_id)
            demo.rounds += 1
            for frame in demo_frames(fps, game, render, after=last):
                yield frame
            img = render(game[-1][1], len(game) - 1)[0]
            for _ in range(int(pause * fps)):
                yield img
            last = img

    source = iter_source(frames(), fps=fps, name="demo footage")
    demo.watcher = Watcher(source, reader, InProcessSink(app, game_id, device=DEVICE),
                           WatchConfig())
    app.extensions["rummiref_live"]["watchers"].append(demo.watcher)
    demo.watcher.start()
    print(f"live referee demo: a generated game, read by {reader_name}, played again every "
          f"{sum(p[2] + 1.2 for p in game) + pause:.0f} s or so", flush=True)
    return demo
