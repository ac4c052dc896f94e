"""The hierarchical model of Corani et al. (2017) and its NUTS sampler (NumPyro).

Everything here works on differences already divided by the mean per-data-set
standard deviation (see :mod:`nbstats.stats.hierarchical`). jax and numpyro
are imported inside the functions: ``import nbstats`` never loads them, and
without them :func:`require_sampler` raises an ImportError naming the extra.

The likelihood of data set i's n fold differences x_i is multivariate normal
with mean δ_i, variance σ_i² and the compound-symmetric correlation ρ between
any two folds, covariance ``σ_i² M`` with ``M = (1 − ρ) I + ρ 1 1ᵀ``. Its
inverse and determinant are known (M's eigenvalues are 1 + (n − 1)ρ once and
1 − ρ n − 1 times), so with the data set's mean ``m_i`` and sum of squared
deviations ``SS_i``

    (x_i − δ_i 1)ᵀ M⁻¹ (x_i − δ_i 1) = SS_i / (1 − ρ) + n (m_i − δ_i)² / (1 + (n − 1)ρ)

and no n × n matrix is needed. n is each data set's own (``n_i``: a data
set with failed folds has fewer, ``min_folds`` of
:func:`nbstats.bayes_hierarchical`): its likelihood is that of its n_i
folds, with the same ρ. σ_i, uniform on (0, s_hi) as in baycomp, is
integrated out in closed form: with Q_i the quadratic form above,

    ∫₀^s_hi σ⁻ⁿ exp(−Q_i / 2σ²) dσ = ½ (Q_i / 2)^(−(n−1)/2) Γ((n − 1)/2, Q_i / 2 s_hi²),

an upper incomplete gamma function. The sampler then explores δ_i, δ0, σ0,
ν − 1 and the Gamma prior's (α, β) only: the same posterior of those as the
Stan program, with 54 fewer dimensions on the UCI data.

*Parameterisation.* A δ_i that its folds pin down is sampled as itself
(centred). The others are sampled through v_i with δ_i = δ0 + σ0 u_i and
u_i = √ν sinh(v_i / √ν): u_i is then Student-t(ν, 0, 1) exactly when v_i has
the density ``c(ν) cosh(v_i / √ν)^(−ν)`` (the t density of u_i times
du_i/dv_i = cosh(v_i / √ν)), whose tails fall as exp(−√ν |v|) instead of the
t's |u|^(−ν−1). When two algorithms hardly differ the posterior has ν near 1
and σ0 far below the folds' standard errors, so the u_i of the non-centred
data sets follow their Cauchy-like prior: sampled directly (``u_i ~ t(ν)``,
as before) NUTS needed 120–180 leapfrog steps per draw and 370 in warm-up on
j48 vs j48gr; through v_i 45–60 and 190, and 50–60 and 95 with the start
and scales below. The same posterior, fewer steps.

*Start and scales.* Each chain starts with δ0 and σ0 at robust estimates
from the data (the median of the data sets' means and the spread of those
means beyond their standard errors, see :func:`starting_point`), each
jittered by up to a factor e (σ0) or one σ0 (δ0), the other parameters at
uniform values in (−1, 1) of the unconstrained space; the warm-up starts from
a diagonal mass matrix with the expected posterior variances (δ0's from the
same estimates; a centred δ_i's: its squared standard error; 1 for the rest).
NumPyro's defaults (uniform in (−2, 2), unit mass matrix) put σ0 near half
its prior bound, 10⁴ times the posterior's, and took 500–1000 leapfrog steps
per draw for the first 150–250 warm-up draws (nbc vs aode: 83 steps per
warm-up draw on average, 20 now).

*Compilation.* The whole sampler (initial values, adaptation, draws) is one
``jax.jit`` program with the data as arguments (:func:`_runner`). Its first
call for a number of data sets and chains compiles it (seconds); later
calls of the same size in the process only sample. jax can
also keep compiled programs on disk across processes: set the environment
variable ``JAX_COMPILATION_CACHE_DIR`` to a directory before Python starts
(jax's own persistent compilation cache; its keys include the jax and
jaxlib versions, the backend and the program, so a stale entry is never
used). nbstats does not set it: writing to disk is the user's choice.
``benchmarks/bench_folds.py`` measures both.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

__all__ = ["HierarchicalData", "require_sampler", "sample_posterior"]

#: The pip requirement that installs the sampler.
EXTRA = "nbstats[hierarchical]"

#: NUTS's target acceptance rate. NumPyro's default, 0.8, left tens of
#: divergent transitions per run on a few data sets (44 and 67 on 6 UCI data
#: sets, nbc/aode/hnb, seed 2); 0.95 takes smaller steps through the funnel of a
#: small σ0: 6 and 8, for somewhat more time (``benchmarks/bench_folds.py``).
#: 0.99 was worse on one pair (steps too
#: small to mix in 1000 warm-up steps).
TARGET_ACCEPT = 0.95
#: Chains start at uniform values in (−r, r) of the unconstrained space
#: (δ0 and σ0 excepted: see :func:`starting_point`). NumPyro's default r = 2
#: left a chain stuck far from the others (nbc vs aode, 500 draws, seed 3:
#: R̂ 8.5; j48 vs j48gr, 200 draws: R̂ 3.9); the median of prior draws put
#: the hyper-parameters where the warm-up adapted badly (R̂ up to 1.15).
INIT_RADIUS = 1.0

_LOCK = threading.Lock()
_CACHE: dict[tuple[Any, ...], Any] = {}  # jitted samplers, by settings


def require_sampler() -> None:
    """Raise an ImportError naming the extra when jax or numpyro is missing."""
    try:
        import jax  # noqa: F401
        import numpyro  # noqa: F401
    except ImportError as error:
        raise ImportError(
            f"bayes_hierarchical samples the posterior with NumPyro (on jax), which "
            f"is not installed ({error}). Install the optional extra: "
            f"pip install {EXTRA}"
        ) from error


@dataclass(frozen=True)
class HierarchicalData:
    """Sufficient statistics and prior bounds, in scaled units.

    ``mean``, ``ss`` and ``n`` (the folds) are per data set (length q; ``n``
    may be one number for all); ``centered`` says which δ_i are sampled
    directly (their folds pin them down better than the spread among data
    sets) rather than as δ0 + σ0 z_i.
    """

    mean: np.ndarray
    ss: np.ndarray
    n: np.ndarray | int
    rho: float
    delta_high: float
    std0_high: float
    std_high: float
    centered: np.ndarray
    alpha_bounds: tuple[float, float] = (1.0, 2.0)
    beta_bounds: tuple[float, float] = (0.01, 0.1)


def _spread(
    mean: np.ndarray, ss: np.ndarray, n: np.ndarray | int, rho: float
) -> tuple[np.ndarray, float, float]:
    """(squared standard errors of the means, their median, the squared
    spread of the true δ among data sets).

    The spread is estimated robustly (MAD of the means, less their typical
    squared standard error), since δ_i ~ Student-t has heavy tails; 0 when
    the means differ no more than their standard errors say they would.
    """
    variance = ss / (n - 1)
    se2 = variance / (1 - rho) * (1 + (n - 1) * rho) / n
    centre = float(np.median(mean))
    mad = 1.4826 * float(np.median(np.abs(mean - centre)))
    return se2, centre, max(mad**2 - float(np.median(se2)), 0.0)


def centering(
    mean: np.ndarray, ss: np.ndarray, n: np.ndarray | int, rho: float
) -> np.ndarray:
    """Which δ_i to sample centred: those the folds pin down better than the
    spread of the true δ among data sets, and, when there is a spread, the
    outliers.

    Centred sampling suits data sets the folds pin down (an outlier far from
    the others, with δ_i − δ0 fixed by its data, would tie σ0 to v_i if
    sampled through δ0 + σ0 u_i). When the δ_i hardly differ (no spread
    beyond the standard errors, as for two near-identical algorithms) all are
    sampled non-centred: σ0 is then small and poorly determined, and the
    outliers sit in the tails of u_i, which the sinh map makes light (on j48
    vs j48gr, centring its three outliers took 60–150 leapfrog steps per draw
    depending on the chain, against 50–60 without).
    """
    se2, centre, spread2 = _spread(mean, ss, n, rho)
    outlier = np.abs(mean - centre) > 3 * np.sqrt(se2)
    return (se2 < spread2) | (outlier & (spread2 > 0))


def starting_point(data: HierarchicalData) -> np.ndarray:
    """[δ0, σ0, Var(δ0's unconstrained value)] guessed from the data.

    δ0: the median of the means; σ0: the robust spread of :func:`_spread`,
    at least a tenth of the median standard error (the posterior of σ0 on
    two near-identical algorithms lies there); the variance of δ0 is that of
    a mean of q data sets, (σ0² + median se²) / q, in NumPyro's unconstrained
    coordinate of a uniform on ±``delta_high`` (slope ``delta_high / 2`` at
    the centre).
    """
    se2, centre, spread2 = _spread(data.mean, data.ss, data.n, data.rho)
    typical = float(np.median(se2))
    std0 = math.sqrt(max(spread2, 0.01 * typical))
    variance = (std0**2 + typical) / len(data.mean)
    return np.array([centre, std0, variance * (2.0 / data.delta_high) ** 2])


def warp(v: Any, nu: Any) -> tuple[Any, Any]:
    """(u, log density of v) for u = √ν sinh(v / √ν) ~ Student-t(ν, 0, 1).

    The density of v is the t density of u times du/dv = cosh(v / √ν):
    ``Γ((ν+1)/2) / (Γ(ν/2) √(νπ)) · cosh(v / √ν)^(−ν)``.
    """
    import jax.numpy as jnp
    from jax.scipy.special import gammaln

    root = jnp.sqrt(nu)
    w = v / root
    log_cosh = jnp.logaddexp(w, -w) - jnp.log(2.0)
    log_c = gammaln((nu + 1) / 2) - gammaln(nu / 2) - 0.5 * jnp.log(nu * jnp.pi)
    return root * jnp.sinh(w), log_c - nu * log_cosh


def _model(
    mean: Any,
    ss: Any,
    centered: Any,
    n: Any,
    rho: Any,
    delta_high: Any,
    std0_high: Any,
    std_high: Any,
    alpha_bounds: Any,
    beta_bounds: Any,
) -> None:
    import jax.numpy as jnp
    import numpyro
    import numpyro.distributions as dist
    from jax.scipy.special import gammaincc

    delta0 = numpyro.sample("delta0", dist.Uniform(-delta_high, delta_high))
    std0 = numpyro.sample("std0", dist.Uniform(0.0, std0_high))
    alpha = numpyro.sample("alpha", dist.Uniform(alpha_bounds[0], alpha_bounds[1]))
    beta = numpyro.sample("beta", dist.Uniform(beta_bounds[0], beta_bounds[1]))
    nu_minus_one = numpyro.sample("nu_minus_one", dist.Gamma(alpha, beta))
    nu = numpyro.deterministic("nu", nu_minus_one + 1.0)
    with numpyro.plate("datasets", mean.shape[0]):
        # centred: δ = v ~ t(ν, δ0, σ0); otherwise δ = δ0 + σ0 u, u = warp(v)
        v = numpyro.sample("v", dist.ImproperUniform(dist.constraints.real, (), ()))
        u, log_prior_v = warp(jnp.where(centered, 0.0, v), nu)
        log_prior_delta = dist.StudentT(nu, delta0, std0).log_prob(v)
        numpyro.factor("prior", jnp.where(centered, log_prior_delta, log_prior_v))
        delta = numpyro.deterministic(
            "delta", jnp.where(centered, v, delta0 + std0 * u)
        )
        quad = ss / (1.0 - rho) + n / (1.0 + (n - 1.0) * rho) * (mean - delta) ** 2
        a = (n - 1.0) / 2.0
        # σ_i integrated out (uniform on (0, std_high)); constants dropped
        log_lik = -a * jnp.log(quad / 2.0) + jnp.log(
            gammaincc(a, quad / (2.0 * std_high**2))
        )
        numpyro.factor("log_lik", log_lik)


@dataclass(frozen=True)
class PosteriorDraws:
    """Draws (chains × draws) of the hyper-parameters and the δ_i, in scaled
    units, with the sampler's diagnostics."""

    delta0: np.ndarray
    std0: np.ndarray
    nu: np.ndarray
    delta: np.ndarray  # chains × draws × q
    divergences: int
    rhat: float
    ess: float
    rhat_delta: np.ndarray
    ess_delta: np.ndarray
    #: mean leapfrog steps (gradient evaluations) per transition, warm-up
    #: included: the sampler's cost, and a measure of the posterior's geometry
    leapfrog_steps: float = float("nan")


def sample_posterior(
    data: HierarchicalData,
    *,
    n_samples: int,
    chains: int,
    warmup: int,
    seed: np.ndarray,
    target_accept: float = TARGET_ACCEPT,
) -> PosteriorDraws:
    """NUTS draws of the posterior (``n_samples`` per chain after ``warmup``).

    The chains run one after the other, in one compiled program
    (:func:`_runner`): initialisation, adaptation and sampling, with the data
    as arguments. It is compiled on the first call of a given number of data
    sets and chains (per warm-up, draws and target acceptance) and reused by
    every later call in the process.
    """
    require_sampler()
    import jax
    import jax.numpy as jnp
    from numpyro.diagnostics import effective_sample_size, split_gelman_rubin

    q = data.mean.shape[0]
    with _LOCK, jax.enable_x64(True):
        run = _runner(warmup, n_samples, float(target_accept))
        key = jax.random.PRNGKey((int(seed[0]) << 31) | (int(seed[1]) >> 1))
        args = (
            jnp.asarray(data.mean, dtype=jnp.float64),
            jnp.asarray(data.ss, dtype=jnp.float64),
            jnp.asarray(data.centered, dtype=bool),
            # one count for all, or per data set (failed folds: each its
            # own); one number keeps the compiled program, so the draws, of
            # complete folds as they were
            jnp.asarray(data.n, dtype=jnp.float64),
            jnp.float64(data.rho),
            jnp.float64(data.delta_high),
            jnp.float64(data.std0_high),
            jnp.float64(data.std_high),
            jnp.asarray(data.alpha_bounds, dtype=jnp.float64),
            jnp.asarray(data.beta_bounds, dtype=jnp.float64),
        )
        start = jnp.asarray(starting_point(data), dtype=jnp.float64)
        samples, diverging, steps = run(jax.random.split(key, chains), args, start)
        draws = {k: np.asarray(v, dtype=float) for k, v in samples.items()}
        divergences = int(np.asarray(diverging).sum())
        leapfrog_steps = float(np.asarray(steps).mean())
    sampled = ("delta0", "std0", "alpha", "beta", "nu_minus_one", "v")
    rhats, esss = [], []
    for name in sampled:
        value = draws[name]
        if value.ndim == 2:
            value = value[..., None]
        if chains > 1:
            rhats.append(np.asarray(split_gelman_rubin(value)).ravel())
        esss.append(np.asarray(effective_sample_size(value)).ravel())
    delta = draws["delta"]
    rhat_delta = (
        np.asarray(split_gelman_rubin(delta)) if chains > 1 else np.full(q, np.nan)
    )
    ess_delta = np.asarray(effective_sample_size(delta))
    return PosteriorDraws(
        delta0=draws["delta0"],
        std0=draws["std0"],
        nu=draws["nu"],
        delta=delta,
        divergences=divergences,
        rhat=float(np.max(np.concatenate(rhats))) if rhats else float("nan"),
        ess=float(np.min(np.concatenate(esss))),
        rhat_delta=rhat_delta,
        ess_delta=ess_delta,
        leapfrog_steps=leapfrog_steps,
    )


def _init_near(site: Any = None, start: Any = None) -> Any:
    """NumPyro init strategy: δ0 and σ0 near ``start`` (jittered per chain),
    the rest uniform in (−INIT_RADIUS, INIT_RADIUS) unconstrained."""
    if site is None:
        return partial(_init_near, start=start)
    if site["type"] == "sample" and site["name"] in ("delta0", "std0"):
        import jax
        import jax.numpy as jnp

        r = jax.random.uniform(site["kwargs"]["rng_key"], (), minval=-1.0, maxval=1.0)
        if site["name"] == "std0":
            return start[1] * jnp.exp(r)
        return start[0] + start[1] * r
    from numpyro.infer.initialization import init_to_uniform

    return init_to_uniform(site, radius=INIT_RADIUS)


def _inverse_mass(z: dict, centered: Any, se2: Any, start: Any) -> Any:
    """The warm-up's first diagonal inverse mass matrix, in NumPyro's order."""
    import jax.numpy as jnp
    from jax.flatten_util import ravel_pytree

    scales = {k: jnp.ones_like(v) for k, v in z.items()}
    scales["delta0"] = scales["delta0"] * start[2]
    scales["v"] = jnp.where(centered, se2, 1.0)
    return ravel_pytree(scales)[0]


def _runner(warmup: int, n_samples: int, target_accept: float) -> Any:
    """The compiled sampler: ``run(keys, model_args, start) -> (draws,
    diverging, leapfrog steps)``.

    One ``jax.jit`` of every chain from its key to its draws: NumPyro's
    ``initialize_model`` (the start of :func:`_init_near`), its NUTS kernel
    (``hmc``: diagonal mass matrix, starting from :func:`_inverse_mass`, and
    step size adapted over the warm-up, tree depth up to 10, the defaults of
    ``numpyro.infer.NUTS``), ``warmup + n_samples`` transitions in one
    ``lax.scan``, the draws mapped back to the constrained space with the
    deterministic sites. NumPyro's ``MCMC`` re-creates its kernel on every
    ``run``, so its compiled code is never reused (each call compiled again,
    tens of seconds); here the function is kept, so jax's cache keeps one
    executable per (number of data sets, chains). Draws are ``chains ×
    n_samples``.
    """
    key = (warmup, n_samples, target_accept)
    run = _CACHE.get(key)
    if run is not None:
        return run
    import jax
    from jax import lax
    from numpyro.infer.hmc import hmc
    from numpyro.infer.util import initialize_model

    def chain(rng_key: Any, model_args: tuple, start: Any) -> Any:
        key_model, key_kernel = jax.random.split(rng_key)
        info, potential, postprocess, _ = initialize_model(
            key_model,
            _model,
            model_args=model_args,
            dynamic_args=True,
            init_strategy=_init_near(start=start),
        )
        ss, centered, n, rho = model_args[1:5]
        se2 = ss / (n - 1) / (1 - rho) * (1 + (n - 1) * rho) / n
        init_kernel, sample_kernel = hmc(potential_fn_gen=potential, algo="NUTS")
        state = init_kernel(
            info,
            num_warmup=warmup,
            target_accept_prob=target_accept,
            inverse_mass_matrix=_inverse_mass(info.z, centered, se2, start),
            model_args=model_args,
            rng_key=key_kernel,
        )

        def step(state: Any, _: Any) -> Any:
            state = sample_kernel(state, model_args=model_args)
            return state, (state.z, state.diverging, state.num_steps)

        _, (z, diverging, steps) = lax.scan(
            step, state, None, length=warmup + n_samples
        )
        kept = jax.tree.map(lambda x: x[warmup:], z)
        draws = jax.vmap(postprocess(*model_args))(kept)
        return draws, diverging[warmup:], steps

    def chains(keys: Any, model_args: tuple, start: Any) -> Any:
        # one chain after the other (lax.map): vmapping the chains traced and
        # compiled the NUTS tree builder batched, slower to compile,
        # and every step waited for the slowest chain's tree
        return lax.map(lambda k: chain(k, model_args, start), keys)

    run = jax.jit(chains)
    if len(_CACHE) >= 8:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = run
    return run
