"""Names people type: players' names (what makes two names one player, and what a name may not
hide), a phone's name for the change log, a game's title."""

from __future__ import annotations

import json
import unicodedata
from typing import Any, Optional

from referee.names import name_key  # noqa: F401 (the web app's modules import it from here)

from .exceptions import Invalid
from .models import DEVICE_MAX, NAME_MAX, TITLE_MAX


def clean_device(value: Any) -> Optional[str]:
    """A device name for the audit trail: printable, at most DEVICE_MAX characters."""
    if not isinstance(value, str):
        return None
    text = "".join(ch for ch in value if unicodedata.category(ch)[0] != "C").strip()
    return text[:DEVICE_MAX] or None


#: Zero-width (non-)joiners are part of how Persian, Indic scripts and emoji sequences are
#: written: allowed between two characters that are not ASCII, refused anywhere else.
_JOINERS = frozenset("\u200c\u200d")


#: Letters and symbols that show as nothing (Hangul fillers, the blank Braille pattern, the
#: combining grapheme joiner) and the variation selectors, which only mean something after
#: an emoji or an ideograph.
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")


def _hidden(name: str) -> Optional[str]:
    """The first character of ``name`` that a reader cannot see or that turns the text's
    direction (format, control, unassigned, private-use or separator characters), or None."""
    for i, ch in enumerate(name):
        cat = unicodedata.category(ch)
        variation = "\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef"
        if ch in _JOINERS or variation:
            before = name[i - 1] if i else ""
            after = name[i + 1] if i + 1 < len(name) else ""
            if before and not before.isascii() and (variation or (after and not after.isascii())):
                continue
            return ch
        if ch in _BLANK or cat in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            return ch
    return None


def clean_player_name(raw: Any, index: int) -> str:
    """A player's name as stored: NFKC (so full-width letters and ligatures are plain ones),
    spaces trimmed and single; :class:`Invalid` for an empty or long name, or one holding a
    character that hides (a zero-width space, a byte-order mark, a right-to-left override)."""
    if not isinstance(raw, str):
        raise Invalid(f"player {index + 1}: a name is text, not {json.dumps(raw)}",
                      field="players")
    name = " ".join(part for part in unicodedata.normalize("NFKC", raw).strip().split(" ") if part)
    hidden = _hidden(name)
    if hidden is not None:
        what = " ".join(filter(None, (f"U+{ord(hidden):04X}", unicodedata.name(hidden, ""))))
        kind = "a line break or control character" if unicodedata.category(hidden) in (
            "Cc", "Zl", "Zp") else "an invisible or text-direction character"
        raise Invalid(f"player {index + 1}'s name holds {kind} ({what}); type the name with "
                      f"letters, digits and spaces", field="players", player=ascii(name)[1:-1])
    if not name:
        raise Invalid(f"player {index + 1} has no name: type a name (1 to {NAME_MAX} characters)",
                      field="players")
    if len(name) > NAME_MAX:
        raise Invalid(f"the name {name[:NAME_MAX]!r}... is too long: {NAME_MAX} characters at most",
                      field="players")
    return name


def clean_title(raw: Any) -> Optional[str]:
    """A game's title as stored (NFKC, single spaces), or None for none (null or only spaces);
    :class:`Invalid` for one that is not text, too long, or holds a character that hides."""
    if raw is None:
        return None
    if not isinstance(raw, str):
        raise Invalid('"title" is a short name for the game, like "Friday at Ann\'s", or null',
                      field="title")
    title = " ".join(unicodedata.normalize("NFKC", raw).split())
    hidden = _hidden(title)
    if hidden is not None:
        raise Invalid(f"the title holds an invisible or control character (U+{ord(hidden):04X}); "
                      f"type it with letters, digits and spaces", field="title")
    if len(title) > TITLE_MAX:
        raise Invalid(f"the title is too long: {TITLE_MAX} characters at most", field="title")
    return title or None
