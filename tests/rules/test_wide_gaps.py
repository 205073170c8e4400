"""Ratings far apart, numbers near a float's limits and periods without games: ECF grading,
Glicko-1, Glicko-2 and Elo rate them (or say why not), and the one-player and bulk forms agree.

Reference values are worked by hand from Glickman's formulas: g(RD) = 1/√(1 + 3q²RD²/π²),
r′ = r + q/(1/RD² + 1/d²) · Σ g (s − E), φ′ = √(φ² + σ²) for a player who does not play."""

from __future__ import annotations

import math

import numpy as np
import pytest

from xlgrade.ecf import grade_as_counted, grades_as_counted, season_grade
from xlgrade.elo import NO_CAP, expected_score, expected_score_array, rate_period_elo
from xlgrade.errors import GradeError, SettingError
from xlgrade.glicko import (
    Glicko2Rating,
    GlickoRating,
    glicko2_update,
    glicko_update,
    rate_period_glicko,
    rate_period_glicko2,
)

# g(30) = 1/√(1 + 3 · 0.0057565² · 900 / π²) = 1/√1.0090656 = 0.995498.
G_30 = 0.995498


def test_glicko_1_rates_a_gap_of_7500_points_both_ways() -> None:
    # 9000/200 against 1500/30: E for the favourite is 1 − 10^(−18.75) ≈ 1 − 1.8e-19, which is
    # 1.0 in a float. Winning moves him by about q · 200² · g · 1.8e-19: nothing.
    won = glicko_update(GlickoRating(9000, 200), [GlickoRating(1500, 30)], [1])
    assert won.rating == pytest.approx(9000, abs=1e-9)
    # Losing: 1/d² is about 0, so r′ = 9000 + q · 200² · g · (0 − 1)
    # = 9000 − 0.0057565 · 40000 · 0.995498 = 9000 − 229.22 = 8770.78, RD unchanged.
    lost = glicko_update(GlickoRating(9000, 200), [GlickoRating(1500, 30)], [0])
    assert lost.rating == pytest.approx(8770.78, abs=0.01)
    assert lost.rd == pytest.approx(200.0)
    bulk = rate_period_glicko([9000, 1500], [200, 30], [0, 0], [1, 1], [1.0, 0.0])
    assert bulk.rating[0] == pytest.approx(lost.rating)
    assert bulk.rd[0] == pytest.approx(lost.rd)


def test_glicko_2_rates_a_gap_of_7500_points_and_agrees_with_its_bulk_form() -> None:
    for score in (1.0, 0.0):
        one = glicko2_update(Glicko2Rating(9000, 200, 0.06), [Glicko2Rating(1500, 30)], [score])
        bulk = rate_period_glicko2([9000, 1500], [200, 30], 0.06, [0], [1], [score])
        assert math.isfinite(one.rating)
        assert bulk.rating[0] == pytest.approx(one.rating)
        assert bulk.rd[0] == pytest.approx(one.rd)
        assert bulk.volatility[0] == pytest.approx(one.volatility)
    # The expected win changes nothing that a rating shows.
    won = glicko2_update(Glicko2Rating(9000, 200, 0.06), [Glicko2Rating(1500, 30)], [1])
    assert won.rating == pytest.approx(9000, abs=1e-6)


def test_a_gap_past_the_floats_is_refused_by_both_glicko_2_forms_with_a_message() -> None:
    # 1,000,000 against 1500: every expected score is 0 or 1 to the last bit and v = 1/0.
    with pytest.raises(GradeError, match=r"rating 1000000\.0 is so far from every opponent"):
        glicko2_update(Glicko2Rating(1e6, 200, 0.06), [Glicko2Rating(1500, 30)], [1])
    with pytest.raises(GradeError, match=r"player 0's rating 1000000\.0 is so far"):
        rate_period_glicko2([1e6, 1500], [200, 30], 0.06, [0], [1], [1.0])


