"""Elo (GRADING-RULES.md §9): the refusals the main tests leave out, with their exact text."""

import pytest

from xlgrade.elo import initial_rating, k_factor, performance_rating
from xlgrade.errors import GradeError, SettingError


@pytest.mark.parametrize(
    ("games", "in_period", "message"),
    [
        (-1, 0, "game counts -1, 0 must not be negative"),
        (10, -2, "game counts 10, -2 must not be negative"),
    ],
)
def test_negative_game_counts_are_refused(games: int, in_period: int, message: str) -> None:
    with pytest.raises(GradeError) as error:
        k_factor("fide-2024", games=games, rating=2000, games_in_period=in_period)
    assert str(error.value) == message


def test_a_performance_rating_needs_a_game() -> None:
    with pytest.raises(GradeError) as error:
        performance_rating([], [])
    assert str(error.value) == "a performance rating needs at least one game; none given"


def test_an_initial_rating_needs_a_game() -> None:
    with pytest.raises(GradeError) as error:
        initial_rating([], [], "chesterfield")
    assert str(error.value) == "an initial rating needs at least one game; none given"


def test_an_unknown_initial_rating_method_is_refused() -> None:
    with pytest.raises(SettingError) as error:
        initial_rating([1750.0], [1.0], "uscf")  # type: ignore[arg-type]
    assert str(error.value) == (
        "initial rating method 'uscf' unknown; use 'chesterfield' or 'fide-2024'"
    )
