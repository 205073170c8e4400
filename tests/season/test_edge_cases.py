"""The season recalculation on inputs at the edges: rapid cards, unanchored groups graded by
the default, two rounds in a day, the order of the checks, the reader's rows in the
accounting, settings refused up front, and values of the wrong type from the API."""

import datetime as dt

import numpy as np
import pytest

from xlgrade.ecf import season_grade
from xlgrade.errors import GradeError, SettingError
from xlgrade.model import DatedPoints, EarlierSeason, Game, Player, Problem
from xlgrade.season import recalculate
from xlgrade.settings import Settings

DAY = dt.date(2025, 9, 1)


def reasons(season: object) -> list[tuple[str, int | None, str, str]]:
    return [tuple(p) for p in season.problems]  # type: ignore[attr-defined]


def test_a_rapid_card_borrows_nothing_like_the_rapid_list() -> None:
    # Standard-play history on the Players table is not borrowed by a rapid grade: one rapid
    # win against a 150 is 150 + 50 = 200 points, a grade of 200 from one game, category *
    # (fewer than 10 games over three years on the rapid list).
    players = [
        Player("A A", grade=150, previous=EarlierSeason(20, 2000.0), row=2),
        Player("B B", grade=150, row=3),
    ]
    games = [Game("A A", "B B", "1-0", DAY, time_control="30", row=2)]
    season = recalculate(players, games, Settings())
    card = season.card(0, "rapid")
    assert (card.grade.grade, card.grade.games, card.grade.borrowed_games) == (200, 1, 0)
    assert card.grade.category == "*"
    assert (season.rapid.grade[0], season.rapid.category[0]) == (200, "*")
    assert season.rapid.borrowed_games[0] == 0


def test_an_unanchored_group_is_reported_when_the_default_grades_it() -> None:
    players = [
        Player("A A", row=2),
        Player("B B", row=3),
        Player("C C", grade=100, row=4),
        Player("D D", grade=100, row=5),
    ]
    games = [Game("A A", "B B", "1-0", DAY, row=2), Game("C C", "D D", "1-0", DAY, row=3)]
    season = recalculate(players, games, Settings(unanchored_grade=100))
    assert season.accounting.standard_graded == 2
    why = (
        "{} is one of 2 ungraded players ('A A', 'B B') with no graded opponent on the "
        "standard list: given the unanchored grade 100"
    )
    assert reasons(season) == [
        ("Players", 2, "unanchored", why.format("'A A'")),
        ("Players", 3, "unanchored", why.format("'B B'")),
    ]


def test_an_unanchored_players_long_name_is_quoted_shortened() -> None:
    long = "L" * 70
    players = [Player(long, row=2), Player("B B", row=3)]
    season = recalculate(
        players, [Game(long, "B B", "1-0", DAY, row=2)], Settings(unanchored_grade=100)
    )
    named = f"'{'L' * 58}…' (70 characters)"
    assert reasons(season)[0] == (
        "Players",
        2,
        "unanchored",
        f"{named} is one of 2 ungraded players ({named}, 'B B') with no graded opponent on the "
        "standard list: given the unanchored grade 100",
    )


def rapid_day(*rows: tuple[str, str, str, str]) -> list[Game]:
    return [
        Game(home, away, result, DAY, event="Rapidplay", match=match, time_control="15+10", row=n)
        for n, (home, away, result, match) in enumerate(rows, start=2)
    ]


PAIR = [Player("A A", grade=120, row=2), Player("B B", grade=120, row=3)]


def test_two_rounds_on_one_day_are_two_games() -> None:
    games = rapid_day(("A A", "B B", "1-0", "Round 1"), ("B B", "A A", "1-0", "Round 2"))
    season = recalculate(PAIR, games, Settings())
    assert season.accounting.rapid_graded == 2
    assert season.problems == ()


