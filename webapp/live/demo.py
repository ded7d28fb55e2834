"""``rummiref serve --demo``: a generated round played over and over through the live referee's
real path (rendered frames -> frame source -> watcher -> tile reader -> in-process sink ->
turn log -> phones), so a newcomer sees verdicts arrive without a camera, whenever they look.

The frames are drawn by ``vision.synth.render_table``; nothing recorded is shipped. A hand
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
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator, Optional

import numpy as np

from vision.reading import Reading, TileReading

from .. import service
from ..transaction import read_session, run_write, write_session
from . import store

log = logging.getLogger(__name__)

PLAYERS = ["Ann", "Ben", "Cy"]
DEVICE = "demo camera"

#: (what happens, the table afterwards, seconds still, a hand rests over the table first)
DEMO_GAME = [
    ("start", "K5 B5 O5", 3.0, False),
    ("Ann opens with 33", "K5 B5 O5 | R10 R11 R12", 4.0, False),
    ("Ben tries to open with 6", "K5 B5 O5 | R10 R11 R12 | B1 B2 B3", 4.0, False),
    ("Ben restores the table", "K5 B5 O5 | R10 R11 R12", 3.0, False),
    ("Cy opens with a group", "K5 B5 O5 | R10 R11 R12 | K13 B13 O13", 4.0, True),
    ("Ann adds R13", "K5 B5 O5 | R10 R11 R12 R13 | K13 B13 O13", 4.0, False),
    ("Ben lays B7 B8 alone", "K5 B5 O5 | R10 R11 R12 R13 | K13 B13 O13 | B7 B8", 4.0, False),
]
#: Seconds the last table of a round stays on the phones before the demo starts again.
ROUND_PAUSE = 8.0

DEMO_SEED = 11
STATE_FILE = "demo-game.json"

Render = Callable[[str, int], tuple[np.ndarray, list]]


def renderer() -> Render:
    """``render(table, seed) -> (image, labels)``: ``vision.synth`` with one table cloth, tile
    edition and fixed camera for the whole game (a camera over a table sees the same light
    from one turn to the next)."""
    from vision.synth import render_table

    return lru_cache(maxsize=32)(lambda table, seed: render_table(
        table, seed=DEMO_SEED, angle=2.0, tilt=0.04, tile_width=64.0, quality=False))


def labels_reading(labels) -> Reading:
    """The reading a perfect reader would give, from ``vision.synth``'s labels."""
    tiles = [TileReading(str(tile), 1.0, np.asarray(corners, np.float32).reshape(4, 2))
             for tile, corners in labels]
    return Reading(tiles, [list(m) for m in labels.melds])


def demo_frames(fps: float = 15.0, game=DEMO_GAME, render: Optional[Render] = None,
                after: Optional[np.ndarray] = None) -> Iterator[np.ndarray]:
    """One round's frames in order, with a skin-coloured arm moving between tables (also
    before the first table, when ``after``, the picture it follows, is given)."""
    import cv2

    render = render or renderer()
    rng = np.random.default_rng(7)
    noise = None
    prev_img = after
    for seed, (_, table, still_s, hand) in enumerate(game):
        img, _ = render(table, seed)
        h, w = img.shape[:2]

        def arm(base, reach, x):
            out = base.copy()
            top = int(h * (1 - reach))
            cv2.rectangle(out, (x - w // 14, top + h // 20), (x + w // 14, h), (120, 160, 220), -1)
            cv2.ellipse(out, (x, top + h // 20), (w // 12, h // 14), 0, 0, 360,
                        (120, 160, 220), -1)
            return out

        if prev_img is not None:
            n = int(fps * 1.2)
            for k in range(n):
                reach = 0.3 + 0.4 * min(k, n - k) / (n / 2)
                yield arm(prev_img if k < n // 2 else img, reach, w // 2 + (k - n // 2) * 6)
            if hand:
                for k in range(int(fps * 1.5)):
                    yield arm(prev_img, 0.85, w // 4)
        if noise is None or noise[0].shape != img.shape:
            noise = [rng.integers(0, 3, img.shape, dtype=np.uint8) for _ in range(4)]
        for k in range(int(still_s * fps)):
            yield cv2.add(img, noise[k % 4])  # a little sensor noise
        prev_img = img


class KnownTablesReader:
    """Stand-in when no trained reader can be loaded: answers with the labels of the table the
    demo drew that the frame looks most like."""

    def __init__(self, render: Render, game=DEMO_GAME):
        self.tables = []
        for seed, (_, table, _, _) in enumerate(game):
            img, labels = render(table, seed)
            self.tables.append((_small(img), labels_reading(labels)))

    def __call__(self, image: np.ndarray) -> Reading:
        s = _small(image)
        return min(self.tables, key=lambda t: float(np.abs(t[0] - s).mean()))[1]


def _small(img: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.resize(img, (96, 64), interpolation=cv2.INTER_AREA).astype(np.float32)


# --- the demo game ------------------------------------------------------------------------------

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
