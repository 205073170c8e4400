"""Glicko and Glicko-2 rating periods, one player at a time and in bulk.

Rules from docs/rules.md §10 and Mark E. Glickman's papers: *The Glicko system* (Glicko-1)
and *Example of the Glicko-2 system* (revised 2022). The one-player functions follow the
papers step by step, with ``# Step N.`` comments matching the papers' numbering, so a reader
can check them line by line; the bulk ``rate_period_*`` functions do the same arithmetic on
numpy arrays for a whole period and give the same numbers.

The Glicko-2 scale, the ratio of the Glicko scale to the Glicko-2 scale, is 400/ln 10
(≈ 173.7178, the figure the paper prints). The volatility function of Step 5 uses φ², the
player's rating deviation on the Glicko-2 scale — not μ², as PyPI ``glicko2`` 2.1.0 has it.

>>> p = glicko2_update(Glicko2Rating(1500, 200, 0.06),
...                    [Glicko2Rating(1400, 30), Glicko2Rating(1550, 100),
...                     Glicko2Rating(1700, 300)], [1, 0, 0])
>>> round(p.rating, 2), round(p.rd, 2)
(1464.05, 151.52)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, NewType

import numpy as np
import numpy.typing as npt

from xlgrade._arrays import FloatArray, per_player, period_arrays
from xlgrade._rounding import finite, finite_sequence, quote
from xlgrade.errors import GradeError, SettingError

__all__ = [
    "DEFAULT_C",
    "DEFAULT_RATING",
    "DEFAULT_RD",
    "DEFAULT_TAU",
    "DEFAULT_VOLATILITY",
    "EPSILON",
    "GLICKO2_SCALE",
    "MAX_RD",
    "Glicko2Period",
    "Glicko2Rating",
    "Glicko2Update",
    "GlickoPeriod",
    "GlickoRating",
    "GlickoUpdate",
    "Mu",
    "Phi",
    "Q",
    "glicko2_idle",
    "glicko2_update",
    "glicko_onset_rd",
    "glicko_update",
    "rate_period_glicko",
    "rate_period_glicko2",
]

Mu = NewType("Mu", float)
"""A rating on the Glicko-2 scale: μ = (r − 1500)/173.7178."""
Phi = NewType("Phi", float)
"""A rating deviation on the Glicko-2 scale: φ = RD/173.7178."""

Q: Final = math.log(10) / 400
"""Glicko paper: "q = ln 10 / 400 = 0.0057565"."""
MAX_RD: Final = 350.0
"""Glicko paper, Step 1: RD = min(√(RD_old² + c²t), 350); 350 is an unrated player's RD."""
DEFAULT_RATING: Final = 1500.0
"""Glicko and Glicko-2 papers: an unrated player starts at 1500."""
DEFAULT_RD: Final = 350.0
"""Glicko and Glicko-2 papers: an unrated player's RD is 350."""
DEFAULT_C: Final = math.sqrt((350.0**2 - 50.0**2) / 100.0)
"""Glicko paper's example for the constant c: if a typical RD of 50 should grow back to 350
in 100 rating periods, c = √((350² − 50²)/100) ≈ 34.6. A setting: choose c for your periods."""
GLICKO2_SCALE: Final = 400 / math.log(10)
"""Glicko-2 paper, Step 2: μ = (r − 1500)/173.7178 and φ = RD/173.7178; 173.7178 = 400/ln 10."""
DEFAULT_VOLATILITY: Final = 0.06
"""Glicko-2 paper, Step 1: an unrated player's volatility is 0.06."""
DEFAULT_TAU: Final = 0.5
"""Glicko-2 paper, Step 1: the system constant τ; "τ = 0.5" in the example (0.3 to 1.2 are
reasonable)."""
EPSILON: Final = 1e-6
"""Glicko-2 paper, Step 5: the convergence tolerance, "ε = 0.000001"."""
SMALLEST_TAU: Final = 1e-12
"""The smallest τ taken (docs/rules.md §10, a decision): step 5.2 steps from a = ln σ² by
k·τ, and a τ under the spacing of floats near the largest |a| (about 1,490, spacing 2.3e-13)
would never move it, so the search would not end."""


