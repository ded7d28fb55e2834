"""The rule presets as the API shows them, and what a rack is worth under one (the tile keypad's
total, nothing saved)."""

from __future__ import annotations

from typing import Any, Optional

import referee

from .exceptions import Invalid, unknown_fields
from .models import RACK_TEXT_MAX, Game


def timeout_penalty(rules: referee.Rules) -> Optional[str]:
    """What happens when the turn timer runs out (``Rules.timeout_outcome``)."""
    return rules.timeout_outcome()


def rules_json(rules: referee.Rules) -> dict[str, Any]:
    return {"name": rules.name, "title": rules.title, "source": rules.source,
            "description": list(rules.describe()), "joker_penalty": rules.joker_penalty,
            "turn_time_limit": rules.turn_time_limit,
            "timeout_penalty": timeout_penalty(rules), "options": rules.to_dict()}


def presets_json() -> dict[str, Any]:
    return {"default": referee.DEFAULT_PRESET,
            "presets": [rules_json(r) for r in referee.PRESETS.values()]}


def rack_preview(body: Any) -> dict[str, Any]:
    """What a rack is worth under a preset, without saving anything (the tile keypad's total)."""
    if not isinstance(body, dict) or not isinstance(body.get("tiles"), (str, list)):
        raise Invalid('send {"tiles": "R5 K13 J", "rules": "sabra"}', field="tiles")
    unknown = set(body) - {"tiles", "rules"}
    if unknown:
        raise Invalid(f"{unknown_fields(unknown)}; send tiles and rules",
                      field=sorted(map(str, unknown))[0])
    tiles = tiles_input(body["tiles"], "tiles")
    rules_name = body.get("rules")
    if rules_name is not None and not isinstance(rules_name, str):
        raise Invalid(f'"rules" is the name of a preset: {", ".join(referee.PRESETS)}',
                      field="rules")
    try:
        rules = referee.get_rules(rules_name)
    except referee.RummirefError as e:
        raise Invalid(str(e), field="rules") from None
    value = referee.rack_value(tiles, rules)
    return {"tiles": referee.format_tiles(tiles), "value": value, "count": len(tiles),
            "rules": rules.name}


def tiles_input(value: Any, field: str) -> list[referee.Tile]:
    """Tiles a request sends as a text like ``"R5 K13 J"`` or a list of up to 106 tiles:
    Invalid, naming ``field`` (and the tile at fault), for anything else or a tile that is
    none, or a third copy of one."""
    if not (isinstance(value, str) and len(value) <= RACK_TEXT_MAX
            or isinstance(value, list) and len(value) <= 106
            and all(isinstance(t, str) for t in value)):
        raise Invalid("the tiles are a text like \"R5 K13 J\" or a list of up to 106 tiles",
                      field=field)
    try:
        return referee.parse_tiles(value)
    except referee.RummirefError as e:
        raise Invalid(str(e), token=getattr(e, "token", None), field=field) from None


def game_rules(game: Game) -> referee.Rules:
    return referee.get_rules(game.rules)
