"""What the joint statements' engine (nbstats.stats.bayes.joint.JointDraws)
holds between passes: a rope's sums when they fit its share of the memory
ceiling, and nothing of an earlier rope when the new one's do not (its
buffers had stayed, 93 MB at 50 algorithms, unused).

Oracle: the same engine with nothing kept (``keep_share=0``): the shares are
the same counts whichever way the draws were summed.
"""

from __future__ import annotations

import numpy as np

from nbstats.stats.bayes.joint import JointDraws
from nbstats.stats.bayes.weights import DirichletWeights
from nbstats.util.memory import memory_ceiling


def engine(keep: float) -> JointDraws:
    rng = np.random.default_rng(4)
    diffs = rng.normal(0.1, 0.5, (12, 10))
    return JointDraws(diffs, DirichletWeights(12, 4000, 3, columns_per_case=10), keep)


def test_a_roomy_share_keeps_each_ropes_sums():
    with memory_ceiling("16M"):
        roomy = engine(keep=0.5)  # 8 MiB: a rope's sums (1.9 MB) fit
        for rope in (0.0, 0.2):
            shares, _ = roomy.probabilities(1.0, rope, "point")
            assert roomy.kept(rope) and roomy._buffers is not None
            np.testing.assert_array_equal(
                shares, engine(keep=0.0).probabilities(1.0, rope, "point")[0]
            )


def test_the_buffers_go_when_the_new_rope_does_not_fit():
    with memory_ceiling("16M"):
        small = engine(keep=0.05)  # 0.8 MiB: θ's sums (0.6 MB), not a rope's
        small.probabilities(1.0, 0.0, "point")
        assert small.kept(0.0) and small._buffers is not None
        shares, _ = small.probabilities(1.0, 0.2, "point")
        assert not small.kept(0.2)
        assert small._buffers is None
        np.testing.assert_array_equal(
            shares, engine(keep=0.0).probabilities(1.0, 0.2, "point")[0]
        )
        # back to no rope: its sums are made again, the same numbers
        again, _ = small.probabilities(1.0, 0.0, "point")
        assert small.kept(0.0)
        np.testing.assert_array_equal(
            again, engine(keep=0.0).probabilities(1.0, 0.0, "point")[0]
        )


def test_let_go_frees_only_what_the_next_rope_would_not_keep():
    with memory_ceiling("16M"):
        small = engine(keep=0.05)
        before, _ = small.probabilities(1.0, 0.0, "point")
        small.let_go(0.0)  # the same rope: kept
        assert small.kept(0.0) and small._buffers is not None
        assert small.keeps(0.0) and not small.keeps(0.2)
        small.let_go(0.2)  # its sums would not be kept: the memory goes now
        assert small._buffers is None and not small.kept(0.0)
        shares, _ = small.probabilities(1.0, 0.2, "point")
        np.testing.assert_array_equal(
            shares, engine(keep=0.0).probabilities(1.0, 0.2, "point")[0]
        )
        np.testing.assert_array_equal(before, small.probabilities(1.0, 0.0, "point")[0])
        roomy = engine(keep=0.5)
        roomy.probabilities(1.0, 0.0, "point")
        roomy.let_go(0.2)  # a rope it would keep: nothing goes
        assert roomy.kept(0.0)