def _expected_pair(power: float, base: float) -> tuple[float, float]:
    """E = 1/(1 + base^(−power)) and its complement 1 − E = 1/(1 + base^power), each worked
    out on its own so that neither is lost to rounding at a wide rating gap (where E rounds to
    1 and 1 − E, taken as a difference, would be 0). A power beyond the largest float counts
    as infinite: its share is 0."""

    def share(x: float) -> float:
        try:
            return 1.0 / (1.0 + math.pow(base, x))
        except OverflowError:
            return 0.0

    return share(-power), share(power)


def _expected_pairs(power: FloatArray, exp: bool) -> tuple[FloatArray, FloatArray]:
    """:func:`_expected_pair` for whole columns (base e with ``exp``, else 10)."""
    with np.errstate(over="ignore"):
        if exp:
            return 1.0 / (1.0 + np.exp(-power)), 1.0 / (1.0 + np.exp(power))
        return 1.0 / (1.0 + 10.0 ** (-power)), 1.0 / (1.0 + 10.0**power)


def _surprise(score: float | FloatArray, e: float | FloatArray, ec: float | FloatArray) -> Any:
    """score − E, worked out as score·(1 − E) − (1 − score)·E so that a win at a wide gap keeps
    its tiny 1 − E instead of rounding to 0."""
    return score * ec - (1.0 - score) * e


# --------------------------------------------------------------------------- Glicko-1


@dataclass(frozen=True)
class GlickoRating:
    """A Glicko rating: ``rating`` r and rating deviation ``rd`` (RD), on the Glicko scale."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD


@dataclass(frozen=True)
class GlickoUpdate:
    """A player's Glicko rating after a rating period, with the paper's intermediate values.

    Attributes:
        rating: r′, the new rating.
        rd: RD′, the new rating deviation.
        onset_rd: RD at the onset of the period (Step 1).
        d2: d², the estimated variance of the rating from the games alone (``inf`` with
            no games).
        g: g(RD_j) for each opponent.
        expected: E(s | r, r_j, RD_j) for each game.
    """

    rating: float
    rd: float
    onset_rd: float
    d2: float
    g: tuple[float, ...]
    expected: tuple[float, ...]


def glicko_onset_rd(rd: float, t: float = 1, *, c: float = DEFAULT_C) -> float:
    """Glicko Step 1: RD at the onset of a period, t periods after the player's last games.

    Glicko paper: "RD = min(√(RD_old² + c²t), 350)" where "t is the number of rating periods
    since last competition". ``t = 0`` leaves an RD of 350 or less as it is; the cap still
    applies, so a larger RD comes back as 350.

    Raises:
        GradeError: ``rd`` or ``t`` is not a finite number, or is negative.
        SettingError: ``c`` is negative.
    """
    r = finite(rd, "RD")
    periods = finite(t, "rating periods")
    if r < 0 or periods < 0:
        raise GradeError(f"RD {quote(rd)} and periods {quote(t)} must not be negative")
    if finite(c, "c") < 0:
        raise SettingError(f"Glicko constant c {quote(c)} must not be negative")
    return min(math.sqrt(r * r + c * c * periods), MAX_RD)


def _glicko_g(rd: float) -> float:
    """Glicko paper: g(RD) = 1/√(1 + 3q²RD²/π²)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * Q * Q * rd * rd / (math.pi * math.pi))


def _opponent(rating: float, rd: float, position: int) -> tuple[float, float]:
    """An opponent's rating and RD, checked as the bulk forms check every player's."""
    r = finite(rating, "opponent rating", position=position)
    d = finite(rd, "opponent RD", position=position)
    if d <= 0:
        raise GradeError(f"opponent RD {quote(rd)} at position {position} must be positive")
    return r, d


def _pairs(opponents: Sequence[object], scores: Sequence[float]) -> list[float]:
    points = finite_sequence(scores, "score")
    if len(opponents) != len(points):
        raise GradeError(f"{quote(len(opponents))} opponents but {quote(len(points))} scores")
    for s in points:
        if not 0.0 <= s <= 1.0:
            raise GradeError(f"score {quote(s)} is not between 0 and 1")
    return points


