"""The ECF rating since 2020 (docs/rules.md §12): K method, P method, the three passes of a
month, categories. Every expected figure is worked by hand in the test from FIDE's tables 8.1a
and 8.1b and the ECF's statements, never taken from the code's output."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.rating_by_game import rate_month_by_game
from xlgrade import ecf_rating as er
from xlgrade.errors import GradeError, SettingError

M = er.month_index(__import__("datetime").date(2025, 9, 1))
HALF = er.RatingSettings(partial_opponent="half")
"""The older help page's rule (a setting): a game against a partial opponent at half the k."""


# -- expected scores and the K method ---------------------------------------------------------


def test_expected_scores_come_from_table_8_1b_with_the_400_point_rule() -> None:
    # Table 8.1b: D 0–3 → .50; 77 lies in 77–83 → .61 for the higher-rated player.
    assert er.expected_score(1600, 1600) == 0.5
    assert er.expected_score(1680, 1603) == 0.61
    assert er.expected_score(1603, 1680) == 0.39
    # 500 apart counts as 400, which lies in 392–411 → .92 (uncapped, 485–517 would be .96).
    assert er.expected_score(2000, 1500) == 0.92
    assert er.expected_score(1500, 2000) == 0.08


def test_a_1600_player_beating_a_1600_player_gains_10_at_k_20() -> None:
    # 20 × (1 − 0.50) = 10.
    assert er.rating_change(1600, [1600], [1]) == 10.0
    assert er.new_rating(1600, [1600], [1]) == 1610


def test_1680_beating_1603_gains_7_8() -> None:
    # Difference 77, We .61: 20 × (1 − .61) = 7.8; published 1680 + 7.8 = 1687.8 → 1688.
    assert er.rating_change(1680, [1603], [1]) == pytest.approx(7.8)
    assert er.new_rating(1680, [1603], [1]) == 1688


def test_a_junior_has_k_40() -> None:
    k = er.k_factor(junior=er.is_junior(12))
    assert k == 40.0
    # 40 × (1 − .50) = 20.
    assert er.new_rating(1600, [1600], [1], k) == 1620
    assert not er.is_junior(18)
    assert not er.is_junior(None)


def test_a_months_games_add_up_before_rounding() -> None:
    # 1600: win v 1600 (.50), loss v 1792 (diff 192, 189–197 → .25 for 1792): W 1, We .75,
    # 20 × .25 = 5 → 1605.
    assert er.rating_change(1600, [1600, 1792], [1, 0]) == pytest.approx(5.0)
    assert er.new_rating(1600, [1600, 1792], [1, 0]) == 1605


def test_a_partial_opponent_counts_in_full_and_the_older_pages_halving_is_a_setting() -> None:
    # The newer help page (the 36-month text) has no halving sentence: the game counts like
    # any other (the default): 20 × (1 − .50) + 20 × (0 − .25) = 5 → 1605.
    # The older page, "use a K of 40 for that opponent … reducing any rating adjustment by
    # 50%" (the setting): 20 × .5 + 10 × (0 − .25) = 7.5 → 1608 (.5 away from zero).
    args = ([1600, 1792], [1, 0])
    marks = [False, True]
    assert er.rating_change(1600, *args, partial_opponents=marks) == pytest.approx(5.0)
    assert er.new_rating(1600, *args, partial_opponents=marks) == 1605
    half = er.rating_change(1600, *args, partial_opponents=marks, partial_opponent="half")
    assert half == pytest.approx(7.5)
    assert er.new_rating(1600, *args, partial_opponents=marks, partial_opponent="half") == 1608


