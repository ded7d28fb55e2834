"""``rummiref watch --camera SOURCE --game ID [--server URL] [--token T]``: the live referee's
camera side, posting each finished turn's table to a scoresheet server (one small computer per
table, one server for the club).

``register`` imports nothing heavy; OpenCV and the reader load when the command runs.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import threading
from collections import deque
from typing import Any, Callable, Optional

log = logging.getLogger(__name__)


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "watch", help="watch a table with a camera and referee every turn on the phones",
        description="Watch the table with a camera; at the end of each turn (the table still, "
                    "no hand over it, or 'end turn' tapped on a phone) read it from several "
                    "frames and send it to the scoresheet server, which judges the turn.")
    p.add_argument("--camera", required=True, metavar="SOURCE",
                   help="a webcam number (0), a stream URL (http://phone:8080/video), a video "
                        "file or a folder of photos")
    p.add_argument("--game", required=True, metavar="ID", help="the game's id (from its link)")
    p.add_argument("--server", default="http://127.0.0.1:5000", metavar="URL",
                   help="the scoresheet server (default http://127.0.0.1:5000)")
    p.add_argument("--token", metavar="T",
                   help="the game's edit token (default: $RUMMIREF_TOKEN); from the owner's "
                        "share-to-edit link")
    p.add_argument("--sample-fps", type=float, default=10.0,
                   help="frames looked at per second (default 10; the camera may be faster)")
    p.add_argument("--follow", action="store_true",
                   help="with a folder of photos: keep waiting for new photos")
    p.add_argument("--device", default="camera", help="name shown in the audit trail")
    p.set_defaults(func=cmd_watch)


# --- talking to the server ---------------------------------------------------------------------

class TransportError(Exception):
    def __init__(self, message: str, status: Optional[int] = None):
        super().__init__(message)
        self.status = status


class HttpTransport:
    """JSON over HTTP with the standard library (no extra dependency on the camera computer)."""

    def __init__(self, base_url: str, timeout: float = 10.0):
        self.base = base_url.rstrip("/")
        self.timeout = timeout

    def __call__(self, method: str, path: str, body: Any = None,
                 headers: Optional[dict] = None) -> tuple[int, Any]:
        import urllib.error
        import urllib.request

        data = None
        h = {"Accept": "application/json", **(headers or {})}
        if body is not None:
            data = json.dumps(body).encode()
            h["Content-Type"] = "application/json"
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=h)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            try:
                return e.code, json.loads(e.read() or b"null")
            except ValueError:
                return e.code, {"error": f"HTTP {e.code}"}
        except (urllib.error.URLError, OSError, ValueError) as e:
            reason = getattr(e, "reason", e)
            raise TransportError(f"cannot reach {self.base}: {reason}") from None


class FlaskTransport:
    """The same requests through a Flask app's test client (in-process: demo, tests)."""

    def __init__(self, app):
        self.client = app.test_client()

    def __call__(self, method, path, body=None, headers=None):
        r = self.client.open(path, method=method, json=body, headers=headers or {})
        return r.status_code, r.get_json(silent=True)


class LiveClient:
    """The watcher's sink: posts snapshots and its state to ``/api/games/<id>/live``, asks for
    "end turn" taps. A snapshot that cannot be delivered (server away) is kept (at most
    ``keep`` of them, oldest dropped) and sent again, in order, with the next call."""

    def __init__(self, transport: Callable, game_id: str, token: str, device: str = "camera",
                 keep: int = 20):
        self.t = transport
        self.game = game_id
        self.token = token
        self.headers = {"Authorization": f"Bearer {token}", "X-Rummiref-Device": device[:60]}
        self.pending: deque = deque(maxlen=keep)
        self.results: list[dict] = []
        self.lock = threading.Lock()
        self.base = f"/api/games/{game_id}/live"

    def _call(self, method, path, body=None):
        status, out = self.t(method, path, body, self.headers)
        if status in (401, 403, 404):
            raise TransportError((out or {}).get("error") or f"HTTP {status}", status)
        if status >= 500:
            raise TransportError((out or {}).get("error") or f"server error {status}", status)
        return status, out

    def check(self) -> dict:
        """The game (players in seat order); raises TransportError with a clear message."""
        status, out = self.t("GET", f"/api/games/{self.game}", None, {})
        if status != 200:
            raise TransportError((out or {}).get("error") or f"HTTP {status}", status)
        return out

    def flush(self) -> None:
        with self.lock:
            while self.pending:
                body = self.pending[0]
                status, out = self._call("POST", self.base + "/snapshots", body)
                self.pending.popleft()
                if status >= 400:
                    log.error("the server refused a snapshot: %s", (out or {}).get("error"))
                self.results.append({"status": status, **(out or {})})

    def snapshot(self, body: dict) -> None:
        with self.lock:
            self.pending.append(body)
        try:
            self.flush()
        except TransportError as e:
            log.warning("snapshot kept for later (%d waiting): %s", len(self.pending), e)
            raise

    def status(self, s: dict) -> None:
        body = {k: s.get(k) for k in ("state", "detail", "source", "hand", "still", "frames",
                                      "dropped")}
        self._call("POST", self.base + "/status", body)
        if self.pending:
            self.flush()

    def end_turn_requested(self) -> Optional[str]:
        status, out = self._call("GET", self.base)
        if self.pending:
            self.flush()
        return (out or {}).get("end_turn") if status == 200 else None


