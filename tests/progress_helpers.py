"""A stand-in for the progress bars of nbstats' long computations."""

from __future__ import annotations


class RecordingBar:
    """Stands in for tqdm: records what it is told."""

    def __init__(self, total):
        self.total, self.n, self.closed = total, 0, False

    def update(self, k):
        self.n += k

    def close(self):
        self.closed = True


def record_bars(monkeypatch, modules) -> list[tuple[str, str, RecordingBar]]:
    """Replace ``progress_bar`` in ``modules`` by one that records each bar
    asked for (progress=True) as (desc, unit, bar); the list fills as they
    are made."""
    made: list[tuple[str, str, RecordingBar]] = []

    def fake(progress, total, desc, unit, *, delay=0.0):
        if not progress:
            return None
        made.append((desc, unit, RecordingBar(total)))
        return made[-1][2]

    for module in modules:
        monkeypatch.setattr(module, "progress_bar", fake)
    return made