def glicko_update(
    player: GlickoRating,
    opponents: Sequence[GlickoRating],
    scores: Sequence[float],
    *,
    t: float = 0,
    c: float = DEFAULT_C,
) -> GlickoUpdate:
    """Glicko-1: a player's rating and RD after one rating period.

    Glickman, *The Glicko system*, Steps 1 and 2. ``t`` is the number of periods since
    ``player.rd`` was last set; the default 0 takes ``player.rd`` as the RD at the onset of
    the period, as the paper's example does ("the player's RD at the onset is 200"). With no
    games only Step 1 applies. Opponents' RDs are used as given. Every RD, the player's and
    the opponents', must be positive, as :func:`rate_period_glicko` requires.

    Example (the paper): 1500/200 beating 1400/30 and losing to 1550/100 and 1700/300 →
    r′ = 1464, RD′ = 151.4.

    Raises:
        GradeError: opponents and scores do not pair up, an RD is not positive, or a value is
            out of range.
        SettingError: ``c`` is negative.
    """
    # Step 1. Rating deviation at the onset of the period.
    if finite(player.rd, "RD") <= 0:
        raise GradeError(f"RD {quote(player.rd)} must be positive")
    rd = glicko_onset_rd(player.rd, t, c=c)
    if rd * rd == 0:  # 1 / RD² is the player's precision
        raise GradeError(f"RD {quote(player.rd)} is too small: its square is 0 to a float")
    r = finite(player.rating, "rating")
    points = _pairs(opponents, scores)
    if not opponents:
        return GlickoUpdate(r, rd, rd, math.inf, (), ())
    # Step 2. New rating and RD from the period's games.
    others = [_opponent(o.rating, o.rd, i) for i, o in enumerate(opponents)]
    g = tuple(_glicko_g(od) for _, od in others)
    pairs = [
        _expected_pair(gj * (r - orating) / 400.0, 10.0)
        for gj, (orating, _) in zip(g, others, strict=True)
    ]
    expected = tuple(e for e, _ in pairs)
    information = math.fsum(gj * gj * e * ec for gj, (e, ec) in zip(g, pairs, strict=True))
    # 1/d² = q² Σ g² E (1 − E): 0 when every expected score is 0 or 1 to the last bit (a gap of
    # over about 120,000 points); d² is then infinite and the games move the rating only by
    # the paper's formula with 1/d² = 0, RD unchanged.
    inverse_d2 = Q * Q * information
    d2 = 1.0 / inverse_d2 if inverse_d2 > 0 else math.inf
    precision = 1.0 / (rd * rd) + inverse_d2
    total = math.fsum(
        gj * _surprise(s, e, ec) for gj, s, (e, ec) in zip(g, points, pairs, strict=True)
    )
    return GlickoUpdate(
        rating=r + Q / precision * total,
        rd=math.sqrt(1.0 / precision),
        onset_rd=rd,
        d2=d2,
        g=g,
        expected=expected,
    )


# --------------------------------------------------------------------------- Glicko-2


