"""The one normaliser of ``random_state``: every seeded function reads it here.

``None``, a non-negative int, a :class:`numpy.random.SeedSequence` or a
:class:`numpy.random.Generator` become a SeedSequence, so that a function can
spawn independent streams for its parts and the same seed gives the same
numbers.
"""

from __future__ import annotations

import numpy as np

__all__ = ["seed_sequence"]


def seed_sequence(random_state: object) -> np.random.SeedSequence:
    """A SeedSequence from ``None``, an int, a SeedSequence or a Generator.

    A Generator is advanced (one integer is drawn from it), as numpy does when
    a generator seeds a child.
    """
    if isinstance(random_state, np.random.SeedSequence):
        return random_state
    if isinstance(random_state, np.random.Generator):
        return np.random.SeedSequence(int(random_state.integers(2**63)))
    if random_state is None or (
        isinstance(random_state, (int, np.integer))
        and not isinstance(random_state, bool)
    ):
        if random_state is not None and random_state < 0:
            raise ValueError(f"random_state must be non-negative, got {random_state}.")
        return np.random.SeedSequence(random_state)
    raise TypeError(
        "random_state must be None, a non-negative int or a numpy Generator, got "
        f"{type(random_state).__name__}."
    )
