"""Bergmann–Hommel against a brute-force enumeration of exhaustive sets."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import nbstats
from nbstats.stats.frequentist.bergmann import bergmann_hommel


def _partitions(items):
    """Every set partition of ``items`` (recursive, independent of the code)."""
    if not items:
        yield []
        return
    head, rest = items[0], items[1:]
    for smaller in _partitions(rest):
        yield [[head], *smaller]
        for n, block in enumerate(smaller):
            yield [*smaller[:n], [head, *block], *smaller[n + 1 :]]


def _brute(p, k):
    pairs = list(itertools.combinations(range(k), 2))
    best = dict.fromkeys(pairs, 0.0)
    for partition in _partitions(list(range(k))):
        exhaustive = [
            tuple(sorted(pair))
            for block in partition
            for pair in itertools.combinations(block, 2)
        ]
        if not exhaustive:
            continue
        value = len(exhaustive) * min(p[pairs.index(h)] for h in exhaustive)
        for h in exhaustive:
            best[h] = max(best[h], value)
    return np.minimum(1.0, [best[h] for h in pairs])


def test_partitions_are_bell_numbers():
    assert [len(list(_partitions(list(range(n))))) for n in range(1, 8)] == [
        1, 2, 5, 15, 52, 203, 877,
    ]  # fmt: skip


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6, 7])
@pytest.mark.parametrize("seed", range(4))
def test_equals_brute_force(k, seed):
    rng = np.random.default_rng(100 * k + seed)
    p = rng.uniform(0, 0.3, k * (k - 1) // 2) ** 2
    np.testing.assert_allclose(bergmann_hommel(p, k), _brute(p, k), rtol=1e-15)


@pytest.mark.parametrize("k", [4, 6, 9, 12])
def test_at_least_as_powerful_as_shaffer_and_holm(k):
    rng = np.random.default_rng(k)
    p = rng.uniform(0, 0.1, k * (k - 1) // 2) ** 1.5
    bh = bergmann_hommel(p, k)
    shaffer = nbstats.adjust_pvalues(p, "shaffer", n_algorithms=k)
    holm = nbstats.adjust_pvalues(p, "holm")
    assert np.all(bh <= shaffer + 1e-15)
    assert np.all(shaffer <= holm + 1e-15)
    assert np.all(bh >= p)


def test_above_twelve_falls_back_to_shaffer_with_a_warning():
    k = 13
    p = np.linspace(0.001, 0.5, k * (k - 1) // 2)
    with pytest.warns(UserWarning, match="Shaffer's procedure is used instead"):
        out = bergmann_hommel(p, k)
    np.testing.assert_allclose(out, nbstats.adjust_pvalues(p, "shaffer"))


def test_bad_input():
    with pytest.raises(ValueError, match="needs the 6 pairwise p-values of 4"):
        bergmann_hommel(np.full(5, 0.1), 4)


def test_adjust_pvalues_and_posthoc_use_it():
    table = nbstats.datasets.load("uci_accuracy")
    k = table.shape[1]
    holm = nbstats.posthoc(table, method="holm")
    raw = holm.pvalues.to_numpy()[np.triu_indices(k, 1)]
    expected = bergmann_hommel(raw, k)
    adjusted = nbstats.adjust_pvalues(raw, "bergmann-hommel")
    np.testing.assert_allclose(adjusted, expected)
    res = nbstats.posthoc(table, method="bergmann-hommel")
    np.testing.assert_allclose(res.adjusted.to_numpy()[np.triu_indices(k, 1)], expected)
    shaffer = nbstats.posthoc(table, method="shaffer")
    assert (res.adjusted.fillna(0) <= shaffer.adjusted.fillna(0) + 1e-15).all().all()
    pairwise = nbstats.comparison_matrix(table, adjust="bergmann-hommel")
    names = list(table.columns)
    in_columns = pairwise.pvalues.loc[names, names]
    raw_w = in_columns.to_numpy()[np.triu_indices(k, 1)]
    np.testing.assert_allclose(
        pairwise.adjusted.loc[names, names].to_numpy()[np.triu_indices(k, 1)],
        bergmann_hommel(raw_w, k),
    )
    # against a control the hypotheses can be true in any combination:
    # Bergmann and Hommel's procedure is Holm's, and the result says so
    control = nbstats.posthoc(table, method="bergmann-hommel", control="nbc")
    assert control.method == "holm" and "any combination" in control.note
    np.testing.assert_allclose(
        control.adjusted.to_numpy(),
        nbstats.adjust_pvalues(control.pvalues.to_numpy(), "holm"),
    )


#: scmamp's published example (its vignette "Statistical assessment of the
#: differences", at commit 3cf4d8b): the raw p-values of
#: ``friedmanAlignedRanksPost(data.gh.2008)`` for C4.5, k-NN(k=1),
#: NaiveBayes, Kernel and CN2 as printed (7 significant digits), then
#: ``adjustShaffer`` and ``adjustBergmannHommel`` of them as printed; upper
#: triangles, row by row.
SCMAMP_RAW = [
    1.174850e-03, 3.341698e-01, 2.843421e-10, 1.845167e-02,
    2.265711e-02, 2.197407e-03, 3.742777e-01,
    9.226472e-08, 1.643229e-01,
    7.793722e-05,
]  # fmt: skip
SCMAMP_SHAFFER = [
    7.049103e-03, 6.683396e-01, 2.843421e-09, 7.380668e-02,
    9.062842e-02, 1.318444e-02, 6.683396e-01,
    5.535883e-07, 4.929688e-01,
    4.676233e-04,
]  # fmt: skip
SCMAMP_BERGMANN = [
    7.049103e-03, 6.683396e-01, 2.843421e-09, 5.535501e-02,
    6.797132e-02, 8.789629e-03, 6.683396e-01,
    5.535883e-07, 1.643229e-01,
    3.117489e-04,
]  # fmt: skip


def test_scmamps_published_example():
    raw = np.array(SCMAMP_RAW)
    ours = nbstats.adjust_pvalues(raw, "bergmann-hommel", n_algorithms=5)
    # the inputs are rounded to 7 digits, so are the printed outputs
    np.testing.assert_allclose(ours, SCMAMP_BERGMANN, rtol=2e-6)
    shaffer = nbstats.adjust_pvalues(raw, "shaffer", n_algorithms=5)
    np.testing.assert_allclose(shaffer, SCMAMP_SHAFFER, rtol=2e-6)
    # never above Shaffer's, and below it for the same 5 of the 10 pairs
    assert np.all(ours <= shaffer)
    published = np.array(SCMAMP_BERGMANN) < np.array(SCMAMP_SHAFFER)
    np.testing.assert_array_equal(ours < shaffer, published)
    assert published.sum() == 5