@dataclass(frozen=True)
class Glicko2Rating:
    """A Glicko-2 rating on the Glicko scale: rating r, deviation RD and volatility σ."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True)
class Glicko2Update:
    """A player's Glicko-2 rating after a rating period, with the paper's intermediate values.

    Attributes:
        rating: r′ = 173.7178 μ′ + 1500 (Step 8).
        rd: RD′ = 173.7178 φ′ (Step 8).
        volatility: σ′ (Step 5).
        mu: μ′ on the Glicko-2 scale (Step 7).
        phi: φ′ on the Glicko-2 scale (Step 7).
        phi_star: φ* = √(φ² + σ′²), the pre-period deviation (Step 6).
        v: the estimated variance from the games alone (Step 3; ``inf`` with no games).
        delta: Δ, the estimated improvement (Step 4; 0 with no games).
        g: g(φ_j) for each opponent.
        expected: E(μ, μ_j, φ_j) for each game.
    """

    rating: float
    rd: float
    volatility: float
    mu: Mu
    phi: Phi
    phi_star: Phi
    v: float
    delta: float
    g: tuple[float, ...]
    expected: tuple[float, ...]


_TOO_FAR: Final = (
    "{who} is so far from every opponent's that each expected score is 0 or 1 to the last "
    "bit (a gap of over about 120,000 points): Glicko-2's variance v is beyond a float, so the "
    "period cannot be rated"
)


def _glicko2_g(phi: float) -> float:
    """Glicko-2 paper: g(φ) = 1/√(1 + 3φ²/π²)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _check_tau(tau: float) -> float:
    value = finite(tau, "tau")
    if value <= 0:
        raise SettingError(f"Glicko-2 system constant tau {quote(tau)} must be positive")
    if value < SMALLEST_TAU:  # step 5 divides by τ² and steps by τ
        raise SettingError(
            f"Glicko-2 system constant tau {quote(tau)} is too small (at least "
            f"{SMALLEST_TAU:g}; the paper calls 0.3 to 1.2 reasonable)"
        )
    return value


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Glicko-2 Step 5: σ′ by the Illinois algorithm (2022 revision of step 5.4(b))."""
    # Step 5.1. a = ln(σ²) and f(x); a is worked out as 2 ln σ, equal to ln(σ²) but finite
    # for a σ so small that σ² underflows to 0.
    a = 2.0 * math.log(sigma)
    phi2, delta2 = phi * phi, delta * delta

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    # Step 5.2. Initial values of the iteration.
    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    # Step 5.3. f(A) and f(B).
    f_a, f_b = f(big_a), f(big_b)
    # Step 5.4. Iterate while |B − A| > ε.
    while abs(big_b - big_a) > EPSILON:
        # (a) C = A + (A − B) f_A / (f_B − f_A); f_C = f(C).
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        # (b) 2022 revision: "If f_C f_B ≤ 0" (the earlier text had < 0).
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        # (c) B ← C, f_B ← f_C.
        big_b, f_b = big_c, f_c
    # Step 5.5. σ′ = e^{A/2}.
    return math.exp(big_a / 2.0)


def glicko2_update(
    player: Glicko2Rating,
    opponents: Sequence[Glicko2Rating],
    scores: Sequence[float],
    *,
    tau: float = DEFAULT_TAU,
) -> Glicko2Update:
    """Glicko-2: a player's rating, RD and volatility after one rating period.

    Glickman, *Example of the Glicko-2 system* (2022), Steps 1–8; the opponents' volatilities
    are not used. A player with no games keeps μ and σ and gets φ′ = √(φ² + σ²) (the paper:
    "the player's rating and volatility parameters remain the same, but the RD increases").
    Every RD, the player's and the opponents', must be positive, as
    :func:`rate_period_glicko2` requires.

    Example (the paper): 1500/200/0.06 beating 1400/30, losing to 1550/100 and 1700/300,
    τ = 0.5. The paper prints v = 1.7785, Δ = −0.4834, σ′ = 0.05999, r′ = 1464.06 and
    RD′ = 151.52, working from intermediate values rounded as it prints them (g to four
    places, E to three, μ′ = −0.2069). This function keeps full precision throughout and
    gives v = 1.7790, Δ = −0.4839, σ′ = 0.05999598, r′ = 1464.05 and RD′ = 151.52, the
    r′ the module's example shows.

    Raises:
        GradeError: opponents and scores do not pair up, an RD or the volatility is not
            positive, or a value is out of range.
        SettingError: ``tau`` is not positive.
    """
    # Step 1. τ, and the player's r, RD, σ (1500, 350, 0.06 for an unrated player).
    tau_ = _check_tau(tau)
    sigma = finite(player.volatility, "volatility")
    if sigma <= 0 or finite(player.rd, "RD") <= 0:
        raise GradeError(
            f"RD {quote(player.rd)} and volatility {quote(player.volatility)} must be positive"
        )
    points = _pairs(opponents, scores)
    # Step 2. Convert to the Glicko-2 scale.
    mu = (finite(player.rating, "rating") - DEFAULT_RATING) / GLICKO2_SCALE
    phi = player.rd / GLICKO2_SCALE
    if not opponents:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Glicko2Update(
            rating=player.rating,
            rd=phi_star * GLICKO2_SCALE,
            volatility=sigma,
            mu=Mu(mu),
            phi=Phi(phi_star),
            phi_star=Phi(phi_star),
            v=math.inf,
            delta=0.0,
            g=(),
            expected=(),
        )
    others = [_opponent(o.rating, o.rd, i) for i, o in enumerate(opponents)]
    mus = [(orating - DEFAULT_RATING) / GLICKO2_SCALE for orating, _ in others]
    phis = [od / GLICKO2_SCALE for _, od in others]
    # Step 3. v, the estimated variance of the rating from the games alone.
    g = tuple(_glicko2_g(p) for p in phis)
    pairs = [_expected_pair(gj * (mu - mj), math.e) for gj, mj in zip(g, mus, strict=True)]
    expected = tuple(e for e, _ in pairs)
    information = math.fsum(gj * gj * e * ec for gj, (e, ec) in zip(g, pairs, strict=True))
    v = 1.0 / information if information > 0 else math.inf
    if not math.isfinite(v):
        raise GradeError(_TOO_FAR.format(who=f"rating {quote(player.rating)}"))
    # Step 4. Δ, the estimated improvement.
    total = math.fsum(
        gj * _surprise(s, e, ec) for gj, s, (e, ec) in zip(g, points, pairs, strict=True)
    )
    delta = v * total
    reach = delta * delta + v
    if not math.isfinite(reach * reach):  # step 5 squares e^x + φ² + v, e^x up to Δ²
        raise GradeError(_TOO_FAR.format(who=f"rating {quote(player.rating)}"))
    # Step 5. The new volatility σ′.
    new_sigma = _new_volatility(sigma, phi, v, delta, tau_)
    # Step 6. The pre-rating-period value φ*.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    # Step 7. The new φ′ and μ′.
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    # Step 8. Back to the Glicko scale.
    return Glicko2Update(
        rating=GLICKO2_SCALE * new_mu + DEFAULT_RATING,
        rd=GLICKO2_SCALE * new_phi,
        volatility=new_sigma,
        mu=Mu(new_mu),
        phi=Phi(new_phi),
        phi_star=Phi(phi_star),
        v=v,
        delta=delta,
        g=g,
        expected=expected,
    )


def glicko2_idle(player: Glicko2Rating, periods: int = 1) -> Glicko2Rating:
    """Glicko-2 for a player who does not play for ``periods`` rating periods.

    Glicko-2 paper: "If the player does not compete during the rating period, then this step
    [6] is the only one that applies … φ′ = φ* = √(φ² + σ²)"; μ and σ stay. Applied once a
    period, so after t idle periods φ′ = √(φ² + tσ²). No cap: the paper gives none.

    Raises:
        GradeError: ``periods`` is negative, a value is not a finite number, or the RD or the
            volatility is not positive (as :func:`glicko2_update` requires).
    """
    if isinstance(periods, bool) or not isinstance(periods, int) or periods < 0:
        raise GradeError(f"idle periods {quote(periods)} must be a whole number, 0 or more")
    finite(player.rating, "rating")
    rd = finite(player.rd, "RD")
    sigma = finite(player.volatility, "volatility")
    if sigma <= 0 or rd <= 0:
        raise GradeError(
            f"RD {quote(player.rd)} and volatility {quote(player.volatility)} must be positive"
        )
    phi = rd / GLICKO2_SCALE
    new_phi = math.sqrt(phi * phi + periods * sigma * sigma)
    return Glicko2Rating(player.rating, new_phi * GLICKO2_SCALE, sigma)


# --------------------------------------------------------------------------- bulk periods


@dataclass(frozen=True)
class GlickoPeriod:
    """Results of :func:`rate_period_glicko`, one entry per player.

    Attributes:
        rating: r′ (unchanged for a player without games).
        rd: RD′ (the onset RD for a player without games).
        onset_rd: RD at the onset of the period (Step 1).
    """

    rating: FloatArray
    rd: FloatArray
    onset_rd: FloatArray


@dataclass(frozen=True)
class Glicko2Period:
    """Results of :func:`rate_period_glicko2`, one entry per player.

    Attributes:
        rating: r′. rd: RD′. volatility: σ′.
        v: Step 3's v (``inf`` for a player without games).
        delta: Step 4's Δ (0 for a player without games).
    """

    rating: FloatArray
    rd: FloatArray
    volatility: FloatArray
    v: FloatArray
    delta: FloatArray


def _positive_array(values: npt.ArrayLike, argument: str, what: str, size: int) -> FloatArray:
    """One positive value, or one per player, as ``size`` floats (``argument``: its name)."""
    arr = per_player(values, argument, size)
    if not bool(np.all(np.isfinite(arr) & (arr > 0))):
        raise GradeError(f"every {what} must be a positive finite number")
    return arr


def rate_period_glicko(
    ratings: npt.ArrayLike,
    rds: npt.ArrayLike,
    white: npt.ArrayLike,
    black: npt.ArrayLike,
    score: npt.ArrayLike,
    *,
    t: npt.ArrayLike = 0,
    c: float = DEFAULT_C,
) -> GlickoPeriod:
    """Glicko-1 for a whole rating period at once: the bulk form of :func:`glicko_update`.

    Game ``i`` is between players ``white[i]`` and ``black[i]`` (indices into ``ratings``),
    white scoring ``score[i]``. Step 1 is applied to every player first (``t``: periods since
    each player's RD was set, one value or one per player); every game then uses the onset
    RDs. Player by player the numbers equal :func:`glicko_update` given the opponents' onset
    RDs.

    Raises:
        GradeError: arrays of the wrong shape (``rds`` or ``t`` neither one value nor one per
            player) or with values out of range; the message names the argument, and the
            position and value where it can.
        SettingError: ``c`` is negative.
    """
    r, w, b, s = period_arrays(ratings, white, black, score)
    n = r.size
    rd_old = _positive_array(rds, "rds", "RD", n)
    periods = per_player(t, "t", n)
    if not bool(np.all(np.isfinite(periods) & (periods >= 0))):
        raise GradeError("every t (rating periods) must be 0 or more")
    if finite(c, "c") < 0:
        raise SettingError(f"Glicko constant c {quote(c)} must not be negative")
    # Step 1.
    rd = np.minimum(np.sqrt(rd_old * rd_old + c * c * periods), MAX_RD)
    # Step 2.
    g = 1.0 / np.sqrt(1.0 + 3.0 * Q * Q * rd * rd / (math.pi * math.pi))
    gw, gb = g[b], g[w]  # g of white's opponent, g of black's opponent
    ew, ewc = _expected_pairs(gw * (r[w] - r[b]) / 400.0, exp=False)
    eb, ebc = _expected_pairs(gb * (r[b] - r[w]) / 400.0, exp=False)
    info = np.bincount(w, gw * gw * ew * ewc, n) + np.bincount(b, gb * gb * eb * ebc, n)
    total = np.bincount(w, gw * _surprise(s, ew, ewc), n) + np.bincount(
        b, gb * _surprise(1.0 - s, eb, ebc), n
    )
    # As glicko_update: a player with games and no information (1/d² = 0) is rated by the
    # formula with 1/d² = 0; a player without games keeps his rating and the onset RD.
    played = (np.bincount(w, minlength=n) + np.bincount(b, minlength=n)) > 0
    inv_d2 = Q * Q * info
    precision = 1.0 / (rd * rd) + inv_d2
    new_r = np.where(played, r + Q / precision * total, r)
    new_rd = np.where(played, np.sqrt(1.0 / precision), rd)
    return GlickoPeriod(new_r.astype(np.float64), new_rd.astype(np.float64), rd)


def _illinois(
    sigma: FloatArray, phi2: FloatArray, v: FloatArray, delta: FloatArray, tau: float
) -> FloatArray:
    """Glicko-2 Step 5 for many players at once (same steps as :func:`_new_volatility`)."""
    a = 2.0 * np.log(sigma)  # ln(σ²), finite even where σ² underflows to 0
    delta2 = delta * delta
    tau2 = tau * tau

    def f(x: FloatArray, i: npt.NDArray[np.intp]) -> FloatArray:
        ex = np.exp(x)
        out: FloatArray = (
            ex * (delta2[i] - phi2[i] - v[i] - ex) / (2.0 * (phi2[i] + v[i] + ex) ** 2)
            - (x - a[i]) / tau2
        )
        return out

    everyone = np.arange(a.size)
    # Step 5.2.
    big_a = a.copy()
    big_b = np.empty_like(a)
    above = delta2 > phi2 + v
    big_b[above] = np.log(delta2[above] - phi2[above] - v[above])
    rest = np.flatnonzero(~above)
    k = 1
    while rest.size:
        x = a[rest] - k * tau
        negative = f(x, rest) < 0
        big_b[rest[~negative]] = x[~negative]
        rest = rest[negative]
        k += 1
    # Step 5.3.
    f_a = f(big_a, everyone)
    f_b = f(big_b, everyone)
    # Step 5.4, for the players not yet converged.
    i = np.flatnonzero(np.abs(big_b - big_a) > EPSILON)
    while i.size:
        ai, bi, fai, fbi = big_a[i], big_b[i], f_a[i], f_b[i]
        ci = ai + (ai - bi) * fai / (fbi - fai)
        fci = f(ci, i)
        swap = fci * fbi <= 0
        big_a[i] = np.where(swap, bi, ai)
        f_a[i] = np.where(swap, fbi, fai / 2.0)
        big_b[i] = ci
        f_b[i] = fci
        i = i[np.abs(ci - big_a[i]) > EPSILON]
    # Step 5.5.
    out: FloatArray = np.exp(big_a / 2.0)
    return out


def rate_period_glicko2(
    ratings: npt.ArrayLike,
    rds: npt.ArrayLike,
    volatilities: npt.ArrayLike,
    white: npt.ArrayLike,
    black: npt.ArrayLike,
    score: npt.ArrayLike,
    *,
    tau: float = DEFAULT_TAU,
) -> Glicko2Period:
    """Glicko-2 for a whole rating period at once: the bulk form of :func:`glicko2_update`.

    Game ``i`` is between players ``white[i]`` and ``black[i]`` (indices into ``ratings``),
    white scoring ``score[i]``. Every game uses the ratings at the start of the period, as the
    paper does; a player without games gets φ′ = √(φ² + σ²). Player by player the numbers
    equal :func:`glicko2_update` (to rounding in the last bits of a float).

    Raises:
        GradeError: arrays of the wrong shape (``rds`` or ``volatilities`` neither one value nor
            one per player) or with values out of range; the message names the argument, and
            the position and value where it can.
        SettingError: ``tau`` is not positive.
    """
    tau_ = _check_tau(tau)
    r, w, b, s = period_arrays(ratings, white, black, score)
    n = r.size
    sigma = _positive_array(volatilities, "volatilities", "volatility", n)
    # Step 2.
    mu = (r - DEFAULT_RATING) / GLICKO2_SCALE
    phi = _positive_array(rds, "rds", "RD", n) / GLICKO2_SCALE
    # Step 3.
    g = 1.0 / np.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))
    gw, gb = g[b], g[w]  # g of white's opponent, g of black's opponent
    ew, ewc = _expected_pairs(gw * (mu[w] - mu[b]), exp=True)
    eb, ebc = _expected_pairs(gb * (mu[b] - mu[w]), exp=True)
    info = np.bincount(w, gw * gw * ew * ewc, n) + np.bincount(b, gb * gb * eb * ebc, n)
    # Step 4.
    total = np.bincount(w, gw * _surprise(s, ew, ewc), n) + np.bincount(
        b, gb * _surprise(1.0 - s, eb, ebc), n
    )
    games = np.bincount(w, minlength=n) + np.bincount(b, minlength=n)
    played = np.flatnonzero(games > 0)
    v = np.full(n, np.inf)
    with np.errstate(divide="ignore", over="ignore"):
        v[played] = 1.0 / info[played]
    lost = played[~np.isfinite(v[played])]
    if lost.size:
        i = int(lost[0])
        raise GradeError(_TOO_FAR.format(who=f"player {i}'s rating {quote(float(r[i]))}"))
    delta = np.zeros(n)
    delta[played] = v[played] * total[played]
    # Step 5.
    new_sigma = sigma.copy()
    phi2 = phi * phi
    new_sigma[played] = _illinois(sigma[played], phi2[played], v[played], delta[played], tau_)
    # Step 6.
    phi_star = np.sqrt(phi2 + new_sigma * new_sigma)
    # Step 7.
    new_phi = phi_star.copy()
    new_phi[played] = 1.0 / np.sqrt(1.0 / (phi_star[played] ** 2) + 1.0 / v[played])
    new_mu = mu + new_phi * new_phi * np.where(games > 0, total, 0.0)
    # Step 8.
    return Glicko2Period(
        rating=GLICKO2_SCALE * new_mu + DEFAULT_RATING,
        rd=GLICKO2_SCALE * new_phi,
        volatility=new_sigma,
        v=v,
        delta=delta,
    )