def test_rounding_the_change_or_the_new_rating_is_a_setting() -> None:
    # Unsourced. Bob (1600) loses to Ann (1600), draws a partial 1792 at half the k:
    # 20 × (0 − .50) + 10 × (½ − .25) = −7.5. The change rounded (.5 away from zero) is −8 →
    # 1592; added unrounded, 1592.5 rounds to 1593. A whole or a positive-half change is the
    # same either way: 1600 + 7.5 → 1608 both.
    args = ([1600, 1792], [0, 0.5])
    kw = {"partial_opponents": [False, True], "partial_opponent": "half"}
    assert er.new_rating(1600, *args, **kw) == 1592  # type: ignore[arg-type]
    assert er.new_rating(1600, *args, **kw, rounding="rating") == 1593  # type: ignore[arg-type]
    up = ([1600, 1792], [1, 0])
    assert er.new_rating(1600, *up, **kw, rounding="rating") == 1608  # type: ignore[arg-type]
    with pytest.raises(SettingError, match="'down'"):
        er.new_rating(1600, [1600], [1], rounding="down")  # type: ignore[arg-type]
    # The month over arrays: the same figures (Ann beats Bob, Cy new beats Ann, draws Bob).
    state = er.start_state(M, [1600, 1600, np.nan])
    games = ([0, 2, 2], [1, 0, 1], [1, 1, 0.5])
    for rounding, bob in (("change", 1592), ("rating", 1593)):
        cfg = er.RatingSettings(partial_opponent="half", rounding=rounding)  # type: ignore[arg-type]
        assert er.rate_month(state, *games, settings=cfg).rating[1] == bob


def test_bad_k_method_input_is_refused_with_the_value() -> None:
    with pytest.raises(GradeError, match="pair up"):
        er.rating_change(1600, [1600, 1500], [1])
    with pytest.raises(GradeError, match=r"1\.5"):
        er.rating_change(1600, [1600], [1.5])
    with pytest.raises(SettingError, match="'third'"):
        er.rating_change(1600, [1600], [1], partial_opponent="third")  # type: ignore[arg-type]
    with pytest.raises(GradeError, match="'x'"):
        er.expected_score("x", 1600)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: er.expected_score(-3550, 1600), "rating -3550 is below -3500: not an ECF rating"),
        (lambda: er.expected_score(1600, 3600), "opponent rating 3600 is above 3500"),
        (lambda: er.rating_change(1600, [-3501], [1]), "opponent rating -3501 is below -3500"),
        (lambda: er.new_rating(-3600, [1600], [1]), "rating -3600 is below -3500"),
        (lambda: er.p_rating([1600, -3505], [1, 0]), "opponent rating -3505 is below -3500"),
        (lambda: er.p_rating([1600], [1], nominal=4000), "nominal rating 4000 is above 3500"),
        (lambda: er.p_rating(["x"], [1]), "opponent rating 'x' is not a number"),
        (lambda: er.nominal_rating(last_full_rating=-3501), "last full rating -3501 is below"),
    ],
)
def test_what_is_not_a_rating_is_refused(call: object, message: str) -> None:
    with pytest.raises(GradeError, match=f"^{message}"):
        call()  # type: ignore[operator]


# -- the P method ---------------------------------------------------------------------------------


def test_nominal_opponent() -> None:
    # 1800 for adults, age × 100 under 18, 100 less for rapid and blitz.
    assert er.nominal_rating() == 1800
    assert er.nominal_rating(age=9) == 900
    assert er.nominal_rating(age=17) == 1700
    assert er.nominal_rating(age=18) == 1800
    assert er.nominal_rating(quickplay=True) == 1700
    assert er.nominal_rating(age=12, quickplay=True) == 1100
    # A returning player's last full rating (the ECF's categories page); the higher of it and
    # the usual nominal is the setting.
    assert er.nominal_rating(last_full_rating=1950) == 1950
    assert er.nominal_rating(last_full_rating=1500) == 1500
    assert er.nominal_rating(last_full_rating=1500, returning="higher") == 1800
    assert er.nominal_rating(last_full_rating=1950, returning="higher") == 1950
    with pytest.raises(SettingError, match="'best'"):
        er.nominal_rating(last_full_rating=1500, returning="best")  # type: ignore[arg-type]
    with pytest.raises(GradeError, match="-3"):
        er.nominal_rating(age=-3)


def test_p_rating_by_table_8_1a_with_the_fictional_draw() -> None:
    # Opponents 1700, 1500, 1600, 1800 scoring 1, ½, 1, 0, and a draw against 1800:
    # Ra = (1700 + 1500 + 1600 + 1800 + 1800) / 5 = 8400 / 5 = 1680; p = (2.5 + .5) / 5 = .60;
    # table 8.1a: .60 → 72; 1680 + 72 = 1752 on 4 games: partial.
    p = er.p_rating([1700, 1500, 1600, 1800], [1, 0.5, 1, 0])
    assert (p.rating, p.games, p.partial) == (1752, 4, True)
    assert (p.average, p.fraction, p.difference, p.nominal) == (1680, 0.6, 72, 1800)