@pytest.mark.parametrize("second", ["R1", "1", "rd. 1", "Round 1", ""])
def test_the_same_round_entered_twice_is_still_one_game(second: str) -> None:
    games = rapid_day(("A A", "B B", "1-0", "Round 1"), ("B B", "A A", "0-1", second))
    season = recalculate(PAIR, games, Settings())
    assert season.accounting.rapid_graded == 1
    assert reasons(season) == [
        (
            "Results",
            3,
            "duplicate game",
            "the same game as row 2 ('A A' v 'B B', '0-1'): graded once",
        )
    ]


def test_entries_of_one_round_that_disagree_are_not_graded_beside_another_round() -> None:
    games = rapid_day(
        ("A A", "B B", "1-0", "Round 1"),
        ("A A", "B B", "0-1", "Round 1"),
        ("A A", "B B", "½-½", "Round 2"),
    )
    season = recalculate(PAIR, games, Settings())
    assert season.accounting.rapid_graded == 1
    why = (
        "the same game entered 2 times with different results (row 2 '1-0', row 3 '0-1'): "
        "not graded until corrected"
    )
    assert reasons(season) == [
        ("Results", 2, "duplicate disagrees", why),
        ("Results", 3, "duplicate disagrees", why),
    ]


@pytest.mark.parametrize("result", ["bye", "1-0 def", "+ -"])
def test_a_default_outside_the_season_is_reported_as_outside_the_season(result: str) -> None:
    games = [Game("A A", "B B", result, dt.date(2020, 1, 1), row=2)]
    season = recalculate(PAIR, games, Settings())
    assert reasons(season) == [
        (
            "Results",
            2,
            "date outside season",
            "2020-01-01 is outside the season 2025-06-01 to 2026-05-31",
        )
    ]


def test_a_bye_in_the_season_is_a_default() -> None:
    season = recalculate(PAIR, [Game("A A", "B B", "bye", DAY, row=2)], Settings())
    [(sheet, row, what, _)] = reasons(season)
    assert (sheet, row, what) == ("Results", 2, "default")


def test_rows_the_reader_could_not_read_are_in_the_reasons_once_each() -> None:
    unread = [
        Problem("Results", 7, "bad date", "cell D7 (Date): '31/02/2026' is not a date"),
        Problem("Results", 7, "bad board", "cell H7 (Board): 'x' is not a whole number"),
        Problem("Results", 8, "incomplete row", "cell C8 (Away player) is blank"),
        Problem("Results", 1, "missing column", "no column headed 'Board' on the Results sheet"),
        Problem("Players", 4, "bad grade", "cell F4 (Grade): '12O' is not a number"),
    ]
    season = recalculate(PAIR, [Game("A A", "B B", "1-0", DAY, row=2)], Settings(), problems=unread)
    accounting = season.accounting
    assert (accounting.rows, accounting.standard_graded, accounting.excepted) == (3, 1, 2)
    assert accounting.by_reason == {"bad date": 1, "incomplete row": 1}
    assert accounting.balanced
    assert accounting.summary() == (
        "3 result rows: 1 graded, 0 rapidplay, 2 not graded (1 bad date, 1 incomplete row)"
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"category_rules": "ecf-2015"},
            "Category rules 'ecf-2015' is not one of 'bcf1997', 'ecf2015'",
        ),
        (
            {"borrowing": "most-recent"},
            "Borrowing rule 'most-recent' is not one of 'pro_rata', 'most_recent'",
        ),
        ({"elo_period": "week"}, "Elo period 'week' is not one of 'season', 'month'"),
        (
            {"conversion": "uscf"},
            "Conversion 'uscf' is not one of 'fide', 'national', 'ecf2020'",
        ),
    ],
)
def test_settings_no_list_could_use_are_refused_up_front(
    change: dict[str, str], message: str
) -> None:
    with pytest.raises(SettingError) as raised:
        recalculate(PAIR, [], Settings(**change))  # type: ignore[arg-type]
    assert str(raised.value) == message


def test_an_unknown_elo_policy_is_refused_up_front() -> None:
    with pytest.raises(SettingError, match=r"^Elo K policy 'fide' is not one of 'chesterfield'"):
        recalculate(PAIR, [], Settings(elo_k_policy="fide"))


