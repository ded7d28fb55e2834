"""Where this server can be reached: what ``rummiref serve`` prints and what the share panel
offers come from the address the server really listens on, never from a guess.

``remember(app, host, port)`` records it (``rummiref serve`` and ``webapp.testing.LiveServer``
call it once the socket is bound); ``phone_origin(app)`` is the origin the other phones at the
table can open, or None when they cannot reach this server (it listens on this computer only,
or this computer is on no network).
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Optional

#: Hosts that mean "every network interface".
WILDCARD = {"0.0.0.0", "::", "", "*"}


def is_loopback(host: str) -> bool:
    host = (host or "").strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address() -> Optional[str]:
    """This computer's address on its network: the one its route out would use (no packet is
    sent; a UDP socket is only connected). None when it is on no network."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            addr = s.getsockname()[0]
    except OSError:
        return None
    return None if is_loopback(addr) else addr


def remember(app, host: str, port: int) -> None:
    """Record where the server listens (after binding, so port 0 is the real port)."""
    app.config["LISTEN_HOST"] = host
    app.config["LISTEN_PORT"] = int(port)


def _origin(host: str, port: Optional[int], scheme: str = "http") -> str:
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    default = 443 if scheme == "https" else 80
    return f"{scheme}://{host}" if port in (None, default) else f"{scheme}://{host}:{port}"


def listens_everywhere(app) -> bool:
    return app.config.get("LISTEN_HOST") in WILDCARD


def listens_locally(app) -> bool:
    """True when the server is known to listen on this computer's loopback only."""
    host = app.config.get("LISTEN_HOST")
    return host is not None and is_loopback(host)


def phone_origin(app) -> Optional[str]:
    """The origin another phone opens: this computer's network address on the listening
    port, when the server listens there; else None."""
    port = app.config.get("LISTEN_PORT")
    host = app.config.get("LISTEN_HOST")
    if host is None or port is None or is_loopback(host):
        return None
    if host in WILDCARD:
        lan = lan_address()
        return _origin(lan, port) if lan else None
    return _origin(host, port)


def local_origin(app) -> Optional[str]:
    """The origin to open on this computer itself."""
    port = app.config.get("LISTEN_PORT")
    host = app.config.get("LISTEN_HOST")
    if host is None or port is None:
        return None
    return _origin("127.0.0.1" if host in WILDCARD else host, port)