def test_glicko_1_at_a_gap_past_the_floats_leaves_an_expected_result_alone() -> None:
    # 1/d² = 0 and s = E to the last bit: r′ = r, RD′ = RD, in both forms.
    one = glicko_update(GlickoRating(1e6, 200), [GlickoRating(1500, 30)], [1])
    assert (one.rating, one.rd, one.d2) == (1e6, 200.0, math.inf)
    bulk = rate_period_glicko([1e6, 1500], [200, 30], [0], [1], [1.0])
    assert bulk.rating.tolist() == [1e6, 1500.0]


def test_the_logistic_elo_curve_at_a_huge_gap() -> None:
    # 1/(1 + 10^((1e6 − 1500)/400)): 10^2496 is beyond every float; the curve is 0 there.
    assert expected_score(1500, 1e6, method="logistic", rule=NO_CAP) == 0.0
    assert expected_score(1e6, 1500, method="logistic", rule=NO_CAP) == 1.0
    array = expected_score_array([1500.0, 1e6], [1e6, 1500.0], method="logistic", rule=NO_CAP)
    assert array.tolist() == [0.0, 1.0]


def test_a_period_with_no_games_leaves_every_rating() -> None:
    # Glicko-1, one period since the RDs were set: RD′ = √(RD² + c²) with
    # c² = (350² − 50²)/100 = 1200: √41200 = 202.98 and √(50² + 1200) = √3700 = 60.83.
    one = rate_period_glicko([1500, 1600], [200, 50], [], [], [], t=1)
    assert one.rating.tolist() == [1500.0, 1600.0]
    assert one.rd.tolist() == pytest.approx([202.98, 60.83], abs=0.01)
    # Glicko-2: φ′ = √(φ² + σ²): 200/173.7178 = 1.151293, √(1.325475 + 0.0036) = 1.152855,
    # × 173.7178 = 200.27.
    two = rate_period_glicko2([1500, 1600], [200, 50], 0.06, [], [], [])
    assert two.rating.tolist() == [1500.0, 1600.0]
    assert two.rd[0] == pytest.approx(200.27, abs=0.01)
    assert two.volatility.tolist() == [0.06, 0.06]
    elo = rate_period_elo([1500, 1600], [], [], [], 20)
    assert elo.rating.tolist() == [1500.0, 1600.0]
    assert np.array_equal(elo.games, [0, 0])


def test_a_season_grade_near_the_largest_float() -> None:
    # 1e308 points in 150 games: 1e308/150 ≈ 6.7e305, a whole number as floats go (every
    # float past 2^52 is), so it rounds to itself; scaling it by 10^9 to count the decimals
    # would overflow, and the grade is not scaled.
    assert season_grade(1e308, 150).grade == int(1e308 / 150)
    assert grade_as_counted(1e300) == 1e300
    assert grades_as_counted([1e300, 146.00000000000003]).tolist() == [1e300, 146.0]


def test_glicko_values_whose_squares_vanish() -> None:
    # 1/RD² and Glicko-2's step 5 (a division by τ²): a square that is 0 to a float is refused.
    with pytest.raises(GradeError, match=r"RD 1e-300 is too small"):
        glicko_update(GlickoRating(1500, 1e-300), [GlickoRating(1400, 30)], [1], t=0)
    with pytest.raises(SettingError, match=r"tau 1e-300 is too small"):
        glicko2_update(Glicko2Rating(1500, 200, 0.06), [Glicko2Rating(1400, 30)], [1], tau=1e-300)
    # A τ that a = ln σ² − kτ cannot move from a (about −5.63 here, where floats are
    # 8.9e-16 apart): step 5.2's search for B would never end.
    with pytest.raises(SettingError, match=r"tau 4.376e-83 is too small \(at least 1e-12"):
        glicko2_update(
            Glicko2Rating(1500, 200, 0.06), [Glicko2Rating(1400, 30)], [0], tau=4.376e-83
        )


def test_glicko2_at_a_gap_where_the_improvement_squared_overflows() -> None:
    # 123,457 against 1400: v is finite but Δ² is past the largest float.
    with pytest.raises(GradeError, match=r"so far from every opponent"):
        glicko2_update(Glicko2Rating(123456.7, 200, 0.06), [Glicko2Rating(1400, 30)], [1])
