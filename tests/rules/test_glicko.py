"""Glicko and Glicko-2 (docs/rules.md §10), against Glickman's worked examples.

Reference values: Glickman, *The Glicko system* (example: 1500/200 against 1400/30 win,
1550/100 loss, 1700/300 loss) and *Example of the Glicko-2 system* (the same games, σ = 0.06,
τ = 0.5). The papers print intermediate values computed from rounded ones (g to four places,
E to three), so intermediates are checked to the precision the rounding allows, and results
to the precision the papers and docs/rules.md §10 print.

Glicko and Glicko-2 (docs/rules.md §10): every refusal.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlgrade.errors import GradeError, SettingError
from xlgrade.glicko import (
    DEFAULT_C,
    GLICKO2_SCALE,
    Glicko2Rating,
    GlickoRating,
    glicko2_idle,
    glicko2_update,
    glicko_onset_rd,
    glicko_update,
    rate_period_glicko,
    rate_period_glicko2,
)

OPPONENTS = [(1400, 30), (1550, 100), (1700, 300)]
SCORES = [1, 0, 0]
PAPER_G = [0.9955, 0.9531, 0.7242]
PAPER_E = [0.639, 0.432, 0.303]


# --------------------------------------------------------------------------- Glicko-1


def test_glicko_paper_example() -> None:
    """Glicko paper: g = 0.9955, 0.9531, 0.7242; E = 0.639, 0.432, 0.303; d² = 231.67²;
    r′ = 1464, RD′ = 151.4 (exact arithmetic: 1464.11 / 151.40, docs/rules.md §10)."""
    result = glicko_update(
        GlickoRating(1500, 200), [GlickoRating(r, rd) for r, rd in OPPONENTS], SCORES
    )
    assert result.g == pytest.approx(PAPER_G, abs=5e-5)
    assert result.expected == pytest.approx(PAPER_E, abs=5e-4)
    # 231.67 comes from the rounded g and E; they move d by a few hundredths.
    assert math.sqrt(result.d2) == pytest.approx(231.67, abs=0.05)
    assert result.onset_rd == 200
    assert round(result.rating) == 1464
    assert round(result.rd, 1) == 151.4
    assert round(result.rating, 2) == 1464.11
    assert round(result.rd, 2) == 151.40


def test_glicko_step_1_rd_growth() -> None:
    """Glicko paper, Step 1: RD = min(√(RD_old² + c²t), 350)."""
    assert glicko_onset_rd(50, 0) == 50
    assert glicko_onset_rd(50, 1, c=30) == pytest.approx(math.sqrt(50**2 + 30**2))
    assert glicko_onset_rd(50, 100) == pytest.approx(350)  # the paper's c ≈ 34.6: 100 periods
    assert glicko_onset_rd(300, 50, c=30) == 350
    assert pytest.approx(34.6, abs=0.05) == DEFAULT_C


def test_glicko_player_without_games_only_gains_rd() -> None:
    result = glicko_update(GlickoRating(1700, 80), [], [], t=2, c=30)
    assert result.rating == 1700
    assert result.rd == pytest.approx(math.sqrt(80**2 + 2 * 30**2))


def test_glicko_refuses_bad_input() -> None:
    with pytest.raises(GradeError, match="1 opponents but 2 scores"):
        glicko_update(GlickoRating(), [GlickoRating()], [1, 0])
    with pytest.raises(SettingError, match="-1"):
        glicko_onset_rd(50, 1, c=-1)


# --------------------------------------------------------------------------- Glicko-2


def test_glicko2_paper_example_every_field() -> None:
    """Glicko-2 paper: μ = 0, φ = 1.1513; g(φ_j) = 0.9955, 0.9531, 0.7242; E = 0.639, 0.432,
    0.303; v = 1.7785; Δ = −0.4834; σ′ = 0.05999; φ* = 1.152862; φ′ = 0.8722; μ′ = −0.2069;
    r′ = 1464.06 (1464.05 unrounded, docs/rules.md §10); RD′ = 151.52; σ′ = 0.05999598."""
    result = glicko2_update(
        Glicko2Rating(1500, 200, 0.06),
        [Glicko2Rating(r, rd) for r, rd in OPPONENTS],
        SCORES,
        tau=0.5,
    )
    assert result.g == pytest.approx(PAPER_G, abs=5e-5)
    assert result.expected == pytest.approx(PAPER_E, abs=5e-4)
    # The paper's v and Δ come from g and E rounded as printed above.
    assert result.v == pytest.approx(1.7785, abs=1e-3)
    assert result.delta == pytest.approx(-0.4834, abs=1e-3)
    assert math.floor(result.volatility * 1e5) == 5999  # the paper prints 0.05999, cut short
    assert round(result.volatility, 8) == 0.05999598
    assert result.phi_star == pytest.approx(1.152862, abs=1e-5)  # paper's from φ = 1.1513
    assert round(result.phi, 4) == 0.8722
    assert round(result.mu, 4) == -0.2069
    assert round(result.rating, 2) == 1464.05
    assert round(result.rd, 2) == 151.52
    assert round(GLICKO2_SCALE * round(result.mu, 4) + 1500, 2) == 1464.06  # the paper's figure


def test_glicko2_scale_is_400_over_ln_10() -> None:
    assert pytest.approx(173.7178, abs=5e-5) == GLICKO2_SCALE


def test_glicko2_paper_values_from_the_printed_g_and_e() -> None:
    """The paper's v = 1.7785 and Δ = −0.4834 follow from its rounded g and E."""
    info = sum(g * g * e * (1 - e) for g, e in zip(PAPER_G, PAPER_E, strict=True))
    v = 1 / info
    assert round(v, 4) == 1.7785
    assert (
        round(v * sum(g * (s - e) for g, s, e in zip(PAPER_G, SCORES, PAPER_E, strict=True)), 4)
        == -0.4834
    )


