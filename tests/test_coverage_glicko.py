"""Glicko and Glicko-2 (GRADING-RULES.md §10): the refusals the main tests leave out."""

import pytest

from xlgrade.errors import GradeError, SettingError
from xlgrade.glicko import (
    Glicko2Rating,
    GlickoRating,
    glicko2_idle,
    glicko_onset_rd,
    glicko_update,
    rate_period_glicko,
)

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
