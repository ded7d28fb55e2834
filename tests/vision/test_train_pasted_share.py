"""Training scenes with pasted close-ups of big heavy numerals (``rummiref train
--pasted-share``): off by default, so the shipped reader's training command draws the scenes
it was trained on; on, it replaces only tables that came next in the mix."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("cv2")

from vision.synth import random_scene  # noqa: E402
from vision.synth.scenes import CLOSEUP_SHARE, PASTED_SHARE, RACK_SHARE  # noqa: E402
from vision.train import command  # noqa: E402


def _mix(seed: int) -> float:
    """The draw ``random_scene`` decides a scene's kind by."""
    return np.random.default_rng([seed, 10]).random()


def test_pasted_scenes_take_only_the_places_of_tables_next_in_the_mix():
    start = RACK_SHARE + CLOSEUP_SHARE
    inside = [s for s in range(200) if start <= _mix(s) < start + PASTED_SHARE][:2]
    outside = [s for s in range(200) if _mix(s) >= start + PASTED_SHARE][:2]
    assert inside and outside
    for s in outside:  # the same table as without the option
        a = random_scene(s, size=(320, 240), pasted_share=PASTED_SHARE)
        b = random_scene(s, size=(320, 240))
        assert np.array_equal(a[0], b[0]) and [t for t, _ in a[1]] == [t for t, _ in b[1]]
    for s in inside:  # by default a table; with the option another scene
        a = random_scene(s, size=(320, 240), pasted_share=PASTED_SHARE)
        b = random_scene(s, size=(320, 240))
        assert not np.array_equal(a[0], b[0])
        assert a[1] and [t for t, _ in a[1]] != [t for t, _ in b[1]]


@pytest.mark.parametrize("share", ["-0.1", "0.8"])
def test_a_share_outside_the_tables_is_refused_before_anything_is_made(tmp_path, capsys,
                                                                       share):
    code = command.main(["--out", str(tmp_path / "m"), "--max-photos", "0", "--synthetic", "2",
                         "--skip-finder", "--pasted-share", share])
    assert code == 2
    assert "--pasted-share" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()
