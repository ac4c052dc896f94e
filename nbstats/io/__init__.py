"""Reading scores: files, and the places scores live.

:mod:`nbstats.io.csv` reads and checks a score CSV before pandas can guess;
:mod:`nbstats.io.options` holds the reading options and help texts that
``nbstats report``, ``nbstats analyze`` and ``nbstats dashboard`` share.

The readers of score sources return the long table :func:`nbstats.score_table`
takes (columns ``case``, ``algorithm``, ``fold``, ``score``, ...), saying what
they left out and why (:mod:`nbstats.io.sources`):

- :func:`read_sklearn`: scikit-learn's ``cross_validate`` results and the
  ``cv_results_`` of a search;
- :func:`read_mlflow`: the runs of an MLflow experiment (``nbstats[mlflow]``);
- :func:`read_automl_benchmark`: the AutoML benchmark's results CSV and
  OpenML-style run tables.
"""

from nbstats.io.automl import read_automl_benchmark
from nbstats.io.mlflow_runs import read_mlflow
from nbstats.io.sklearn_results import read_sklearn

__all__ = ["read_automl_benchmark", "read_mlflow", "read_sklearn"]
