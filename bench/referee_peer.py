"""The peer `bench/referee.py` compares with: the ILP solver rummikub-solver 1.0.0 from PyPI
(the `bench` extra; cvxpy over the candidate sets), asked the nearest question it has."""

from __future__ import annotations

import referee
from referee_cases import FULL


class Peer:
    def __init__(self):
        import rummikub_solver as rs  # the `bench` extra

        self.rs = rs
        self.ruleset = rs.RuleSet()
        tiles = self.ruleset.tiles
        self.map = {}
        for t in tiles:
            if isinstance(t, rs.Number):
                letter = {"BLACK": "K", "BLUE": "B", "ORANGE": "O", "RED": "R"}[t.colour.name]
                self.map[referee.Tile.parse(f"{letter}{t.value}")] = t
            elif isinstance(t, rs.Joker):
                self.map[referee.JOKER] = t
        assert len(self.map) == 53, "unexpected rummikub-solver tile map"
        self.version = rs.__version__
        # build the cvxpy problems once, outside any timing
        self.arrange(FULL[:3])

    def arrange(self, tiles):
        state = self.ruleset.new_game()
        state.add_table(*(self.map[t] for t in tiles))
        return self.ruleset.arrange_table(state)

    def opening(self, rack):
        state = self.ruleset.new_game()
        state.add_rack(*(self.map[t] for t in rack))
        sol = self.ruleset.solve(state, self.rs.SolverMode.INITIAL)
        return 0 if sol is None else len(sol.tiles)

    def best_move(self, table, rack):
        state = self.ruleset.new_game()
        state.initial = False
        state.add_table(*(self.map[t] for t in table.tiles))
        state.add_rack(*(self.map[t] for t in rack))
        sol = self.ruleset.solve(state, self.rs.SolverMode.TILE_COUNT)
        return 0 if sol is None else len(sol.tiles)
