"""``rummiref serve`` and ``rummiref init-db``.

Registered through the ``rummiref.commands`` entry point; ``register`` imports nothing heavy,
Flask, SQLAlchemy and waitress load only when a command runs. Also runnable on its own:
``python -m webapp.cli serve --port 5000``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Optional, Sequence


#: Open connections at most (idle ones count): far more than a table's phones, so a few
#: hundred sockets that never finish a request leave room for everyone else.
CONNECTION_LIMIT = 1000
#: Seconds a connection may send nothing (between requests, or in the middle of one) before it
#: is closed; a running request (an event stream) is never cut.
IDLE_TIMEOUT = 15


def _add_db_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--instance", metavar="DIR",
                   help="folder for the database and secret key (default: $RUMMIREF_INSTANCE, "
                        "else a per-user data folder such as ~/.local/share/rummiref)")
    p.add_argument("--database-url", metavar="URL",
                   help="SQLAlchemy URL (default: $DATABASE_URL, else SQLite in the instance "
                        "folder); e.g. postgresql://user@host/rummiref")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "serve", help="serve the phone scoresheet (and its JSON API) on the local network",
        description="Serve the phone scoresheet. The phones at the table open the printed "
                    "link (same Wi-Fi); --host 127.0.0.1 keeps it to this computer.")
    p.add_argument("--host", default="0.0.0.0",
                   help="address to listen on (default 0.0.0.0: every network interface, so "
                        "the phones at the table get in; 127.0.0.1: this computer only)")
    p.add_argument("--port", type=int, default=5000, help="TCP port (default 5000; 0: any free port)")
    p.add_argument("--threads", type=int, default=128,
                   help="server threads; each phone's open live-update stream holds one "
                        "(default 128)")
    p.add_argument("--camera", metavar="SOURCE",
                   help="camera for the live referee (a device number, file or URL)")
    p.add_argument("--demo", action="store_true",
                   help="run the live referee on the bundled demo footage")
    p.add_argument("--game", metavar="ID",
                   help="with --camera: the game the camera referees (default: the most "
                        "recently updated one)")
    p.add_argument("--connection-limit", type=int, default=CONNECTION_LIMIT, metavar="N",
                   help=f"open connections at most, idle ones included (default "
                        f"{CONNECTION_LIMIT})")
    p.add_argument("--idle-timeout", type=int, default=IDLE_TIMEOUT, metavar="SECONDS",
                   help=f"close a connection that sends nothing for this long, also one in the "
                        f"middle of a request (default {IDLE_TIMEOUT})")
    p.add_argument("--trusted-proxy", metavar="ADDRESS",
                   help="the address of a reverse proxy in front (e.g. 127.0.0.1): its "
                        "X-Forwarded-For/-Proto/-Host headers are believed, so HTTPS and the "
                        "phones' addresses are seen (see the README)")
    _add_db_options(p)
    p.set_defaults(func=cmd_serve)

    p = subparsers.add_parser("init-db", help="create or upgrade the scoresheet's database")
    _add_db_options(p)
    p.set_defaults(func=cmd_init_db)


def _config(args: argparse.Namespace) -> dict:
    cfg: dict = {}
    if args.instance:
        cfg["INSTANCE_PATH"] = os.path.abspath(os.path.expanduser(args.instance))
    if args.database_url:
        cfg["DATABASE_URL"] = args.database_url
    return cfg


def _instance_problem(cfg: dict) -> Optional[str]:
    """Why the instance folder cannot be used (a file there, no such parent, no permission),
    as one line for standard error; None when it can."""
    from . import default_instance_path

    folder = Path(cfg.get("INSTANCE_PATH") or default_instance_path())
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        why = "it is a file, not a folder" if folder.exists() else (e.strerror or str(e))
        return (f"rummiref: cannot use {folder} as the instance folder: {why}; give a "
                f"folder with --instance DIR")
    return None


def _describe_db(app) -> str:
    url = app.extensions["rummiref"]["engine"].url
    if url.get_backend_name() == "sqlite":
        return f"SQLite {url.database}"
    return url.render_as_string(hide_password=True)


def cmd_init_db(args: argparse.Namespace) -> int:
    from . import create_app, migrate

    cfg = _config(args)
    problem = _instance_problem(cfg)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    cfg["AUTO_MIGRATE"] = False
    cfg["PAGES"] = False
    app = create_app(cfg)
    engine = app.extensions["rummiref"]["engine"]
    before = migrate.current_revision(engine)
    migrate.upgrade(engine)
    after = migrate.current_revision(engine)
    where = _describe_db(app)
    if before == after:
        print(f"The database is up to date (revision {after}): {where}")
    else:
        print(f"Database ready (revision {before or 'none'} -> {after}): {where}")
    engine.dispose()
    return 0


def _live_referee(app, args: argparse.Namespace):
    """Start the live referee's watcher when asked; returns what ``attach`` started (or None)."""
    if not (args.camera or args.demo):
        return None
    from .live.start import attach

    return attach(app, camera=args.camera, demo=args.demo, game=getattr(args, "game", None))


