"""Frequentist tests and post-hoc procedures of Demšar (2006)."""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING

from nbstats.util.lazy import lazy_attributes

#: Public name -> the module that defines it, imported on first use (PEP 562):
#: a caller of one function loads that function's module, not the package's.
_LAZY = {
    "adjust_pvalues": "nbstats.stats.frequentist.adjust",
    "critical_difference": "nbstats.stats.frequentist.critical_difference",
    "friedman": "nbstats.stats.frequentist.friedman",
    "posthoc": "nbstats.stats.frequentist.posthoc",
    "rm_anova": "nbstats.stats.frequentist.anova",
    "sign_test": "nbstats.stats.frequentist.sign",
    "ttest": "nbstats.stats.frequentist.ttest",
    "wilcoxon": "nbstats.stats.frequentist.wilcoxon",
}

__all__ = [
    "adjust_pvalues",
    "critical_difference",
    "friedman",
    "posthoc",
    "rm_anova",
    "sign_test",
    "ttest",
    "wilcoxon",
]

__getattr__, __dir__ = lazy_attributes("nbstats.stats.frequentist", _LAZY, globals())


class _Package(types.ModuleType):
    """This package, whose public names stay its functions.

    Five functions share their module's name (``friedman``, ``posthoc``,
    ``ttest``, ``wilcoxon``, ``critical_difference``). Importing such a
    submodule would set the package's attribute of that name to the module;
    here it is left to the function, as an eager ``from ... import`` would
    leave it, so ``frequentist.posthoc(...)`` calls the function whichever
    module was imported first.
    """

    def __setattr__(self, name: str, value: object) -> None:
        if name in _LAZY and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

if TYPE_CHECKING:  # static analysers and IDEs see the eager imports
    from nbstats.stats.frequentist.adjust import adjust_pvalues
    from nbstats.stats.frequentist.anova import rm_anova
    from nbstats.stats.frequentist.critical_difference import critical_difference
    from nbstats.stats.frequentist.friedman import friedman
    from nbstats.stats.frequentist.posthoc import posthoc
    from nbstats.stats.frequentist.sign import sign_test
    from nbstats.stats.frequentist.ttest import ttest
    from nbstats.stats.frequentist.wilcoxon import wilcoxon
