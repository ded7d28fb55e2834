"""``rummiref watch --camera SOURCE --game ID [--server URL] [--token T]``: the live referee's
camera side on a computer of its own, posting each finished turn's table to a scoresheet server
(one small computer per table, one server for the club) through :class:`vision.http_sink.HttpSink`.
It waits for the server when the server is not up yet.

``register`` imports nothing heavy; OpenCV and the reader load when the command runs.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys


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


def _bad_server_or_game(server: str, game: str) -> str | None:
    """What is wrong with ``--server`` or ``--game`` (None: nothing). Said at once: an address
    that is no http(s) URL was a traceback, or waited for a server that can never answer."""
    import re
    from urllib.parse import urlsplit

    try:
        url = urlsplit(server)
        url.port  # noqa: B018 - raises ValueError for a port that is no number
    except ValueError as e:
        return f"--server {server!r} is not a web address ({e}); give http://HOST:5000"
    if url.scheme.lower() not in ("http", "https") or not url.hostname:
        return f"--server {server!r} is not a web address; give http://HOST:5000"
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,16}", game):
        return (f"--game {game!r} is not a game id (1-16 letters, digits, - or _; the part "
                f"after /games/ in the game's link)")
    return None


def cmd_watch(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    token = args.token or os.environ.get("RUMMIREF_TOKEN")
    if not token:
        print("rummiref watch: give the game's edit token with --token or $RUMMIREF_TOKEN",
              file=sys.stderr)
        return 2
    problem = _bad_server_or_game(args.server, args.game)
    if problem:
        print(f"rummiref watch: {problem}", file=sys.stderr)
        return 2
    from .http_sink import HttpSink, TransportError
    from .reader import Reader
    from .sources import SourceError, open_source
    from .watch import Watcher, WatchConfig

    sink = HttpSink(args.server, args.game, token, device=args.device)
    try:
        game = sink.connect(on_wait=lambda why: print(f"rummiref watch: waiting for the server "
                                                      f"({why})", file=sys.stderr, flush=True))
    except TransportError as e:
        print(f"rummiref watch: {e}", file=sys.stderr)
        return 1
    try:
        reader = Reader().read
    except Exception as e:  # noqa: BLE001 - a missing or broken model: say why
        print(f"rummiref watch: the tile reader cannot start: {e}", file=sys.stderr)
        return 1
    try:
        source = open_source(args.camera, follow=args.follow)
    except SourceError as e:
        print(f"rummiref watch: {e}", file=sys.stderr)
        return 2
    players = ", ".join(p["name"] for p in game.get("players", []))
    print(f"watching {source.name} for game {args.game} ({players}); phones: "
          f"{args.server.rstrip('/')}/games/{args.game}/live", flush=True)
    w = Watcher(source, reader, sink, WatchConfig(sample_fps=args.sample_fps))
    w.start()
    try:
        while w.running:
            w.join(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        w.stop()
        if not sink.flush(30):
            print(f"rummiref watch: {sink.pending} snapshots could not be delivered",
                  file=sys.stderr)
        sink.close()
    print(f"stopped: {source.detail}; {w.stats['snapshots']} snapshots, "
          f"{source.buffer.dropped} frames skipped", flush=True)
    return 0
