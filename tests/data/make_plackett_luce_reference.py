"""Store a reference posterior of the Bayesian Plackett–Luce model, made by Stan.

The model is scmamp's ``bPlackettLuceModel`` (its ``inst/stan/pl_model.stan``):
a symmetric Dirichlet prior on the simplex of worths and the Plackett–Luce
likelihood of each case's ranking, sampled by Stan's NUTS. It is written out
below in our own words and run once; the test
``tests/stats/bayes/test_plackett_luce.py`` compares nbstats' Gibbs sampler with
the stored posterior means, within their Monte Carlo errors.

Run with a Python that has pystan 3 (``pip install pystan``; it compiles the
model with the machine's C++ compiler)::

    python tests/data/make_plackett_luce_reference.py

It writes ``tests/data/plackett_luce_reference.json``: the scores, the prior,
and per algorithm the posterior mean worth, expected rank and P(best) with
their Monte Carlo standard errors (posterior sd / sqrt(ESS), ESS from Stan's
chains by the same estimator as nbstats.stats.mcmc).
"""

import json
import pathlib

import numpy as np

MODEL = """
data {
  int<lower=1> n;                 // cases
  int<lower=2> m;                 // algorithms
  array[n, m] int<lower=1, upper=m> best_first;  // algorithm indices, best first
  vector<lower=0>[m] alpha;       // Dirichlet concentration
}
parameters {
  simplex[m] worth;
}
model {
  worth ~ dirichlet(alpha);
  for (i in 1:n) {
    real tail = 1;                // worths of the algorithms not yet placed
    for (r in 1:(m - 1)) {
      target += log(worth[best_first[i, r]]) - log(tail);
      tail -= worth[best_first[i, r]];
    }
  }
}
"""


def ess(chains: np.ndarray) -> np.ndarray:
    """Effective sample size (Geyer's initial monotone sequence), per column."""
    m, n = chains.shape[:2]
    centred = chains - chains.mean(axis=1, keepdims=True)
    size = 1 << (2 * n - 1).bit_length()
    spec = np.fft.rfft(centred, n=size, axis=1)
    acov = np.fft.irfft(spec * np.conj(spec), n=size, axis=1)[:, :n] / n
    within = (acov[:, 0] * n / (n - 1)).mean(axis=0)
    plus = within * (n - 1) / n + chains.mean(axis=1).var(axis=0, ddof=1)
    rho = 1 - (within - acov.mean(axis=0)) / plus
    rho[0] = 1
    pairs = rho[: n - n % 2].reshape(-1, 2, *rho.shape[1:]).sum(axis=1)
    later = np.minimum.accumulate(np.clip(pairs[1:], 0, None), axis=0)
    tau = -1 + 2 * (pairs[0] + later.sum(axis=0))
    return m * n / tau


def main() -> None:
    import stan  # pystan 3: only where the reference is made, not in the suite

    rng = np.random.default_rng(20261127)
    n, m = 30, 5
    skill = np.array([0.0, 0.3, 0.6, 0.9, 1.2])
    scores = np.round(rng.normal(size=(n, m)) + skill, 6)
    best_first = np.argsort(-scores, axis=1) + 1  # higher is better, 1-based
    alpha = 1.0
    model = stan.build(
        MODEL,
        data={"n": n, "m": m, "best_first": best_first.tolist(), "alpha": [alpha] * m},
        random_seed=1,
    )
    chains, draws = 8, 5000
    fit = model.sample(num_chains=chains, num_samples=draws, num_warmup=1000)
    worth = np.asarray(fit["worth"]).T.reshape(chains, draws, m)
    ranks = np.argsort(np.argsort(-worth, axis=2), axis=2) + 1
    best = (ranks == 1).astype(float)
    out = {"scores": scores.tolist(), "prior": alpha, "chains": chains, "draws": draws}
    for name, values in (
        ("worth", worth),
        ("expected_rank", ranks.astype(float)),
        ("prob_best", best),
    ):
        flat = values.reshape(-1, m)
        mean = flat.mean(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            mc = flat.std(axis=0) / np.sqrt(ess(values))
        mc = np.nan_to_num(mc)  # a probability 0 in every draw has no error
        out[name] = mean.tolist()
        out[name + "_mc_error"] = mc.tolist()
    path = pathlib.Path(__file__).with_name("plackett_luce_reference.json")
    path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in out.items() if k != "scores"}, indent=1))


if __name__ == "__main__":
    main()