def make_reader():
    """The tile reader as a callable ``image -> reading``."""
    import vision

    cls = getattr(vision, "Reader", None)
    if cls is not None:
        r = cls()
        return getattr(r, "read", r)
    fn = getattr(vision, "read_image", None)
    if fn is None:
        raise RuntimeError("the tile reader (vision.Reader) is not installed")
    return fn


def cmd_watch(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    token = args.token or os.environ.get("RUMMIREF_TOKEN")
    if not token:
        print("rummiref watch: give the game's edit token with --token or $RUMMIREF_TOKEN",
              file=sys.stderr)
        return 2
    from .sources import SourceError, open_source
    from .watch import Watcher, WatchConfig

    client = LiveClient(HttpTransport(args.server), args.game, token, args.device)
    try:
        game = client.check()
        client.status({"state": "connecting", "detail": f"opening {args.camera}"})
    except TransportError as e:
        print(f"rummiref watch: {e}", file=sys.stderr)
        return 1
    try:
        reader = make_reader()
    except Exception as e:  # noqa: BLE001
        print(f"rummiref watch: {e}", file=sys.stderr)
        return 1
    try:
        source = open_source(args.camera, follow=args.follow)
    except SourceError as e:
        print(f"rummiref watch: {e}", file=sys.stderr)
        return 2
    players = ", ".join(p["name"] for p in game.get("players", []))
    print(f"watching {source.name} for game {args.game} ({players}); phones: "
          f"{args.server.rstrip('/')}/games/{args.game}/live", flush=True)
    w = Watcher(source, reader, client, WatchConfig(sample_fps=args.sample_fps))
    w.start()
    try:
        while w._thread.is_alive():
            w.join(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        w.stop()
    print(f"stopped: {source.detail}; {w.stats['snapshots']} snapshots, "
          f"{source.buffer.dropped} frames skipped", flush=True)
    return 0


# --- in the server process (rummiref serve --camera) ---------------------------------------------

class DirectSink:
    """A sink calling the live referee's service in this process, for the most recently active
    game (or a fixed one). No token is needed: it runs inside the server."""

    def __init__(self, app, game_id: Optional[str] = None):
        self.app = app
        self.game_id = game_id

    def _game(self, db):
        from sqlalchemy import select

        from webapp.models import Game

        if self.game_id:
            return db.get(Game, self.game_id)
        return db.execute(select(Game).order_by(Game.updated_at.desc()).limit(1)).scalar()

    def _write(self, fn):
        from sqlalchemy.orm import Session

        from webapp.db import get_engine, writer

        with self.app.app_context():
            engine = get_engine()
            with Session(writer(engine), expire_on_commit=False) as db:
                game = self._game(db)
                if game is None:
                    return None
                out = fn(db, game)
                db.commit()
                self.app.extensions["rummiref"]["broker"].notify(game.id, game.version)
                return out

    def snapshot(self, body: dict) -> None:
        from webapp import live

        self._write(lambda db, game: live.receive_snapshot(db, game, body, "camera"))

    def status(self, s: dict) -> None:
        from webapp import live

        body = {k: s.get(k) for k in ("state", "detail", "source", "hand", "still", "frames",
                                      "dropped")}
        self._write(lambda db, game: live.update_watcher(db, game, body))

    def end_turn_requested(self) -> Optional[str]:
        from webapp import live

        def do(db, game):
            s = live._session(db, game, create=False)
            return s.end_turn if s else None
        return self._write(do)


def start_in_process(app, camera: str, game_id: Optional[str] = None, reader=None):
    """Start a watcher thread inside the server (``rummiref serve --camera SOURCE``)."""
    from .sources import open_source
    from .watch import Watcher

    source = open_source(camera)
    w = Watcher(source, reader or make_reader(), DirectSink(app, game_id))
    app.extensions["rummiref_live"]["watchers"].append(w)
    w.start()
    print(f"live referee: watching {source.name} (the most recently active game); phones: "
          f"/games/<id>/live", flush=True)
    return w
