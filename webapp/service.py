"""The scoresheet's service layer, apart from HTTP: one name for each thing the API, the pages
and the live referee do to games. Each lives in a module of its own:

``exceptions``  the errors (each with its HTTP status)
``names``       players' names, phone names, game titles; ``tokens``: the edit token
``presets``     the rule presets as JSON, a rack's value
``sheet``       one game as shown (rounds, totals, ranking, target, winners)
``timer``       the shared turn timer
``rounds``      entering, correcting and undoing rounds
``games``       starting a game; renaming, retargeting, deleting it; its rematch
``records``     the list of games, players' records, the change log
``export``      CSV
``changes``     how every change is recorded (version, event, change log)

Functions that change something expect a Session whose transaction they may write in and that
the caller commits, with the game locked first (``get_game(..., lock=True)``).
"""

from __future__ import annotations



from .changes import audit as _audit, next_version, record_change  # noqa: F401
from .exceptions import (Conflict, Invalid, NotFound, PreconditionFailed,  # noqa: F401
                         ServiceError, unknown_fields)
from .export import csv_cell, export_csv  # noqa: F401
from .games import (MAX_PLAYERS, MIN_PLAYERS, create_game, delete_game, edit_game,  # noqa: F401
                    new_game_row, rematch)
from .models import RACK_TEXT_MAX, utcnow  # noqa: F401
from .names import clean_device, clean_player_name, clean_title, name_key  # noqa: F401
from .presets import game_rules, presets_json, rack_preview, rules_json  # noqa: F401
from .records import audit_json, list_games, player_records  # noqa: F401
from .rounds import (RoundInput, add_round, change_json, edit_round, game_over_text,  # noqa: F401
                     parse_round, settle, stored_racks, undo_round)
from .sheet import (check_round_unchanged, game_json, game_state, get_game,  # noqa: F401
                    get_round, links, load_game, ranking_of, rematches, round_etag,
                    round_json, totals_of)
from .stamps import iso, iso_ms, now_ms  # noqa: F401
from .timer import (TIMER_ACTIONS, TIMER_WARNING_SECONDS, reset_timer,  # noqa: F401
                    starter_seat, timer_action, timer_json)
from .tokens import hash_token, token_matches  # noqa: F401
