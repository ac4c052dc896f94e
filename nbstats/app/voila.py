"""What Voilà's process loads, by name, for ``nbstats dashboard``.

- :class:`CappedKernelManager`: jupyter_server's ``AsyncMappingKernelManager``
  that starts at most ``max_kernels`` kernels (Voilà starts one per page
  load, a few hundred MB each for a dashboard); beyond that a page load gets an
  HTTP 503 page saying how to get a kernel. Voilà builds its kernel manager
  from ``VoilaConfiguration.multi_kernel_manager_class`` and configures it
  through traitlets, so :func:`nbstats.app.server.voila_command` only
  passes ``--VoilaConfiguration.multi_kernel_manager_class=...`` and
  ``--CappedKernelManager.max_kernels=N``. Idle culling is jupyter_server's
  own (``cull_idle_timeout``, ``cull_interval``, ``cull_connected``),
  configured the same way.
- :func:`set_xsrf_cookie`: a Voilà ``prelaunch_hook`` that gives each page
  the ``_xsrf`` cookie. Voilà's page shuts its kernel down when it is
  closed or reloaded, by a POST that carries that cookie's value; Voilà
  never sets it, so jupyter_server refuses the POST (voila-dashboards/voila
  issue 1458) and every reload would hold a kernel until culled. A hook is
  a Python object, which a command line cannot carry: it is set by the
  ``voila.py`` config file :func:`nbstats.app.server.write_voila_config`
  writes where Voilà runs (Voilà reads ``voila.py`` from its working
  directory first).
- :func:`use_offline_template`: called by the same ``voila.py``, it serves
  the page with the template ``nbstats-offline`` (in
  ``nbstats/app/voila_share``): Voilà's lab template without the Font
  Awesome stylesheets it links from a CDN, so that the page makes no request
  outside 127.0.0.1 and works offline. Voilà's own ``voila-style.js`` bundles
  Font Awesome 5 with its fonts, which Voilà serves, so icons still show.

This module imports jupyter_server and tornado: only Voilà's process (and the
tests) import it; :mod:`nbstats.app.server` names it by string.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Integer

__all__ = [
    "TEMPLATE",
    "TEMPLATE_ROOT",
    "CappedKernelManager",
    "limit_message",
    "set_xsrf_cookie",
    "use_offline_template",
]

#: The Voilà template of the dashboard page (see :func:`use_offline_template`).
TEMPLATE = "nbstats-offline"
#: The Jupyter data directory that holds it, as ``voila/templates/<TEMPLATE>``.
TEMPLATE_ROOT = Path(__file__).with_name("voila_share")


def set_xsrf_cookie(handler: web.RequestHandler, notebook: Any, cwd: str) -> None:
    """Voilà prelaunch hook: set the page's ``_xsrf`` cookie, change nothing else.

    Reading tornado's ``xsrf_token`` sets the cookie when the browser has
    none, as a page with a form does; the hook runs once the request is
    authenticated, before anything is sent. Returning ``None`` keeps the
    notebook as it is.

    Examples
    --------
    >>> class Handler:  # a stand-in for Voilà's request handler
    ...     xsrf_token = b"2|0|1|2"
    >>> set_xsrf_cookie(Handler(), notebook=None, cwd=".") is None
    True
    """
    handler.xsrf_token  # noqa: B018 -- the property sets the cookie


def use_offline_template(config: Any) -> None:
    """In Voilà's ``voila.py``: serve the page with :data:`TEMPLATE`.

    Voilà finds a template by name in the Jupyter data directories, so
    :data:`TEMPLATE_ROOT` is put first on ``JUPYTER_PATH`` (Voilà reads it
    after its config files; its kernels inherit it, which only adds a data
    directory that holds this template).

    Examples
    --------
    >>> from traitlets.config import Config
    >>> saved, c = os.environ.get("JUPYTER_PATH"), Config()
    >>> use_offline_template(c)
    >>> c.VoilaConfiguration.template
    'nbstats-offline'
    >>> os.environ["JUPYTER_PATH"].split(os.pathsep)[0] == str(TEMPLATE_ROOT)
    True
    >>> if saved is None:
    ...     del os.environ["JUPYTER_PATH"]
    ... else:
    ...     os.environ["JUPYTER_PATH"] = saved
    """
    others = [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]
    if str(TEMPLATE_ROOT) not in others:
        os.environ["JUPYTER_PATH"] = os.pathsep.join([str(TEMPLATE_ROOT), *others])
    config.VoilaConfiguration.template = TEMPLATE


def limit_message(max_kernels: int, cull_idle: int) -> str:
    """What a page load beyond the cap is told (an HTTP reason phrase).

    Plain ASCII on one line without ``<``: tornado puts it in the status line
    and Voilà's error page shows it as the heading.

    Examples
    --------
    >>> print(limit_message(2, 600))  # doctest: +NORMALIZE_WHITESPACE
    The dashboard server is at its limit of 2 kernels (one per open page):
    close another page of this dashboard, or wait until a page idle for 600 s
    frees its kernel, or restart nbstats dashboard with a larger --max-kernels.
    """
    kernels = "1 kernel" if max_kernels == 1 else f"{max_kernels} kernels"
    wait = (
        f"wait until a page idle for {cull_idle} s frees its kernel"
        if cull_idle > 0
        else "restart it with --cull-idle SECONDS to free idle pages"
    )
    return (
        f"The dashboard server is at its limit of {kernels} (one per open page): "
        f"close another page of this dashboard, or {wait}, or restart "
        "nbstats dashboard with a larger --max-kernels."
    )


class CappedKernelManager(AsyncMappingKernelManager):  # type: ignore[misc]
    """``AsyncMappingKernelManager`` that starts at most ``max_kernels`` kernels.

    Kernels being started count (so concurrent page loads cannot overshoot);
    kernels being shut down do not (their memory is on its way out, and a
    page reload shuts the old page's kernel down as the new one starts).
    Beyond the cap :meth:`start_kernel` raises ``tornado.web.HTTPError(503)``
    -- the way jupyter_server's own kernel managers refuse a request (e.g. an
    unknown kernel id is a 404) -- so the page load gets an error page
    instead of a kernel. Restarting an existing kernel is never refused.

    Examples
    --------
    >>> manager = CappedKernelManager(max_kernels=2)
    >>> manager.max_kernels, manager.kernels_in_use()
    (2, 0)
    """

    max_kernels = Integer(
        3,
        config=True,
        help="Most kernels running at once (one per open dashboard page); "
        "0 means no limit.",
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._reserved: set[str] = set()  # ids being started
        self._stopping: set[str] = set()  # ids being shut down

    def kernels_in_use(self) -> int:
        """Kernels running or starting, not counting those shutting down."""
        return len((set(self.list_kernel_ids()) | self._reserved) - self._stopping)

    async def start_kernel(  # type: ignore[override]
        self, *args: Any, kernel_id: str | None = None, **kwargs: Any
    ) -> str:
        """Start a kernel unless ``max_kernels`` are in use (then HTTP 503)."""
        if kernel_id is not None and kernel_id in self:
            return await super().start_kernel(*args, kernel_id=kernel_id, **kwargs)
        in_use = self.kernels_in_use()
        if 0 < self.max_kernels <= in_use:
            self.log.warning(
                "nbstats: refused a new kernel: %d of at most %d in use "
                "(raise it with --max-kernels)",
                in_use,
                self.max_kernels,
            )
            raise web.HTTPError(
                503, reason=limit_message(self.max_kernels, self.cull_idle_timeout)
            )
        # the id is chosen here (MultiKernelManager lets the caller pick it) so
        # the reservation and the started kernel are one entry, never two
        if kernel_id is None:
            kernel_id = str(self.new_kernel_id())
        self._reserved.add(kernel_id)
        try:
            return await super().start_kernel(*args, kernel_id=kernel_id, **kwargs)
        finally:
            self._reserved.discard(kernel_id)

    async def shutdown_kernel(  # type: ignore[override]
        self, kernel_id: str, *args: Any, **kwargs: Any
    ) -> None:
        """Shut a kernel down; it stops counting against the cap at once."""
        self._stopping.add(kernel_id)
        try:
            await super().shutdown_kernel(kernel_id, *args, **kwargs)
        finally:
            self._stopping.discard(kernel_id)