def test_p_rating_of_a_junior_against_his_nominal_opponent() -> None:
    # Age 10: nominal 1000. Two wins against 1100 and 1200: Ra = (1100 + 1200 + 1000) / 3 =
    # 1100; p = 2.5 / 3 = .833 → .83 → 273; 1100 + 273 = 1373.
    p = er.p_rating([1100, 1200], [1, 1], er.nominal_rating(age=10))
    assert p.rating == 1373


def test_ten_games_make_a_full_rating() -> None:
    # Ten draws against 1600: Ra = (16000 + 1800) / 11 = 1618.18…, p = 5.5 / 11 = .50 → 0:
    # 1618, on 10 games: full.
    p = er.p_rating([1600] * 10, [0.5] * 10)
    assert (p.rating, p.partial) == (1618, False)
    nine = er.p_rating([1600] * 9, [0.5] * 9)
    assert nine.partial


def test_the_p_formula_is_a_setting() -> None:
    # Logistic: 400 × log10(.6 / .4) = 400 × 0.176091… = 70.44; the algorithm of 400:
    # 400 × (2 × .6 − 1) = 80.
    assert er.performance_difference(0.6, "logistic") == pytest.approx(70.436, abs=1e-3)
    assert er.performance_difference(0.6, "linear-400") == pytest.approx(80.0)
    assert er.performance_difference(0.6) == 72
    games = ([1700, 1500, 1600, 1800], [1, 0.5, 1, 0])
    assert er.p_rating(*games, method="logistic").rating == 1750  # 1680 + 70.44
    assert er.p_rating(*games, method="linear-400").rating == 1760  # 1680 + 80
    with pytest.raises(SettingError, match="'median'"):
        er.performance_difference(0.6, "median")  # type: ignore[arg-type]
    with pytest.raises(GradeError, match="strictly"):
        er.performance_difference(1.0, "logistic")
    with pytest.raises(GradeError, match="pair up"):
        er.p_rating([1600], [1, 0])


# -- categories -----------------------------------------------------------------------------------


def test_categories() -> None:
    # A: 30 or more rated results in the previous 12 months; P: updated by the P method;
    # unrated: no rated result in 36 months.
    assert er.category(results_in_12_months=30, active=True, partial=False) == "A"
    assert er.category(results_in_12_months=29, active=True, partial=False) == "K"
    assert er.category(results_in_12_months=40, active=True, partial=True) == "P"
    assert er.category(results_in_12_months=0, active=False, partial=False) == ""


# -- a month: the three passes --------------------------------------------------------------------


def _month(
    state: er.RatingState,
    games: list[tuple[int, int, float]],
    **kw: object,
) -> er.MonthResult:
    w = [g[0] for g in games]
    b = [g[1] for g in games]
    s = [g[2] for g in games]
    bulk = er.rate_month(state, w, b, s, **kw)  # type: ignore[arg-type]
    loop = rate_month_by_game(state, w, b, s, **kw)  # type: ignore[arg-type]
    _same(bulk, loop)
    return bulk


def _same(x: er.MonthResult, y: er.MonthResult) -> None:
    for name in er.MonthResult.__dataclass_fields__:
        a, b = getattr(x, name), getattr(y, name)
        if name == "state":
            for field in er.RatingState.__dataclass_fields__:
                fa, fb = getattr(a, field), getattr(b, field)
                if isinstance(fa, np.ndarray) and fa.dtype.kind == "f":
                    np.testing.assert_allclose(fa, fb, atol=1e-9, equal_nan=True, err_msg=field)
                else:
                    np.testing.assert_array_equal(fa, fb, err_msg=field)
        elif a.dtype.kind == "f":
            np.testing.assert_allclose(a, b, atol=1e-9, equal_nan=True, err_msg=name)
        else:
            np.testing.assert_array_equal(a, b, err_msg=name)


