"""Scratch files and folders of nbstats, and the removal of those that
killed runs left behind.

Every temporary file or folder nbstats makes (the report's kernel folder, the
LaTeX folder, the staging folder beside a report, a dashboard's folder) is
named by :func:`scratch_prefix`: nbstats, this host and this process. A run
killed by SIGKILL cleans up nothing; :func:`remove_stale` removes what such a
run left, and only that, the next time a report or a dashboard starts.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import socket
import time

__all__ = ["STALE_AFTER", "remove_stale", "scratch_prefix"]

#: The host's tag in scratch names (a folder may be shared between machines).
_HOST = hashlib.sha1(socket.gethostname().encode("utf-8")).hexdigest()[:6]
#: Scratch names: ``nbstats-<kind>-<host>-<pid>-<random>``, in the temporary
#: folder, or ``.<report name>.nbstats-<kind>-<host>-<pid>-<random>.tmp``
#: (or ``.probe``) beside the report.
_SCRATCH = re.compile(
    r"(?:\..+\.)?nbstats-(?P<kind>report|latex|dashboard|stage|probe)-"
    r"(?P<host>[0-9a-f]{6})-(?P<pid>\d{1,10})-[A-Za-z0-9_]+(?:\.tmp|\.probe)?"
)
#: Scratch names of nbstats before they named their process.
_LEGACY = re.compile(r"nbstats-(?:report|latex|dashboard)-[a-z0-9_]{8}")
#: Leftovers whose process cannot be asked (another host, an older nbstats)
#: are removed once they are this old, in seconds.
STALE_AFTER = 24 * 3600


def scratch_prefix(kind: str) -> str:
    """The start of a temporary file's or folder's name: it names nbstats,
    this host and this process, so that :func:`remove_stale` can tell the
    leftovers of a killed run (SIGKILL runs no clean-up) from live ones.

    Examples
    --------
    >>> scratch_prefix("report").startswith("nbstats-report-")
    True
    """
    return f"nbstats-{kind}-{_HOST}-{os.getpid()}-"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):  # another user's: alive
        return True
    return True


def remove_stale(directory: str | os.PathLike[str], *, report: str = "") -> list[str]:
    """Remove the scratch files and folders that killed nbstats runs left in
    ``directory``; return their names.

    Only nbstats' own names (:func:`scratch_prefix`) are touched: those of a
    process of this host that is gone, those of another host after
    :data:`STALE_AFTER` seconds, and (after that long too) the names an
    older nbstats used: ``nbstats-report-XXXXXXXX`` in the temporary folder,
    ``.<report>.XXXXXXXX.tmp`` beside the report named ``report``.
    """
    legacy = (
        re.compile(rf"\.{re.escape(report)}\.[a-z0-9_]{{8}}\.(?:tmp|probe)")
        if report
        else _LEGACY
    )
    removed = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return []
    now = time.time()
    for entry in entries:
        match = _SCRATCH.fullmatch(entry.name)
        try:
            old = now - entry.stat(follow_symlinks=False).st_mtime > STALE_AFTER
        except OSError:
            continue
        if match is not None and match["host"] == _HOST:
            stale = int(match["pid"]) != os.getpid() and not _alive(int(match["pid"]))
        else:
            stale = old and (match is not None or legacy.fullmatch(entry.name))
        if not stale:
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
        except OSError:
            continue  # another user's, or gone already
        removed.append(entry.name)
    return removed
