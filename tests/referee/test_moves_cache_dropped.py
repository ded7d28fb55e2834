"""The solver's process-wide moves cache is emptied when it grows too big, while the threaded
server may be solving elsewhere: a search that adds a table while the cache is being emptied
(another thread, between two steps of the emptying) must not break it, and every table,
those held by running searches included, ends empty."""

from referee import search


class _AddsWhileEmptied(dict):
    """A table whose emptying lets another search add a table to the cache, as a thread
    switch at that moment would."""

    def clear(self):
        search._STEPS[("another search's situation",)] = {}
        super().clear()


def test_a_table_added_while_the_cache_is_emptied(monkeypatch):
    held = [_AddsWhileEmptied(a=1), {"b": 2}, {"c": 3}]
    monkeypatch.setattr(search, "_STEPS", {("situation", i): t for i, t in enumerate(held)})
    search._drop_moves()
    assert search._STEPS == {}
    assert all(t == {} for t in held)
    assert search._STEPS_HELD[0] == 0

