"""Working grades (docs/rules.md §6): the exact solve and the iterative one agree.

Working grades (docs/rules.md §6), worked by hand from the rule: a player's working grade
is the mean over his games of the opponent's grade (or working grade) + 50·(2·score − 1), with
no horizon; ungraded players who meet each other make a linear system, solved exactly or
iterated to a fixed point.
"""

import math

import numpy as np
import pytest

from xlgrade.errors import SettingError
from xlgrade.estimate import working_grades


def test_a_long_chain_of_newcomers_iterates_to_the_exact_grades() -> None:
    # Player 0 is graded 100; newcomer k beat newcomer k − 1 (newcomer 1 beat player 0). Each
    # newcomer's equation: W_k = (W_{k−1} + 50 + W_{k+1} − 50) / 2, the last one W_{k−1} + 50,
    # so the exact solution is W_k = 100 + 50·k.
    known = [100.0] + [np.nan] * 100
    winners, losers = list(range(1, 101)), list(range(100))
    exact = working_grades(known, winners, losers, [1.0] * 100)
    assert exact.grades == pytest.approx([100 + 50 * k for k in range(101)])
    iterated = working_grades(known, winners, losers, [1.0] * 100, method="iterate")
    assert np.max(np.abs(iterated.grades - exact.grades)) < 0.01
    assert 0 < iterated.iterations <= 101


def test_the_two_methods_agree_on_two_newcomers_who_meet() -> None:
    # W_x = (150 + W_y + 50) / 2, W_y = (140 + W_x − 50) / 2 → 490/3 and 380/3.
    known = [100.0, 140.0, np.nan, np.nan]
    for method in ("exact", "iterate"):
        grades = working_grades(known, [2, 3, 2], [0, 1, 3], [1.0, 0.5, 1.0], method=method)
        assert grades.grades[2:] == pytest.approx([490 / 3, 380 / 3], abs=1e-6)


NAN = math.nan


def test_one_ungraded_player_gets_his_performance_grade() -> None:
    # Player 2 beats 120 and draws with 140: (170 + 140) / 2 = 155.
    result = working_grades([120.0, 140.0, NAN], [2, 1], [0, 2], [1.0, 0.5])
    assert result.grades.tolist() == [120.0, 140.0, 155.0]
    assert result.estimated.tolist() == [False, False, True]
    assert result.unanchored == ()
    assert result.iterations == 0


# A chain of three ungraded players 1, 2, 3, each drawing with the graded player 0 (100);
# 3 beats 2 and 2 beats 1. By the rule:
#   player 1: 2·W1 − W2 = 100 − 50         (draw with 100, loss to 2)
#   player 2: 3·W2 − W1 − W3 = 100 + 50 − 50 (draw with 100, win over 1, loss to 3)
#   player 3: 2·W3 − W2 = 100 + 50          (draw with 100, win over 2)
# whose solution is W1 = 75, W2 = 100, W3 = 125 (check: player 1's performance is
# (100 + (100 − 50)) / 2 = 75).
CHAIN_KNOWN = [100.0, NAN, NAN, NAN]
CHAIN_WHITE = [0, 0, 0, 3, 2]
CHAIN_BLACK = [1, 2, 3, 2, 1]
CHAIN_SCORE = [0.5, 0.5, 0.5, 1.0, 1.0]
CHAIN_GRADES = [100.0, 75.0, 100.0, 125.0]


def test_ungraded_players_who_meet_are_solved_together() -> None:
    result = working_grades(CHAIN_KNOWN, CHAIN_WHITE, CHAIN_BLACK, CHAIN_SCORE)
    assert result.grades == pytest.approx(CHAIN_GRADES, abs=1e-9)
    assert result.estimated.tolist() == [False, True, True, True]
    assert result.iterations == 0


def test_iterating_reaches_the_same_grades_within_the_tolerance() -> None:
    result = working_grades(
        CHAIN_KNOWN, CHAIN_WHITE, CHAIN_BLACK, CHAIN_SCORE, method="iterate", tolerance=0.001
    )
    assert result.grades == pytest.approx(CHAIN_GRADES, abs=0.01)
    assert result.iterations > 1
    assert result.estimated.tolist() == [False, True, True, True]


def test_iteration_that_does_not_settle_is_an_error() -> None:
    with pytest.raises(SettingError) as error:
        working_grades(
            CHAIN_KNOWN,
            CHAIN_WHITE,
            CHAIN_BLACK,
            CHAIN_SCORE,
            method="iterate",
            tolerance=1e-9,
            max_iterations=1,
        )
    assert str(error.value) == (
        "working grades did not settle within 1 iterations; use method='exact'"
    )


def test_an_unanchored_group_is_reported_and_given_the_setting() -> None:
    # Players 1 and 2 only play each other: no graded opponent, no anchor (§6).
    plain = working_grades([150.0, NAN, NAN], [1], [2], [1.0])
    assert plain.unanchored == ((1, 2),)
    assert np.isnan(plain.grades[1:]).all()
    given = working_grades([150.0, NAN, NAN], [1], [2], [1.0], unanchored_grade=80.0)
    assert given.grades.tolist() == [150.0, 80.0, 80.0]
    assert given.estimated.tolist() == [False, True, True]


def test_an_estimate_that_is_not_published_is_flagged() -> None:
    result = working_grades([120.0, 136.0], [0], [1], [0.5], published=[True, False])
    assert result.grades.tolist() == [120.0, 136.0]
    assert result.estimated.tolist() == [False, True]


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"method": "guess"}, "working-grade method 'guess' is not 'exact' or 'iterate'"),
        ({"tolerance": 0.0}, "tolerance 0.0 must be positive"),
        ({"tolerance": -1}, "tolerance -1 must be positive"),
    ],
)
def test_bad_settings_are_refused(settings: dict[str, object], message: str) -> None:
    with pytest.raises(SettingError) as error:
        working_grades([NAN, 100.0], [0], [1], [1.0], **settings)  # type: ignore[arg-type]
    assert str(error.value) == message