def test_numpy_numbers_are_grades_and_booleans_are_not() -> None:
    players = [
        Player("A A", grade=np.float64(150), row=2),
        Player("B B", grade=np.int64(140), row=3),
        Player("C C", grade=True, row=4),  # type: ignore[arg-type]
    ]
    games = [Game("A A", "B B", "1-0", DAY, row=2), Game("C C", "B B", "0-1", DAY, row=3)]
    season = recalculate(players, games, Settings())
    # A: 140 + 50 = 190 from one game; the True is left out, so C is ungraded.
    assert season.standard.grade[0] == 190
    assert reasons(season) == [
        ("Players", 4, "bad grade", "start grade True of 'C C' is not a number: left out")
    ]


def test_dates_that_are_datetimes_are_read_as_their_day() -> None:
    settings = Settings(
        season_start=dt.datetime(2025, 6, 1, 0, 0),  # type: ignore[arg-type]
        season_end=dt.datetime(2026, 5, 31, 0, 0),  # type: ignore[arg-type]
    )
    players = [
        Player("A A", grade=120, date_of_birth=dt.datetime(2012, 3, 4, 5, 6), row=2),
        Player("B B", grade=120, row=3),
    ]
    season = recalculate(players, [Game("A A", "B B", "1-0", DAY, row=2)], settings)
    assert season.problems == ()
    # Born 4 March 2012, 14 on 1 June 2026: §5's enhancement for 14 is 8 points.
    assert season.standard.enhancement[0] == 8


def test_a_birth_date_that_is_not_a_date_or_is_too_late_is_left_out() -> None:
    players = [
        Player("A A", grade=120, date_of_birth=dt.date(2027, 1, 1), row=2),
        Player("B B", grade=120, date_of_birth="2010-01-01", row=3),  # type: ignore[arg-type]
    ]
    season = recalculate(players, [Game("A A", "B B", "1-0", DAY, row=2)], Settings())
    assert reasons(season) == [
        (
            "Players",
            2,
            "bad date of birth",
            "date of birth 2027-01-01 of 'A A' is after 2026-06-01, the day ages are taken: "
            "left out",
        ),
        (
            "Players",
            3,
            "bad date of birth",
            "date of birth '2010-01-01' of 'B B' is not a date: left out",
        ),
    ]
    assert season.accounting.standard_graded == 1
    # A long one is quoted shortened, with its length.
    long = [Player("C C", date_of_birth="1" * 70, row=2)]  # type: ignore[arg-type]
    [problem] = recalculate(long, [], Settings()).problems
    assert (
        problem.why
        == f"date of birth '{'1' * 58}…' (70 characters) of 'C C' is not a date: left out"
    )


def test_names_clubs_and_codes_that_are_not_text_are_read_as_text() -> None:
    players = [
        Player(None, grade=100, row=2),  # type: ignore[arg-type]
        Player("B B", club=None, code=210988, grade=100, row=3),  # type: ignore[arg-type]
        Player("C C", grade=120, row=4),
    ]
    games = [Game("C C", "B B", "1-0", DAY, event=None, row=2)]  # type: ignore[arg-type]
    season = recalculate(players, games, Settings(under_12_divisions="Under 12"))
    assert season.accounting.standard_graded == 1
    assert reasons(season) == [
        (
            "Players",
            3,
            "bad code",
            "ECF code '210988' must be six digits and a check letter, like '210988J'; games "
            "are matched to it as typed",
        )
    ]


def test_most_recent_borrowing_orders_datetimes_with_dates() -> None:
    # 28 games at 100 this season; the two most recent earlier games are borrowed: 180 and
    # 160, whatever type their dates have. (2800 + 340) / 30 = 104.67 → 105.
    earlier = [
        DatedPoints(dt.datetime(2025, 3, 1, 19, 30), 180.0),
        DatedPoints(dt.date(2025, 2, 1), 160.0),
        DatedPoints(dt.date(2024, 1, 1), 0.0),
    ]
    grade = season_grade(2800.0, 28, [], borrowing="most_recent", earlier_games=earlier)
    assert (grade.grade, grade.borrowed_games, grade.borrowed_points) == (105, 2, 340.0)