def test_glicko2_player_without_games() -> None:
    """Glicko-2 paper: "φ′ = φ* = √(φ² + σ²)"; μ and σ stay."""
    result = glicko2_update(Glicko2Rating(1600, 100, 0.06), [], [])
    assert result.rating == 1600
    assert result.volatility == 0.06
    assert result.rd == pytest.approx(GLICKO2_SCALE * math.hypot(100 / GLICKO2_SCALE, 0.06))


@given(
    st.floats(min_value=800, max_value=2800),
    st.floats(min_value=30, max_value=350),
    st.floats(min_value=0.01, max_value=0.2),
    st.integers(min_value=0, max_value=20),
)
def test_glicko2_idle_player_keeps_mu_and_gains_phi(
    rating: float, rd: float, sigma: float, periods: int
) -> None:
    after = glicko2_idle(Glicko2Rating(rating, rd, sigma), periods)
    assert after.rating == rating
    assert after.volatility == sigma
    phi, new_phi = rd / GLICKO2_SCALE, after.rd / GLICKO2_SCALE
    assert new_phi == pytest.approx(math.sqrt(phi * phi + periods * sigma * sigma))
    assert new_phi >= phi
    once = glicko2_update(Glicko2Rating(rating, rd, sigma), [], [])
    assert once.mu == pytest.approx((rating - 1500) / GLICKO2_SCALE)
    assert once.phi == pytest.approx(math.sqrt(phi * phi + sigma * sigma))


def test_glicko2_refuses_bad_settings() -> None:
    with pytest.raises(SettingError, match="0"):
        glicko2_update(Glicko2Rating(), [Glicko2Rating()], [1], tau=0)
    with pytest.raises(GradeError, match=r"-0\.06"):
        glicko2_update(Glicko2Rating(1500, 200, -0.06), [Glicko2Rating()], [1])


def test_glicko2_large_delta_takes_the_log_branch() -> None:
    """Step 5.2 with Δ² > φ² + v: a low-rated, certain player beats many strong ones."""
    result = glicko2_update(Glicko2Rating(1200, 50, 0.06), [Glicko2Rating(2200, 30)] * 20, [1] * 20)
    assert result.delta**2 > (50 / GLICKO2_SCALE) ** 2 + result.v
    assert result.volatility > 0.06
    assert result.rating > 1200


# --------------------------------------------------------------------------- bulk


def _random_period(seed: int, players: int = 60, games: int = 500):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    ratings = rng.normal(1500, 300, players)
    rds = rng.uniform(30, 350, players)
    sigmas = rng.uniform(0.03, 0.09, players)
    white = rng.integers(0, players - 5, games)  # the last five players do not play
    black = (white + rng.integers(1, players - 5, games)) % (players - 5)
    score = rng.choice([0.0, 0.5, 1.0], games)
    return ratings, rds, sigmas, white, black, score