def test_a_new_player_among_rated_players() -> None:
    # A and B rated 1600 (K), C new. A beats B, C beats A, C draws B.
    # Pass 1 and 2 for C (both opponents are rated): Ra = (1600 + 1600 + 1800) / 3 = 1666.67,
    # p = (1 + .5 + .5) / 3 = .667 → .67 → 125: 1791.67 → 1792 on 2 games (partial).
    # Pass 3 under the older page's rule (HALF), C's games at half the k (C is partial):
    # A — v B .50 (won), v C 1792 (diff 192 → .25; lost): 20 × (1 − .5) + 10 × (0 − .25) =
    # 7.5 → 1608 (.5 away from zero).
    # B — v A .50 (lost), v C .25 (drew): 20 × (0 − .5) + 10 × (.5 − .25) = −7.5 → 1592.
    state = er.start_state(M, [1600, 1600, math.nan])
    r = _month(state, [(0, 1, 1), (2, 0, 1), (2, 1, 0.5)], settings=HALF)
    assert r.method.tolist() == ["K", "K", "P"]
    assert r.rating_a[2] == 1792
    assert r.rating_b[2] == 1792
    assert r.rating.tolist() == [1608, 1592, 1792]
    assert r.change[:2].tolist() == pytest.approx([7.5, -7.5])
    assert r.expected[:2].tolist() == pytest.approx([0.75, 0.75])
    assert r.k[:2].tolist() == [20, 20]
    assert r.nominal[2] == 1800
    assert r.p_games[2] == 2
    assert r.category.tolist() == ["K", "K", "P"]
    # The game C beat A: A's side used C's 1792 with .25 expected; C's side A's 1600.
    assert (r.white_opponent[1], r.black_opponent[1], r.black_expected[1]) == (1600, 1792, 0.25)
    assert math.isnan(r.white_expected[1])
    assert (r.black_k[1], r.white_k[0]) == (10, 20)


def test_partial_opponents_count_in_full_by_default() -> None:
    # As above with every game at k 20 (the newer help page): A 20 × (1 − .75) = 5 → 1605;
    # B 20 × (.5 − .75) = −5 → 1595.
    state = er.start_state(M, [1600, 1600, math.nan])
    r = _month(state, [(0, 1, 1), (2, 0, 1), (2, 1, 0.5)])
    assert r.rating.tolist() == [1605, 1595, 1792]
    assert r.black_k[1] == 20
    assert r.white_k[0] == 20


def test_pass_two_uses_new_opponents_pass_one_figures() -> None:
    # A 1600 (K); C and D new. C beats D; C and D each draw with A.
    # Pass 1 (D and C stand at the nominal 1800 for each other):
    #   C: (1800 + 1600 + 1800) / 3 = 1733.33, p = 2 / 3 → .67 → 125: 1858.33 → 1858.
    #   D: 1733.33, p = 1 / 3 → .33 → −125: 1608.33 → 1608.
    # Pass 2: C: (1608 + 1600 + 1800) / 3 = 1669.33 + 125 = 1794.33 → 1794.
    #         D: (1858 + 1600 + 1800) / 3 = 1752.67 − 125 = 1627.67 → 1628.
    # Pass 3, A: v C 1794 (diff 194 → .25), v D 1628 (diff 28 → 26–32 → .54 for D, .46 for
    # A): two draws, W 1, We .71; both partial, so at k 10 (HALF): 10 × (.25 + .04) = 2.9 →
    # 1603.
    state = er.start_state(M, [1600, math.nan, math.nan])
    r = _month(state, [(1, 2, 1), (1, 0, 0.5), (2, 0, 0.5)], settings=HALF)
    assert r.rating_a[1:].tolist() == [1858, 1608]
    assert r.rating_b[1:].tolist() == [1794, 1628]
    assert r.rating.tolist() == [1603, 1794, 1628]
    assert r.expected[0] == pytest.approx(0.71)
    # A's games used C's and D's "B" figures; C's game against D used D's "A".
    assert r.black_opponent[1] == 1794
    assert r.black_opponent[2] == 1628
    assert r.white_opponent[0] == 1608


def test_a_p_rated_player_moves_to_the_k_method_the_month_after_ten_games() -> None:
    # Month 1: C (new) draws ten times with D (1600, K). C: (16000 + 1800) / 11 = 1618.18, p
    # .50 → 1618 on 10 games, a full rating: category K. D: v 1618 (diff 18 → .53 for C, .47
    # for D) ten draws, W 5, We 4.7: 20 × .3 = 6 → 1606.
    state = er.start_state(M, [math.nan, 1600])
    r1 = _month(state, [(0, 1, 0.5)] * 10)
    assert r1.rating.tolist() == [1618, 1606]
    assert r1.category.tolist() == ["K", "K"]
    assert r1.method.tolist() == ["P", "K"]
    # Month 2: K method. C 1618 beats D 1606: diff 12 → .52: 20 × .48 = 9.6 → 1627.6 → 1628;
    # D: 20 × (0 − .48) = −9.6 → 1596.4 → 1596.
    r2 = _month(r1.state, [(0, 1, 1)])
    assert r2.method.tolist() == ["K", "K"]
    assert r2.rating.tolist() == [1628, 1596]


