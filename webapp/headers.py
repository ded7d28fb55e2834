"""Security headers on every response of the app: pages, the live referee's pages, the API,
static files and errors (Flask-Talisman, set up for a plain-HTTP server on a table's Wi-Fi).

* ``Content-Security-Policy``: only this server's own scripts, styles, pictures and
  connections; no inline script anywhere (``style-src`` keeps ``'unsafe-inline'`` for the
  ``style`` attributes the sheet uses for its column count and chart colours), no plugins,
  no framing, no ``<base>``; ``blob:`` pictures for the owner's QR code.
* ``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: no-referrer`` (links hold game ids; the owner link holds a token),
  ``Permissions-Policy`` (Talisman's default).
* No redirect to HTTPS: the table's server is plain HTTP. ``Strict-Transport-Security`` only
  on requests that came over TLS (a reverse proxy in front, see the README).
"""

from __future__ import annotations

from flask import Flask

#: What the pages may load (see the module doc).
CONTENT_SECURITY_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self' data: blob:",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def init_app(app: Flask) -> None:
    from flask_talisman import Talisman

    Talisman(app, force_https=False, strict_transport_security=True,
             strict_transport_security_max_age=180 * 24 * 3600,
             strict_transport_security_include_subdomains=False,
             content_security_policy=CONTENT_SECURITY_POLICY, frame_options="DENY",
             referrer_policy="no-referrer", session_cookie_secure=False,
             x_xss_protection=False)
