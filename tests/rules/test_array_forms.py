"""Each ECF rule's array form against its scalar form, side by side in :mod:`xlgrade.ecf`,
over every setting: the horizon (off, 0, 40 and other values), the floor at zero, both category
rule sets, any minimum of games, and pro rata borrowing from one or two earlier seasons. The
two forms must give the very same numbers, element by element."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from xlgrade.ecf import (
    category,
    category_array,
    counted_grade,
    counted_grades,
    game_points,
    game_points_array,
    game_points_columns,
    grade_as_counted,
    grades_as_counted,
    junior_enhancement,
    junior_enhancements,
    pro_rata_borrowed,
    pro_rata_borrowed_array,
    round_half_up,
    round_half_up_array,
    season_grade,
)
from xlgrade.model import EarlierSeason

# Grades as a league holds them: whole numbers, estimates with a fraction, and the noise a
# solved working grade carries (146.00000000000003).
grade_values = st.one_of(
    st.integers(0, 300).map(float),
    st.floats(0, 300, allow_nan=False, allow_infinity=False),
    st.integers(0, 300).map(lambda g: math.nextafter(float(g), math.inf)),
    st.integers(1, 300).map(lambda g: math.nextafter(float(g), -math.inf)),
)
horizons = st.one_of(st.none(), st.sampled_from([0.0, 40.0, 35.0, 50.0, 12.5]), st.floats(0, 400))
# Games from one side: own grade (None when ungraded), the opponent's grade, the score.
games_of_one_side = st.lists(
    st.tuples(st.one_of(st.none(), grade_values), grade_values, st.sampled_from([0, 0.5, 1])),
    min_size=1,
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(games_of_one_side, horizons, st.booleans())
def test_game_points_array_is_game_points_for_each_game(
    games: list[tuple[float | None, float, float]], horizon: float | None, floor: bool
) -> None:
    own = [np.nan if g is None else g for g, _, _ in games]
    opponents = [o for _, o, _ in games]
    scores = [s for _, _, s in games]
    array = game_points_array(own, opponents, scores, horizon=horizon, floor_at_zero=floor)
    counted = counted_grades(np.array(own), np.array(opponents), horizon)
    for i, (mine, theirs, score) in enumerate(games):
        one = game_points(mine, theirs, score, horizon=horizon, floor_at_zero=floor)
        assert array[i] == one.points
        assert counted[i] == one.counted_grade == counted_grade(mine, theirs, horizon)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(grade_values, st.just(math.nan)), min_size=1, max_size=30))
def test_rounding_and_counting_columns_are_the_scalar_rules(values: list[float]) -> None:
    counted = grades_as_counted(values)
    rounded = round_half_up_array(values)
    for i, value in enumerate(values):
        if math.isnan(value):
            assert math.isnan(counted[i])
            assert math.isnan(rounded[i])
            continue
        assert counted[i] == grade_as_counted(value)
        assert rounded[i] == round_half_up(value)


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.floats(-1e6, 1e6),
        st.integers(-(10**12), 10**12).map(lambda n: n / 2e9),  # halves at the ninth place
    )
)
def test_counting_one_grade_is_counting_a_column_of_it(value: float) -> None:
    """The scalar form's own arithmetic gives the array form's number for every float, its
    sign included (−0.0 stays −0.0), far outside a grade's range too."""
    with np.errstate(over="ignore"):  # a value too large to scale overflows, as numpy says
        one = grade_as_counted(value)
        column = float(grades_as_counted([value])[0])
    if math.isnan(column):
        assert math.isnan(one)
        return
    assert one == column
    assert math.copysign(1.0, one) == math.copysign(1.0, column)


history = st.integers(0, 60)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(history, history, history), min_size=1, max_size=30),
    st.sampled_from(["bcf1997", "ecf2015"]),
)
def test_category_array_is_category_for_each_player(
    counts: list[tuple[int, int, int]], rule_set: str
) -> None:
    current, previous, earlier = (
        np.array(column, dtype=np.int64) for column in zip(*counts, strict=True)
    )
    array = category_array(current, previous, earlier, rule_set=rule_set)  # type: ignore[arg-type]
    for i, (c, p, e) in enumerate(counts):
        one = category(c, p, e, rule_set=rule_set)  # type: ignore[arg-type]
        assert str(array[i]) == ("" if one is None else one)