def test_an_earlier_game_with_no_date_is_an_error_naming_it() -> None:
    earlier = [DatedPoints("last March", 180.0)]  # type: ignore[arg-type]
    with pytest.raises(GradeError, match=r"^earlier game date 'last March' is not a date$"):
        season_grade(2800.0, 28, [], borrowing="most_recent", earlier_games=earlier)


def test_a_played_game_and_a_default_for_it_disagree() -> None:
    games = [Game("A A", "B B", "1-0", DAY, row=2), Game("B B", "A A", "0-1 def", DAY, row=3)]
    season = recalculate(PAIR, games, Settings())
    why = (
        "the same game entered 2 times with different results (row 2 '1-0', row 3 '0-1 def'): "
        "not graded until corrected"
    )
    assert reasons(season) == [
        ("Results", 2, "duplicate disagrees", why),
        ("Results", 3, "duplicate disagrees", why),
    ]
    assert season.accounting.standard_graded == 0


def test_a_default_entered_by_both_clubs_is_two_defaults() -> None:
    games = [Game("A A", "B B", "1-0 def", DAY, row=2), Game("B B", "A A", "0-1 def", DAY, row=3)]
    season = recalculate(PAIR, games, Settings())
    assert [what for _, _, what, _ in reasons(season)] == ["default", "default"]
    assert season.accounting.balanced


def test_a_grade_off_the_ecf_scale_is_left_out() -> None:
    players = [
        Player("A A", grade=999, row=2),
        Player("B B", grade=-40, row=3),
        Player("C C", grade=120, estimated_grade=1850, row=4),
    ]
    season = recalculate(players, [], Settings())
    assert reasons(season) == [
        ("Players", 2, "bad grade", "start grade 999 of 'A A' is not a grade on the ECF scale "
         "(0 to 400): left out"),
        ("Players", 3, "bad grade", "start grade -40 of 'B B' is not a grade on the ECF scale "
         "(0 to 400): left out"),
        ("Players", 4, "bad grade", "estimated grade 1850 of 'C C' is not a grade on the ECF "
         "scale (0 to 400): left out"),
    ]  # fmt: skip
    assert np.isnan(season.standard.working.grades[0])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"unanchored_grade": 5000}, "Unanchored grade 5000 is not from 0 to 400"),
        ({"inactivity_allowance": -20}, "Inactivity allowance -20 is not from 0 to 400"),
    ],
)
def test_settings_off_the_scale_are_refused(change: dict[str, float], message: str) -> None:
    with pytest.raises(SettingError) as raised:
        recalculate(PAIR, [], Settings(**change))  # type: ignore[arg-type]
    assert str(raised.value) == message


def test_most_recent_borrowing_with_no_dated_games_borrows_pro_rata_and_says_so() -> None:
    # Ten draws with a 120 (120 points each, §2) and a previous season of 20 games at 100 a
    # game: the 20 games still needed come pro rata, (1200 + 2000) / 30 = 106.67 → 107.
    players = [Player("A A", grade=150, previous=EarlierSeason(20, 2000.0), row=2), PAIR[1]]
    games = [Game("A A", "B B", "½-½", DAY + dt.timedelta(days=n), row=n + 2) for n in range(10)]
    season = recalculate(players, games, Settings(borrowing="most_recent"))
    assert season.standard.grade[0] == 107
    assert season.card(0).grade.grade == 107
    assert reasons(season) == [
        (
            "Settings",
            None,
            "borrowing",
            "the 'most_recent' borrowing rule needs each player's dated earlier games, and none "
            "are given (the Players table holds each season's totals): earlier seasons are "
            "borrowed pro rata",
        )
    ]