def test_a_partial_rating_goes_on_over_the_months() -> None:
    # Month 1: C (new) beats A (1600): Ra = (1600 + 1800) / 2 = 1700, p = 1.5 / 2 = .75 → 193:
    # 1893, partial. A v C's 1893 (diff 293 → 290–302 → .85, .15 for A), at half the k (HALF):
    # 10 × (0 − .15) = −1.5 → −2 (.5 away from zero) → 1598.
    state = er.start_state(M, [1600, math.nan])
    r1 = _month(state, [(1, 0, 1)], settings=HALF)
    assert r1.rating.tolist() == [1598, 1893]
    # Month 2: A (1598) beats C: C's Ra = (1600 + 1598 + 1800) / 3 = 1666, p = 1.5 / 3 = .5
    # → 0: 1666. A v 1666: diff 68 → 62–68 → .41 for A; C still partial: 10 × .59 = 5.9 → 6
    # → 1604.
    r2 = _month(r1.state, [(0, 1, 1)], settings=HALF)
    assert r2.method.tolist() == ["K", "P"]
    assert r2.rating.tolist() == [1604, 1666]
    assert r2.p_games[1] == 2
    assert r2.category[1] == "P"


def test_a_returning_player_starts_again_against_his_last_full_rating() -> None:
    # E (1950, last game 37 months ago: none in the 36 before this month) draws with F (1900).
    # E is new again: nominal his last full rating, 1950; Ra = (1900 + 1950) / 2 = 1925, p .5:
    # 1925, partial. F v 1925: diff 25 → 18–25 → .53 for E, .47 for F, the game counting in
    # full: 20 × .03 = .6 → +1 → 1901.
    state = er.start_state(M, [1950, 1900], last_month=[M - 37, M - 1])
    r = _month(state, [(0, 1, 0.5)])
    assert r.method.tolist() == ["P", "K"]
    assert r.nominal[0] == 1950
    assert r.rating.tolist() == [1925, 1901]
    # One month later in the window (last game 36 months ago) he is still rated: K method.
    # 1950 v 1900: diff 50 → 47–53 → .57: 20 × (.5 − .57) = −1.4 → 1948.6 → 1949.
    state = er.start_state(M, [1950, 1900], last_month=[M - 36, M - 1])
    assert _month(state, [(0, 1, 0.5)]).rating[0] == 1949


def test_a_junior_is_rated_at_k_40_and_meets_a_junior_nominal_opponent() -> None:
    # J (junior, 1200) beats K (adult, 1200): 40 × .5 = 20 → 1220; K: 20 × (0 − .5) → 1190.
    state = er.start_state(M, [1200, 1200])
    r = _month(state, [(0, 1, 1)], junior=[True, False])
    assert r.rating.tolist() == [1220, 1190]
    # A new junior of 9 (nominal 900) beats a 1000: Ra = (1000 + 900) / 2 = 950, p .75 → 193:
    # 1143.
    state = er.start_state(M, [math.nan, 1000])
    r = _month(state, [(0, 1, 1)], junior=[True, False], nominal=[900, 1800])
    assert r.rating[0] == 1143
    assert r.nominal[0] == 900


def test_a_juniors_k_is_40_in_a_month_above_expectation_and_20_below() -> None:
    # The rating officer: "k-factor of 40 in months of above expectation performance and a
    # k-factor of 20 for months of below expectation performance".
    # Month 1: J (junior, 1200) beats K (1200): .5 above expectation, k 40: 20 → 1220.
    # Month 2: J (1220) loses to K (1190): diff 30 → 26–32 → .54 for J: −.54 below, k 20:
    # −10.8 → −11 → 1209. With k 40 every month (the setting): 40 × −.54 = −21.6 → −22 →
    # 1198.
    state = er.start_state(M, [1200, 1200])
    r1 = _month(state, [(0, 1, 1)], junior=[True, False])
    assert (r1.rating[0], r1.k[0]) == (1220, 40)
    r2 = _month(r1.state, [(1, 0, 1)], junior=[True, False])
    assert r2.rating.tolist()[0] == 1209
    assert (r2.k[0], r2.black_k[0]) == (20, 20)
    always = er.RatingSettings(junior_k="always")
    r3 = _month(r1.state, [(1, 0, 1)], junior=[True, False], settings=always)
    assert (r3.rating[0], r3.k[0]) == (1198, 40)
    assert er.k_factor(junior=True, settings=always, performance=-0.54) == 40
    assert er.k_factor(junior=True, performance=-0.54) == 20
    assert er.k_factor(junior=True, performance=0.0) == 20  # no change either way


