"""docs/rules.md §2: points for one game and the horizon, as the YCA pages show them.

ECF grading (docs/rules.md §2–§3): the refusals, and borrowing with thirty games.
"""

import datetime as dt

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.worked_examples import YCA_118_TABLE, YCA_GAMES, YcaGame
from xlgrade.ecf import (
    game_points,
    performance_grade,
    score_margin,
    score_margins,
    season_grade,
)
from xlgrade.errors import GradeError, SettingError
from xlgrade.model import DatedPoints


@pytest.mark.parametrize("opponent", sorted(YCA_118_TABLE))
@pytest.mark.parametrize(("column", "score"), [(0, 1.0), (1, 0.5), (2, 0.0)])
def test_yca_horizon_table_for_a_118_player(opponent: int, column: int, score: float) -> None:
    assert game_points(118, opponent, score).points == YCA_118_TABLE[opponent][column]


# YCA, "Grading Calculation Examples": own grade 142; (result, opponent, estimated, points, *).


@pytest.mark.parametrize(("number", "game"), list(enumerate(YCA_GAMES, start=1)))
def test_yca_player_game_by_game(number: int, game: YcaGame) -> None:
    score, opponent, _estimated, points, starred = game
    result = game_points(142, opponent, score)
    assert result.points == points, f"game {number}"
    assert result.horizon_applied is starred, f"game {number}"


def test_yca_player_total_is_2405() -> None:
    assert sum(game_points(142, g[1], g[0]).points for g in YCA_GAMES) == 2405


def test_starred_games_count_the_opponent_as_102() -> None:
    # "Those opponents are treated above as though their grade was 40 points less than 142,
    # i.e. 102."
    assert game_points(142, 94, 1.0).counted_grade == 102


def test_an_ungraded_player_gets_no_horizon() -> None:
    assert game_points(None, 200, 0.0).points == 150
    assert not game_points(None, 200, 0.0).horizon_applied


def test_the_horizon_is_a_setting() -> None:
    assert game_points(118, 165, 1.0, horizon=50).points == 215
    assert game_points(118, 165, 1.0, horizon=None).points == 215
    assert game_points(118, 165, 1.0, horizon=35).points == 203


def test_points_below_zero_count_as_zero_unless_turned_off() -> None:
    assert game_points(None, 30, 0.0).points == 0
    assert game_points(None, 30, 0.0, floor_at_zero=False).points == -20


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((142, "abc", 1.0), "opponent grade 'abc' is not a number"),
        (("x", 100, 1.0), "own grade 'x' is not a number"),
        ((142, 100, 2), "score 2 must be 1 (win), 0.5 (draw) or 0 (loss)"),
        ((142, float("nan"), 1.0), "opponent grade nan is not a finite number"),
    ],
)
def test_bad_input_names_the_argument_and_quotes_it(args: tuple, message: str) -> None:
    with pytest.raises(GradeError) as raised:
        game_points(*args)
    assert str(raised.value) == message


grades = st.integers(min_value=0, max_value=300)
scores = st.sampled_from([0.0, 0.5, 1.0])


@given(own=grades, beyond=st.integers(min_value=1, max_value=200), score=scores)
def test_beyond_the_horizon_scores_exactly_as_at_the_horizon(
    own: int, beyond: int, score: float
) -> None:
    above = game_points(own, own + 40 + beyond, score, floor_at_zero=False).points
    assert above == game_points(own, own + 40, score, floor_at_zero=False).points
    below = game_points(own, own - 40 - beyond, score, floor_at_zero=False).points
    assert below == game_points(own, own - 40, score, floor_at_zero=False).points


@given(own=st.one_of(st.none(), grades), opponent=grades)
def test_a_win_scores_100_more_than_a_loss(own: int | None, opponent: int) -> None:
    win = game_points(own, opponent, 1.0, floor_at_zero=False).points
    loss = game_points(own, opponent, 0.0, floor_at_zero=False).points
    assert win - loss == 100


def test_a_negative_horizon_is_refused() -> None:
    with pytest.raises(SettingError) as error:
        game_points(120, 100, 1.0, horizon=-40)
    assert str(error.value) == "horizon -40 must not be negative"


def test_a_performance_grade_needs_a_game() -> None:
    with pytest.raises(GradeError) as error:
        performance_grade([], [])
    assert str(error.value) == "a performance grade needs at least one game"


def test_thirty_games_this_season_borrow_nothing_by_the_most_recent_rule() -> None:
    # 1997 leaflet: earlier results are brought in only "if there are less than 30 games in
    # the current year". 30 games for 3600 points: 3600 / 30 = 120, nothing borrowed.
    grade = season_grade(
        3600,
        30,
        borrowing="most_recent",
        earlier_games=[DatedPoints(dt.date(2023, 5, 1), 150.0)],
    )
    assert (grade.grade, grade.exact, grade.borrowed) == (120, 120.0, ())
    assert (grade.total_games, grade.total_points) == (30, 3600)


def test_the_result_adds_50_for_a_win_nothing_for_a_draw_and_takes_50_for_a_loss() -> None:
    """1997 leaflet: "For a win, the opponents grade plus 50; For a draw, the opponents grade;
    For a loss, the opponents grade minus 50" — one rule for a game, a column, the working
    grades and a performance."""
    assert [score_margin(s) for s in (1.0, 0.5, 0.0)] == [50.0, 0.0, -50.0]
    assert score_margins(np.array([1.0, 0.5, 0.0])).tolist() == [50.0, 0.0, -50.0]
    # A performance over a win against 120 and a loss against 100: (170 + 50) / 2 = 110.
    assert performance_grade([120, 100], [1, 0]) == 110.0
