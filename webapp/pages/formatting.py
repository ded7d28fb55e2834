"""How the pages write numbers, racks and times (also as Jinja filters: ``signed``, ``rack``,
``when``)."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from . import bp


def signed(n: int | None) -> str:
    """``+60``, ``-12``, ``0``; with a real minus sign so the column lines up and reads well."""
    if n is None:
        return ""
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"\u2212{-n}"
    return "0"


def rack_text(rack: Any) -> str:
    """A rack as entered: its tiles, or its points, or a dash for the winner's empty rack."""
    if rack is None or rack == "":
        return "\u2013"
    return str(rack)


@bp.app_template_filter("signed")
def _signed_filter(n: int | None) -> str:
    return signed(n)


@bp.app_template_filter("rack")
def _rack_filter(rack: Any) -> str:
    return rack_text(rack)


@bp.app_template_filter("when")
def _when_filter(iso: str | None) -> Markup:
    """``2026-11-21T02:03:04.123Z`` -> ``<time datetime="...">2026-11-21 02:03 UTC</time>``; the
    page's script shows it in the phone's own time zone and language (``RR.localTimes``)."""
    if not iso:
        return Markup("")
    text = str(iso).replace("T", " ")[:16] + " UTC"
    return Markup('<time datetime="{}">{}</time>').format(str(iso), text)