def test_a_returning_players_fictional_opponent_is_his_last_full_rating() -> None:
    # E (adult, last full 1500, last game 37 months ago) draws with F (1600). Default: the
    # nominal is his last full rating 1500: Ra = (1600 + 1500) / 2 = 1550, p .5 → 1550.
    # The setting "higher": max(1800, 1500) = 1800: Ra = (1600 + 1800) / 2 = 1700 → 1700.
    state = er.start_state(M, [1500, 1600], last_month=[M - 37, M - 1])
    r = _month(state, [(0, 1, 0.5)])
    assert (r.nominal[0], r.rating[0]) == (1500, 1550)
    higher = er.RatingSettings(returning_nominal="higher")
    r = _month(state, [(0, 1, 0.5)], settings=higher)
    assert (r.nominal[0], r.rating[0]) == (1800, 1700)


def test_a_partial_players_fictional_opponent_stays_that_of_his_first_month() -> None:
    # J, a new junior of 9 (nominal 900), draws with A (1000): Ra = (1000 + 900) / 2 = 950,
    # p .5 → 950, partial. Next month, 10 (nominal 1000), he draws with B (1000), who has not
    # played: default, the first month's 900: Ra = (1000 + 1000 + 900) / 3 = 966.67, p .5 →
    # 967. The setting "current": this month's 1000: Ra = 3000 / 3 = 1000 → 1000.
    state = er.start_state(M, [math.nan, 1000, 1000])
    r1 = _month(state, [(0, 1, 0.5)], junior=[True, False, False], nominal=[900, 1800, 1800])
    assert (r1.rating[0], r1.nominal[0]) == (950, 900)
    month_2 = {"junior": [True, False, False], "nominal": [1000, 1800, 1800]}
    r2 = _month(r1.state, [(0, 2, 0.5)], **month_2)
    assert (r2.rating[0], r2.nominal[0], r2.p_games[0]) == (967, 900, 2)
    state = _month(state, [(0, 1, 0.5)], junior=[True, False, False], nominal=[900, 1800, 1800],
                   settings=er.RatingSettings(partial_nominal="current")).state  # fmt: skip
    current = er.RatingSettings(partial_nominal="current")
    r3 = _month(state, [(0, 2, 0.5)], **month_2, settings=current)
    assert (r3.rating[0], r3.nominal[0]) == (1000, 1000)


def test_a_partial_rating_from_the_list_counts_as_games_at_that_rating() -> None:
    # Decision: a P rating of 1500 on 4 games is taken in as 4 games at 1500 scoring 50 %.
    # A draw with a 1500: Ra = (4 × 1500 + 1500 + 1800) / 6 = 1550, p = (2 + .5 + .5) / 6 =
    # .5 → 1550, on 5 games.
    state = er.start_state(M, [1500, 1500], full=[False, True], games=[4, 0])
    r = _month(state, [(0, 1, 0.5)])
    assert r.method.tolist() == ["P", "K"]
    assert (r.rating[0], r.p_games[0]) == (1550, 5)


def test_category_a_and_unrated_over_the_months() -> None:
    # Thirty results in one month: A. Then thirty-six months without a game: unrated.
    state = er.start_state(M, [1600, 1600])
    r = _month(state, [(0, 1, 0.5)] * 30)
    assert r.category.tolist() == ["A", "A"]
    state = r.state
    for _ in range(11):
        state = er.rate_month(state, [], [], []).state
    assert state.categories().tolist() == ["A", "A"]  # month M still in the 12
    state = er.rate_month(state, [], [], []).state
    assert state.categories().tolist() == ["K", "K"]
    for _ in range(23):
        state = er.rate_month(state, [], [], []).state
    assert state.categories().tolist() == ["K", "K"]  # last result 35 months before the list
    state = er.rate_month(state, [], [], []).state
    assert state.categories().tolist() == ["", ""]


