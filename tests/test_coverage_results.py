"""Results (GRADING-RULES.md §1): the corners the main tests leave — values that are not text,
markers on a drawn or double-lost game, byes written out, and the side a row is read from."""

import pytest

from xlgrade.errors import ResultError
from xlgrade.results import GameResult, PlayerResult, parse_game_result, parse_result


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (True, "result True not understood"),
        (float("nan"), "result nan not understood"),
        (float("inf"), "result inf not understood"),
        (2.0, "result 2.0 not understood (a score is 1, ½ or 0)"),
        (None, "result None not understood"),
        ([1], "result [1] not understood"),
    ],
)
def test_a_cell_that_is_not_a_result_is_refused_quoting_it(value: object, message: str) -> None:
    with pytest.raises(ResultError) as error:
        parse_result(value)
    assert str(error.value) == message


@pytest.mark.parametrize(("value", "text"), [(1.0, "1"), (0.5, "0.5"), (0, "0")])
def test_scores_from_excel_are_numbers(value: float, text: str) -> None:
    assert parse_result(value).score == value
    assert parse_result(value).graded
    assert parse_result(value).text == repr(value)


@pytest.mark.parametrize(
    ("text", "score", "reason"),
    [
        ("1 nm", 1.0, "no move made"),
        ("0 nm", 0.0, "no move made"),
        ("½ def", 0.5, "default"),
        ("0 no moves", 0.0, "no move made"),
        ("1 forfeit", 1.0, "won by default"),
        ("0 forfeited", 0.0, "lost by default"),
    ],
)
def test_a_marked_player_result_is_not_graded(text: str, score: float, reason: str) -> None:
    # §1: "any game in which a player made no move" and any game marked def are not graded.
    assert parse_result(text) == PlayerResult(score, False, reason, text)


@pytest.mark.parametrize("text", ["half bye", "½ bye", "1/2 bye", "full bye", "0 bye", "1 bye"])
def test_a_bye_on_a_game_row_is_not_graded(text: str) -> None:
    assert parse_game_result(text) == GameResult(None, None, False, "bye", text)


@pytest.mark.parametrize(
    ("text", "home", "away", "reason"),
    [
        ("½-½ nm", 0.5, 0.5, "no move made"),
        ("½-½ def", 0.5, 0.5, "default"),
        ("0-0 def", 0.0, 0.0, "double default"),
        ("0-0 nm", 0.0, 0.0, "no move made"),
        ("0-1 nm", 0.0, 1.0, "no move made"),
        ("1-0 no move", 1.0, 0.0, "no move made"),
    ],
)
def test_a_marked_game_row_keeps_its_scores_and_says_why(
    text: str, home: float, away: float, reason: str
) -> None:
    assert parse_game_result(text) == GameResult(home, away, False, reason, text)


@pytest.mark.parametrize("text", ["-1", "-½", ":1"])
def test_a_row_with_one_side_missing_is_refused(text: str) -> None:
    with pytest.raises(ResultError) as error:
        parse_game_result(text)
    assert str(error.value) == f"result {text!r} not understood"


def test_a_blank_row_result_is_refused() -> None:
    with pytest.raises(ResultError, match=r"^result is blank$"):
        parse_game_result("   ")


def test_a_result_is_read_from_either_side_and_no_other() -> None:
    game = parse_game_result("1-0")
    assert game.for_player("home").score == 1.0
    assert game.for_player("away").score == 0.0
    with pytest.raises(ValueError, match=r"^side must be 'home' or 'away', not 'white'$"):
        game.for_player("white")