def _open_files_for(connections: int, threads: int) -> int:
    """Raise this process's open-file limit to fit ``connections`` sockets plus the threads'
    database connections and files, as far as the system allows; returns the connection limit
    that fits."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return connections
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = connections + threads + 100
    if soft != resource.RLIM_INFINITY and soft < want:
        new = want if hard == resource.RLIM_INFINITY else min(want, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
            soft = new
        except (ValueError, OSError):
            pass
    if soft != resource.RLIM_INFINITY and soft < want:
        fit = max(10, soft - threads - 100)
        print(f"rummiref: this system allows {soft} open files, so at most {fit} connections "
              f"(not {connections})", file=sys.stderr)
        return fit
    return connections


def waitress_options(args: argparse.Namespace, threads: int, connection_limit: int) -> dict:
    """The server's limits: enough threads for the phones' event streams, idle connections
    closed after ``--idle-timeout`` (checked every few seconds) so that sockets that never
    finish a request cannot fill the ``--connection-limit``, poll() rather than select() so
    more than 1024 sockets work, small request headers, bodies up to 16 MiB (photos)."""
    idle = max(1, int(args.idle_timeout))
    options = dict(host=args.host, port=args.port, threads=threads, ident="rummiref",
                   connection_limit=connection_limit, channel_timeout=idle,
                   cleanup_interval=max(1, min(5, idle // 3)), asyncore_use_poll=True,
                   backlog=1024, max_request_header_size=64 * 1024,
                   max_request_body_size=16 * 1024 * 1024, clear_untrusted_proxy_headers=True)
    if getattr(args, "trusted_proxy", None):
        options.update(trusted_proxy=args.trusted_proxy, trusted_proxy_count=1,
                       trusted_proxy_headers={"x-forwarded-for", "x-forwarded-proto",
                                              "x-forwarded-host"})
    return options


def print_links(app, host: str) -> str:
    """Say where the scoresheet is: on this computer, and for the phones at the table (or why
    they cannot get in). Returns the origin the later links are printed with."""
    from . import reach

    local = reach.local_origin(app)
    phones = reach.phone_origin(app)
    print(f"rummiref scoresheet: {local}/", flush=True)
    if phones:
        print(f"  phones at the table (same Wi-Fi) open: {phones}/", flush=True)
        if reach.listens_everywhere(app):
            print("  (listening on every network interface; --host 127.0.0.1 keeps it to this "
                  "computer)", flush=True)
        return phones
    if reach.listens_locally(app):
        print(f"  only this computer can connect (--host {host}); to let the phones at the "
              f"table in, leave out --host or use --host 0.0.0.0", flush=True)
    else:
        print("  this computer is on no network, so no phone can connect yet: join the "
              "table's Wi-Fi (the pages then share the right link)", flush=True)
    return local


def cmd_serve(args: argparse.Namespace) -> int:
    from waitress.server import create_server

    from . import create_app, reach

    if not 0 <= args.port < 65536:
        print(f"rummiref: --port must be 1-65535 (0: any free port), not {args.port}",
              file=sys.stderr)
        return 2
    threads = max(4, args.threads)
    limit = _open_files_for(max(10, args.connection_limit), threads)
    cfg = _config(args)
    problem = _instance_problem(cfg)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    # Keep a few threads for ordinary requests however many phones hold live streams open.
    cfg["SSE_MAX_STREAMS"] = max(1, threads - 8)
    app = create_app(cfg)
    started = _live_referee(app, args)
    try:
        server = create_server(app, **waitress_options(args, threads, limit))
    except OSError as e:
        print(f"rummiref: cannot listen on {args.host}:{args.port}: {e.strerror or e}. "
              f"Is another server using that port? Try --port {args.port + 1}.", file=sys.stderr)
        return 1
    except ValueError:  # waitress: an address that is no address ("999.1.1.1", "my host")
        print(f"rummiref: cannot listen on {args.host}:{args.port}: --host is not an address "
              f"of this computer (give an IP address such as 127.0.0.1, or leave it out)",
              file=sys.stderr)
        return 2
    reach.remember(app, args.host, server.effective_port)
    base = print_links(app, args.host)
    print(f"  database: {_describe_db(app)}", flush=True)
    if getattr(started, "url", None):  # the demo game
        print(f"  live referee demo: {base}{started.url}", flush=True)
        print(f"  its scoresheet, with the edit token: {base}/games/{started.game}"
              f"#token={started.token}", flush=True)
    print("  press Ctrl+C to stop", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        app.extensions["rummiref"]["engine"].dispose()
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m webapp.cli")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