earlier_seasons = st.one_of(
    st.none(),
    st.builds(
        EarlierSeason,
        games=st.integers(0, 45),
        points=st.one_of(st.integers(0, 9000).map(float), st.floats(0, 9000)),
    ),
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 40), st.floats(0, 8000), earlier_seasons, earlier_seasons),
        min_size=1,
        max_size=30,
    ),
    st.integers(0, 60),
)
def test_pro_rata_borrowing_array_is_the_scalar_rule(
    players: list[tuple[int, float, EarlierSeason | None, EarlierSeason | None]], min_games: int
) -> None:
    games = np.array([g for g, _, _, _ in players], dtype=np.int64)
    points = np.array([p for _, p, _, _ in players])

    def column(back: int) -> tuple[np.ndarray, np.ndarray]:
        seasons = [row[back + 1] for row in players]
        return (
            np.array([0 if s is None else s.games for s in seasons], dtype=np.int64),
            np.array([0.0 if s is None else s.points for s in seasons]),
        )

    taken, lent = pro_rata_borrowed_array(games, [column(1), column(2)], min_games)
    exact = np.where(games > 0, (points + lent) / np.maximum(games + taken, 1), np.nan)
    for i, (g, p, previous, before) in enumerate(players):
        borrowed = pro_rata_borrowed(g, [previous, before], min_games)
        assert taken[i] == sum(b.games for b in borrowed)
        assert lent[i] == sum(b.points for b in borrowed)
        one = season_grade(p, g, [previous, before], min_games=min_games)
        if one.grade is None:
            assert math.isnan(exact[i])
        else:
            assert exact[i] == one.exact
            assert round_half_up_array(exact[i : i + 1])[0] == one.grade


def test_the_leaflet_table_borrowing_by_both_forms() -> None:
    # 1997 leaflet: "[2900 + (5/10 × 1400)]/30 = 120": 25 games for 2900 points, the previous
    # season's 10 games for 1400 points lend 5 games for 700 points.
    borrowed = pro_rata_borrowed(25, [EarlierSeason(10, 1400.0)], 30)
    assert [(b.games, b.points) for b in borrowed] == [(5, 700.0)]
    taken, lent = pro_rata_borrowed_array(
        np.array([25]), [(np.array([10]), np.array([1400.0]))], 30
    )
    assert (int(taken[0]), float(lent[0])) == (5, 700.0)
    assert season_grade(2900.0, 25, [EarlierSeason(10, 1400.0)]).grade == 120


@settings(max_examples=300, deadline=None)
@given(games_of_one_side, horizons, st.booleans())
def test_columns_counted_once_a_player_are_game_points_for_each_game(
    games: list[tuple[float | None, float, float]], horizon: float | None, floor: bool
) -> None:
    # The season counts each player's grade once and hands the columns over as counted.
    own = grades_as_counted([np.nan if g is None else g for g, _, _ in games])
    opponents = grades_as_counted([o for _, o, _ in games])
    scores = np.array([s for _, _, s in games], dtype=np.float64)
    points, counted = game_points_columns(
        own, opponents, scores, horizon=horizon, floor_at_zero=floor, as_counted=True
    )
    for i, (mine, theirs, score) in enumerate(games):
        one = game_points(mine, theirs, score, horizon=horizon, floor_at_zero=floor)
        assert (points[i], counted[i]) == (one.points, one.counted_grade)


@given(st.lists(st.tuples(st.one_of(st.none(), st.integers(0, 30)), st.booleans()), max_size=40))
def test_junior_enhancements_are_the_enhancement_of_each_player(
    players: list[tuple[int | None, bool]],
) -> None:
    ages = [np.nan if age is None else age for age, _ in players]
    array = junior_enhancements(ages, [junior for _, junior in players])
    assert array.tolist() == [junior_enhancement(age, junior=junior) for age, junior in players]
