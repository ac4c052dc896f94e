"""The dashboard app: ``nbstats serve``, a Voilà server for a browser.

The server (:mod:`~nbstats.app.server`), the scores it is given
(:mod:`~nbstats.app.data`), the notebook it serves
(:mod:`~nbstats.app.notebook`), its process and scratch files
(:mod:`~nbstats.app.process`) and Voilà's configuration
(:mod:`~nbstats.app.voila`).
"""
