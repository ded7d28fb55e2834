"""A real HTTP server for tests and benchmarks: the same waitress server ``rummiref serve``
runs, in a background thread on a free loopback port.

    server = LiveServer(app)        # started; host="0.0.0.0" listens on every interface
    server.url                      # "http://127.0.0.1:PORT" (this computer's own link)
    server.stop()

Also a context manager. Streams that are open when it stops are cut off.
"""

from __future__ import annotations

import threading
from typing import Optional


class LiveServer:
    def __init__(self, app, host: str = "127.0.0.1", port: int = 0, threads: int = 16):
        from waitress.server import create_server

        self.app = app
        self.server = create_server(app, host=host, port=port, threads=threads,
                                    channel_timeout=30, ident="rummiref", asyncore_loop_timeout=0.2,
                                    clear_untrusted_proxy_headers=True)
        self.host = host
        self.port = self.server.effective_port
        from .reach import WILDCARD, remember

        remember(app, host, self.port)
        self.url = f"http://{'127.0.0.1' if host in WILDCARD else host}:{self.port}"
        self._thread: Optional[threading.Thread] = threading.Thread(
            target=self._run, name=f"rummiref-live-{self.port}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self.server.run()
        except (OSError, ValueError):  # the sockets were closed under us by stop()
            pass

    def stop(self, timeout: float = 5.0) -> None:
        """Stop serving: open event streams end, the port is released."""
        if self._thread is None:
            return
        srv = self.server
        broker = self.app.extensions.get("rummiref", {}).get("broker")
        if broker is not None:
            broker.close()  # event streams return instead of waiting for news
        try:
            srv.close()
        except Exception:
            pass
        for channel in list(srv._map.values()):
            try:
                channel.close()
            except Exception:
                pass
        self._thread.join(timeout)
        srv.task_dispatcher.shutdown(cancel_pending=True, timeout=timeout)
        self._thread = None

    def __enter__(self) -> "LiveServer":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
