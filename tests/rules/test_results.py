"""docs/rules.md §1: every result form a grader types, defaults, and bad input.

Results (docs/rules.md §1): the corners — values that are not text,
markers on a drawn or double-lost game, byes written out, and the side a row is read from.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlgrade.errors import ResultError
from xlgrade.results import GameResult, PlayerResult, parse_game_result, parse_result


@pytest.mark.parametrize(
    ("text", "score"),
    [
        ("1", 1.0), ("0", 0.0), ("0.5", 0.5), ("½", 0.5), ("=", 0.5),
        ("W", 1.0), ("D", 0.5), ("L", 0.0), ("draw", 0.5), ("w", 1.0), (" Draw ", 0.5),
        (1.0, 1.0), (0.5, 0.5), (0, 0.0),
    ],
)  # fmt: skip
def test_one_player_forms(text: object, score: float) -> None:
    result = parse_result(text)
    assert (result.score, result.graded, result.reason) == (score, True, None)


@pytest.mark.parametrize(
    ("text", "home", "away"),
    [
        ("1-0", 1.0, 0.0), ("0-1", 0.0, 1.0), ("½-½", 0.5, 0.5), ("1/2-1/2", 0.5, 0.5),
        ("0.5-0.5", 0.5, 0.5), ("=-=", 0.5, 0.5), ("1:0", 1.0, 0.0), ("1 - 0", 1.0, 0.0),
        ("1–0", 1.0, 0.0), ("W", 1.0, 0.0), ("½", 0.5, 0.5), ("0", 0.0, 1.0),
    ],
)  # fmt: skip
def test_game_row_forms_from_the_home_side(text: str, home: float, away: float) -> None:
    result = parse_game_result(text)
    assert (result.home, result.away, result.graded) == (home, away, True)
    assert result.for_player("away").score == away


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("+", "won by default"), ("-", "lost by default"), ("1d", "won by default"),
        ("d1", "won by default"), ("dd", "double default"), ("def", "default"),
        ("bye", "bye"), ("1 def", "won by default"),
    ],
)  # fmt: skip
def test_player_defaults_are_not_graded(text: str, reason: str) -> None:
    result = parse_result(text)
    assert not result.graded
    assert result.reason == reason


@pytest.mark.parametrize(
    ("text", "home", "reason"),
    [
        ("+", 1.0, "home won by default"), ("-", 0.0, "away won by default"),
        ("+-", 1.0, "home won by default"), ("-+", 0.0, "away won by default"),
        ("--", 0.0, "double default"), ("dd", 0.0, "double default"),
        ("1-0 def", 1.0, "home won by default"), ("0-1 def", 0.0, "away won by default"),
        ("def 1-0", 1.0, "home won by default"), ("1d", 1.0, "home won by default"),
        ("1-0 nm", 1.0, "no move made"), ("bye", None, "bye"), ("def", None, "default"),
    ],
)  # fmt: skip
def test_row_defaults_are_kept_with_the_reason(text: str, home: float | None, reason: str) -> None:
    result = parse_game_result(text)
    assert (result.graded, result.home, result.reason) == (False, home, reason)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x", "result 'x' not understood"),
        ("1-1", "result '1-1' not understood: the scores add up to 2, not 1"),
        ("0-0", "result '0-0' not understood: the scores add up to 0, not 1"),
        ("2-0", "result '2-0' not understood"),
        ("", "result is blank"),
        ("1-O", "result '1-O' not understood"),
        (0.25, "result 0.25 not understood (a score is 1, ½ or 0)"),
    ],
)
def test_anything_else_is_an_error_quoting_it(text: object, message: str) -> None:
    with pytest.raises(ResultError) as raised:
        parse_game_result(text)
    assert str(raised.value) == message


@given(st.text(max_size=12))
def test_any_text_is_a_result_or_a_result_error(text: str) -> None:
    for parse in (parse_result, parse_game_result):
        try:
            result = parse(text)
        except ResultError as error:
            message = str(error)
            assert message.startswith("result ")
        else:
            assert result.text == text


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