def test_bad_month_input_is_refused() -> None:
    state = er.start_state(M, [1600, 1600])
    with pytest.raises(GradeError, match="himself"):
        er.rate_month(state, [0], [0], [1])
    with pytest.raises(GradeError, match="outside"):
        er.rate_month(state, [0], [5], [1])
    with pytest.raises(GradeError, match="junior"):
        er.rate_month(state, [0], [1], [1], junior=[True, False, True])
    with pytest.raises(SettingError, match="'best'"):
        er.RatingSettings(p_method="best")  # type: ignore[arg-type]
    with pytest.raises(SettingError, match="k_adult"):
        er.RatingSettings(k_adult=0)
    with pytest.raises(GradeError, match="full rating"):
        er.start_state(M, [math.nan], full=[True])
    with pytest.raises(GradeError, match="games"):
        er.start_state(M, [1500], full=[False], games=[-1])


# -- the array form and the loop form give the same numbers, on every setting -----------------


def _random_state(rng: np.random.Generator, n: int) -> er.RatingState:
    rating = rng.integers(900, 2400, n).astype(float)
    kind = rng.integers(0, 4, n)  # 0 full, 1 partial, 2 never rated, 3 lapsed
    rating[kind == 2] = np.nan
    last = np.where(kind == 3, M - 40, M - rng.integers(1, 30, n))
    last = np.where(kind == 2, er.NO_MONTH, last)
    return er.start_state(
        M,
        rating,
        full=(kind == 0) | (kind == 3),
        last_month=last,
        games=rng.integers(0, 10, n),
        recent_results=rng.integers(0, 20, n),
    )


@pytest.mark.parametrize("p_method", er.P_METHODS)
@pytest.mark.parametrize("rule", er.PARTIAL_OPPONENT_RULES)
@pytest.mark.parametrize(
    ("junior_k", "returning", "partial"),
    [("performance", "last", "first"), ("always", "higher", "current")],
)
def test_array_and_loop_forms_agree(
    p_method: er.PMethod,
    rule: er.PartialOpponentRule,
    junior_k: er.JuniorK,
    returning: er.ReturningNominal,
    partial: er.PartialNominal,
) -> None:
    rng = np.random.default_rng(14)
    cfg = er.RatingSettings(
        p_method=p_method,
        partial_opponent=rule,
        junior_k=junior_k,
        returning_nominal=returning,
        partial_nominal=partial,
    )
    n = 60
    state_a = state_b = _random_state(rng, n)
    junior = rng.random(n) < 0.2
    nominal = np.where(junior, rng.integers(7, 18, n) * 100, 1800).astype(float)
    for _ in range(4):
        g = 150
        w = rng.integers(0, n, g)
        b = (w + rng.integers(1, n, g)) % n
        s = rng.choice([0.0, 0.5, 1.0], g)
        ra = er.rate_month(state_a, w, b, s, junior=junior, nominal=nominal, settings=cfg)
        rb = rate_month_by_game(state_b, w, b, s, junior=junior, nominal=nominal, settings=cfg)
        _same(ra, rb)
        assert set(ra.method.tolist()) == {"K", "P"}
        state_a, state_b = ra.state, rb.state


def test_a_rating_below_zero_is_a_rating_every_function_takes() -> None:
    # No source gives the ECF rating a floor, and the K method goes on below zero.
    # 5 losing three games to 5s: 3 × 20 × (0 − .50) = −30 → −25; from −25, a win over a 5
    # (D 30, 26–32: We .46) gains 20 × .54 = 10.8 → +11 → −14.
    assert er.new_rating(5, [5, 5, 5], [0, 0, 0]) == -25
    assert er.new_rating(-25, [5], [1]) == -14
    assert er.expected_score(-25, 5) == 0.46
    # P method: three losses to 0s and the draw against 1800: Ra = 1800 / 4 = 450,
    # p = ½ / 4 = .125 → .13, dp −322 (table 8.1a) → 128; the same losses to −300s:
    # Ra = (−900 + 1800) / 4 = 225 → 225 − 322 = −97, a rating like any other.
    assert er.p_rating([0, 0, 0], [0, 0, 0]).rating == 128
    assert er.p_rating([-300, -300, -300], [0, 0, 0]).rating == -97