def _games_of(p: int, white, black, score):  # type: ignore[no-untyped-def]
    opponents = [int(b) for w, b in zip(white, black, strict=True) if w == p]
    opponents += [int(w) for w, b in zip(white, black, strict=True) if b == p]
    points = [float(s) for w, s in zip(white, score, strict=True) if w == p]
    points += [1 - float(s) for b, s in zip(black, score, strict=True) if b == p]
    return opponents, points


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bulk_glicko2_agrees_with_one_player_function(seed: int) -> None:
    ratings, rds, sigmas, white, black, score = _random_period(seed)
    period = rate_period_glicko2(ratings, rds, sigmas, white, black, score, tau=0.5)
    for p in range(ratings.size):
        opponents, points = _games_of(p, white, black, score)
        one = glicko2_update(
            Glicko2Rating(ratings[p], rds[p], sigmas[p]),
            [Glicko2Rating(ratings[o], rds[o], sigmas[o]) for o in opponents],
            points,
            tau=0.5,
        )
        assert period.rating[p] == pytest.approx(one.rating, rel=1e-9)
        assert period.rd[p] == pytest.approx(one.rd, rel=1e-9)
        assert period.volatility[p] == pytest.approx(one.volatility, rel=1e-9)
        assert period.v[p] == pytest.approx(one.v, rel=1e-9)
        assert period.delta[p] == pytest.approx(one.delta, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("seed", [4, 5])
def test_bulk_glicko_agrees_with_one_player_function(seed: int) -> None:
    ratings, rds, _, white, black, score = _random_period(seed)
    t = np.random.default_rng(seed).integers(0, 3, ratings.size)
    period = rate_period_glicko(ratings, rds, white, black, score, t=t, c=40)
    for p in range(ratings.size):
        opponents, points = _games_of(p, white, black, score)
        one = glicko_update(
            GlickoRating(ratings[p], rds[p]),
            [GlickoRating(ratings[o], period.onset_rd[o]) for o in opponents],
            points,
            t=int(t[p]),
            c=40,
        )
        assert period.onset_rd[p] == pytest.approx(one.onset_rd, rel=1e-12)
        assert period.rating[p] == pytest.approx(one.rating, rel=1e-9)
        assert period.rd[p] == pytest.approx(one.rd, rel=1e-9)


def test_bulk_glicko2_paper_example() -> None:
    period = rate_period_glicko2(
        [1500, 1400, 1550, 1700], [200, 30, 100, 300], 0.06, [0, 0, 0], [1, 2, 3], SCORES
    )
    assert round(period.rating[0], 2) == 1464.05
    assert round(period.rd[0], 2) == 151.52
    assert round(period.volatility[0], 8) == 0.05999598


def test_bulk_glicko_paper_example() -> None:
    period = rate_period_glicko(
        [1500, 1400, 1550, 1700], [200, 30, 100, 300], [0] * 3, [1, 2, 3], SCORES
    )
    assert round(period.rating[0], 2) == 1464.11
    assert round(period.rd[0], 2) == 151.40


def test_bulk_refuses_mismatched_arrays() -> None:
    with pytest.raises(GradeError, match="same length"):
        rate_period_glicko2([1500, 1600], [100, 100], 0.06, [0], [1, 0], [1])


PLAYER = GlickoRating(1500, 200)  # the paper's example player
OPPONENT = GlickoRating(1400, 30)


@pytest.mark.parametrize(
    ("rd", "t", "message"),
    [
        (-1, 1, "RD -1 and periods 1 must not be negative"),
        (200, -1, "RD 200 and periods -1 must not be negative"),
    ],
)
def test_a_negative_rd_or_period_count_is_refused(rd: float, t: float, message: str) -> None:
    with pytest.raises(GradeError) as error:
        glicko_onset_rd(rd, t)
    assert str(error.value) == message


def test_opponents_and_scores_must_pair_up() -> None:
    with pytest.raises(GradeError) as error:
        glicko_update(PLAYER, [OPPONENT, OPPONENT], [1.0])
    assert str(error.value) == "2 opponents but 1 scores"


def test_a_score_outside_0_to_1_is_refused() -> None:
    with pytest.raises(GradeError) as error:
        glicko_update(PLAYER, [OPPONENT], [1.5])
    assert str(error.value) == "score 1.5 is not between 0 and 1"


@pytest.mark.parametrize("periods", [-1, 1.5, True])
def test_idle_periods_must_be_a_whole_number(periods: object) -> None:
    with pytest.raises(GradeError) as error:
        glicko2_idle(Glicko2Rating(), periods)  # type: ignore[arg-type]
    assert str(error.value) == f"idle periods {periods!r} must be a whole number, 0 or more"


@pytest.mark.parametrize(
    ("rds", "t", "c", "error", "message"),
    [
        ([200.0, 0.0], 0, 63.2, GradeError, "every RD must be a positive finite number"),
        ([200.0, 30.0], -1, 63.2, GradeError, "every t (rating periods) must be 0 or more"),
        (
            [200.0, 30.0],
            [0, float("nan")],
            63.2,
            GradeError,
            "every t (rating periods) must be 0 or more",
        ),
        ([200.0, 30.0], 0, -1.0, SettingError, "Glicko constant c -1.0 must not be negative"),
    ],
)
def test_bad_period_inputs_are_refused(
    rds: object, t: object, c: float, error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as raised:
        rate_period_glicko([1500.0, 1400.0], rds, [0], [1], [1.0], t=t, c=c)  # type: ignore[arg-type]
    assert str(raised.value) == message
