"""Every error answer of the app: JSON under ``/api``, a page in the site's style elsewhere.

API errors are ``{"error": "<what to do>", "status": <code>, ...}``; a page error (an unknown
address, a game that does not exist, a live page of no game) is ``templates/error.html`` with
the same sentence. With the pages left out (``PAGES=False``), page errors are Werkzeug's.
"""

from __future__ import annotations

import logging
from typing import Any, Optional

from flask import Flask, Response, current_app, jsonify, render_template, request
from flask_babel import lazy_gettext
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException

from .service import ServiceError

log = logging.getLogger(__name__)


def is_api() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def error_response(status: int, message: str, headers: Optional[dict] = None,
                   **extra: Any) -> Response:
    resp = jsonify({"error": message, "status": status, **extra})
    resp.status_code = status
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


_HTTP_MESSAGES = {
    400: "the request is malformed",
    404: "there is nothing here; see /api/openapi.json for the API's addresses",
    405: "this address does not take that method",
    413: "the request body is too large",
    415: "send the body as JSON with Content-Type: application/json",
}

_PAGE_MESSAGES = {
    400: lazy_gettext("The address or the request is malformed. Check the link."),
    404: lazy_gettext("There is nothing at this address. Check the link, or start a new game."),
    405: lazy_gettext("This page cannot be sent a form."),
    413: lazy_gettext("That was too large to send."),
}


def size_text(n: int) -> str:
    """``12 MiB``, ``64 KiB``, ``500 bytes``."""
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} bytes"


def _too_large_message() -> str:
    # The limit that applied to this request: a route may raise the app's default.
    limit = request.max_content_length
    return f"the request body is too large: {size_text(limit)} at most" if limit else \
        _HTTP_MESSAGES[413]


def _page(status: int, message: str, headers: Optional[dict] = None) -> Response:
    resp = Response(render_template("error.html", status=status, message=message),
                    status=status, mimetype="text/html")
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def http_error(e: HTTPException):
    status = e.code or 500
    headers: dict[str, str] = {}
    if status == 405 and getattr(e, "valid_methods", None):
        headers["Allow"] = ", ".join(e.valid_methods)
    if status == 429:
        message = (f"too many requests of this kind from this address ({e.description}); "
                   f"try again in a moment")
    elif status == 413:
        message = _too_large_message()
    elif is_api():
        message = _HTTP_MESSAGES.get(status, (e.description or e.name or "error").strip())
    else:
        default = _PAGE_MESSAGES.get(status)
        described = e.description if e.description != type(e).description else None
        message = str(described or default or (e.name or "Error"))
    if not is_api():
        if "pages" not in current_app.blueprints:
            return e
        return _page(status, message[:1].upper() + message[1:], headers)
    if status == 405 and "Allow" in headers:
        message += f" (allowed: {headers['Allow']})"
    return error_response(status, message, headers)


def _service_error(e: ServiceError):
    headers = {}
    if e.status == 401:
        headers["WWW-Authenticate"] = 'Bearer realm="rummiref"'
    return error_response(e.status, e.message, headers, **e.extra)


def _db_busy(e: OperationalError):
    log.warning("database busy or unavailable: %s", e)
    if not is_api():
        raise e
    return error_response(503, "the database is busy; try again in a moment",
                          {"Retry-After": "1"})


def _unexpected(e: Exception):
    if isinstance(e, HTTPException):
        return http_error(e)
    log.exception("unexpected error on %s %s", request.method, request.path)
    if not is_api():
        raise e
    return error_response(500, "something went wrong on the server; nothing was changed. "
                               "Try again, and report it if it keeps happening")


def init_app(app: Flask) -> None:
    """Register the error handlers (app-wide: every blueprint's errors go through them)."""
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(ServiceError, _service_error)
    app.register_error_handler(OperationalError, _db_busy)
    app.register_error_handler(Exception, _unexpected)
