"""The team-sheet functions: BOARD_ORDER, TEAM_TOTAL, TEAM_ELIGIBLE, with cells as Excel passes
them (a column as rows of one cell, numbers as floats, blanks as None). The handbooks' worked
cases (docs/rules.md §13, issue 15), the arithmetic written out."""

from __future__ import annotations

import datetime as dt
from typing import ClassVar

import xlgrade_udfs as xl


def column(*cells: object) -> list[list[object]]:
    return [[cell] for cell in cells]


class TestBoardOrder:
    def test_nottinghamshire_20(self) -> None:
        # Board 3: 134 − 112 = 22 > 20; board 2 is below board 1.
        assert xl.BOARD_ORDER(column(140.0, 112.0, 134.0), 20.0) == [
            [""],
            [""],
            ["board 3 (134) is more than 20 above board 2 (112)"],
        ]

    def test_exactly_the_tolerance_and_ungraded_players(self) -> None:
        # 132 − 112 = 20 is not more than 20; a blank (ungraded) board is not compared.
        assert xl.BOARD_ORDER(column(112.0, None, 132.0, 200.0), 20.0) == [
            [""],
            [""],
            [""],
            ["board 4 (200) is more than 20 above board 1 (112)"],
        ]

    def test_a_row_of_boards_keeps_its_shape(self) -> None:
        assert xl.BOARD_ORDER([[100.0, 116.0]], 15.0) == [
            ["", "board 2 (116) is more than 15 above board 1 (100)"]
        ]

    def test_a_bad_cell_shows_its_message_and_the_rest_are_checked(self) -> None:
        assert xl.BOARD_ORDER(column(100.0, "x", 130.0), 20.0) == [
            [""],
            ["#VALUE! grades item 2 'x' is not a number"],
            ["board 3 (130) is more than 20 above board 1 (100)"],
        ]

    def test_no_tolerance_no_rule(self) -> None:
        assert xl.BOARD_ORDER(column(100.0, 300.0), None) == [[""], [""]]

    def test_a_bad_tolerance(self) -> None:
        assert xl.BOARD_ORDER(column(100.0), -5.0) == (
            "#VALUE! Board order tolerance -5.0 is not 0 or more"
        )
        assert xl.BOARD_ORDER(column(100.0), column(1.0, 2.0)) == (
            "#VALUE! tolerance must be a single cell, not 2 rows × 1 column"
        )


class TestTeamTotal:
    def test_southend_minor(self) -> None:
        # 125 + 120 + 110 + 75 (74 counts as 75) = 430.
        assert xl.TEAM_TOTAL(column(125.0, 120.0, 110.0, 74.0), 75.0) == 430
        # Without a minimum counting grade: 125 + 120 + 110 + 74 = 429.
        assert xl.TEAM_TOTAL(column(125.0, 120.0, 110.0, 74.0)) == 429

    def test_sheffield_ungraded_80(self) -> None:
        # 120 + 110 + 90 + 80 (ungraded) = 400.
        assert xl.TEAM_TOTAL(column(120.0, 110.0, 90.0, None), 80.0, 80.0) == 400
        # An ungraded player with no value is not counted: 120 + 110 + 90 = 320.
        assert xl.TEAM_TOTAL(column(120.0, 110.0, 90.0, None)) == 320
        # With only a minimum, he counts at it: 320 + 75 = 395.
        assert xl.TEAM_TOTAL(column(120.0, 110.0, 90.0, None), 75.0) == 395

    def test_blank_in_blank_out(self) -> None:
        assert xl.TEAM_TOTAL(column(None, None)) == ""

    def test_bad_input(self) -> None:
        assert xl.TEAM_TOTAL(column(100.0, "abc")) == "#VALUE! grades item 2 'abc' is not a number"
        assert xl.TEAM_TOTAL(column(100.0), "low") == "#VALUE! min_counting 'low' is not a number"


class TestTeamEligible:
    SOUTHEND: ClassVar[dict[str, float]] = {
        "max_total": 440.0,
        "max_grade": 125.0,
        "min_counting": 75.0,
    }

    def test_southend_minor_430_is_eligible(self) -> None:
        assert xl.TEAM_ELIGIBLE(column(125.0, 120.0, 110.0, 74.0), **self.SOUTHEND) is True

    def test_southend_minor_450_is_not(self) -> None:
        # 125 + 125 + 120 + 80 = 450 > 440.
        assert xl.TEAM_ELIGIBLE(column(125.0, 125.0, 120.0, 80.0), **self.SOUTHEND) == (
            "the team counts 125 + 125 + 120 + 80 = 450, more than the maximum 440"
        )

    def test_the_first_rule_broken(self) -> None:
        # 130 > 125 is listed before the total 130 + 125 + 120 + 80 = 455 > 440.
        assert xl.TEAM_ELIGIBLE(column(130.0, 125.0, 120.0, 80.0), **self.SOUTHEND) == (
            "board 1 (130) is over the maximum grade 125"
        )

    def test_somerset_division_3_average(self) -> None:
        # 145 + 140 + 130 + 95 (90 counts as 95) = 510; 510 / 4 = 127.5 > 125.
        assert xl.TEAM_ELIGIBLE(
            column(145.0, 140.0, 130.0, 90.0),
            max_grade=145.0,
            min_counting=95.0,
            max_average=125.0,
        ) == (
            "the team's average is 510 / 4 = 127.5, more than the maximum 125: "
            "board 4 (90) counts as 95"
        )
        # 145 + 130 + 120 + 95 = 490; 490 / 4 = 122.5.
        assert (
            xl.TEAM_ELIGIBLE(
                column(145.0, 130.0, 120.0, 90.0),
                max_grade=145.0,
                min_counting=95.0,
                max_average=125.0,
            )
            is True
        )

    def test_sheffield_400_league_ungraded(self) -> None:
        # 120 + 110 + 95 + 80 (ungraded) = 405 > 400.
        assert xl.TEAM_ELIGIBLE(column(120.0, 110.0, 95.0, None), 400.0, 120.0, 80.0, 80.0) == (
            "the team counts 120 + 110 + 95 + 80 = 405, more than the maximum 400: "
            "board 4 (ungraded) counts as 80"
        )

    def test_no_rules_and_blank(self) -> None:
        assert xl.TEAM_ELIGIBLE(column(300.0, 290.0)) is True
        assert xl.TEAM_ELIGIBLE(column(None)) == ""

    def test_bad_input(self) -> None:
        assert xl.TEAM_ELIGIBLE(column(100.0), max_total=-1.0) == (
            "#VALUE! Max total -1.0 is not 0 or more"
        )
        assert xl.TEAM_ELIGIBLE(column("x")) == "#VALUE! grades item 1 'x' is not a number"


class TestTheHandbooksOptions:
    def test_an_estimate_beside_the_grades(self) -> None:
        # Nottinghamshire: Kay is ungraded, estimated 134 by the grading officer: 134 − 112 = 22.
        assert xl.BOARD_ORDER(column(140.0, 112.0, None), 20.0, column(None, None, 134.0)) == [
            [""],
            [""],
            ["board 3 (134, estimated grade) is more than 20 above board 2 (112)"],
        ]
        # Sheffield 400: 120 + 110 + 90 + 95 (estimated) = 415, not 400 with ungraded at 80.
        grades, estimates = column(120.0, 110.0, 90.0, None), column(None, None, None, 95.0)
        assert xl.TEAM_TOTAL(grades, 80.0, 80.0) == 400
        assert xl.TEAM_TOTAL(grades, 80.0, 80.0, estimates) == 415
        assert xl.TEAM_ELIGIBLE(grades, 400.0, 120.0, 80.0, 80.0, None, estimates) == (
            "the team counts 120 + 110 + 90 + 95 = 415, more than the maximum 400: board 4 "
            "(95, estimated grade)"
        )

    def test_a_blank_estimates_cell_is_no_estimates(self) -> None:
        # One blank cell for the estimates (Office.js sends "" for it): 150 then 160 is 10
        # above board 1, within the tolerance of 20, as with no estimates at all.
        for blank in (None, "", [[None]], [[""]]):
            assert xl.BOARD_ORDER(column(150.0, 160.0), 20.0, blank) == [[""], [""]]

    def test_juniors_adjacent_boards_and_higher_by(self) -> None:
        # Northamptonshire: 100 + 100 for the junior on board 2: 310 − 120 = 190 is allowed.
        assert xl.BOARD_ORDER(column(120.0, 310.0), 100.0, None, column(None, "yes"), 100.0) == [
            [""],
            [""],
        ]
        # Shropshire: strict order, adjacent boards within 10: 130 after 120 is allowed.
        assert xl.BOARD_ORDER(column(120.0, 130.0), 0.0, None, None, None, 10.0) == [[""], [""]]
        # North Staffs: "not above a player 15 points higher": 115 after 100 breaks it.
        assert xl.BOARD_ORDER(column(100.0, 115.0), None, higher_by=15.0) == [
            [""],
            ["board 2 (115) is 15 or more above board 1 (100)"],
        ]

    def test_4ncl_averages(self) -> None:
        # 2000 + 1900 + 1700 + 1600 = 7200; 7200 / 4 = 1800 < 1850.
        assert xl.TEAM_ELIGIBLE(column(2000.0, 1900.0, 1700.0, 1600.0), min_average=1850.0) == (
            "the team's average is 7200 / 4 = 1800, less than the minimum 1850"
        )
        # The top two: 2300 + 2250 = 4550, an average of 2275 > 2250.
        assert xl.TEAM_ELIGIBLE(
            column(2300.0, 2250.0, 1800.0), top_boards=2.0, max_top_average=2250.0
        ) == (
            "the top 2 boards count 2300 + 2250 = 4550, an average of 2275, more than the "
            "maximum 2250"
        )

    def test_ranges_that_do_not_fit(self) -> None:
        # A blank cell for the estimates is none; one cell for two boards does not fit.
        assert xl.BOARD_ORDER(column(100.0, 120.0), 20.0, None) == [[""], [""]]
        assert xl.BOARD_ORDER(column(100.0, 120.0), 20.0, column(1.0)) == (
            "#VALUE! estimates has 1 cell where the grades have 2"
        )
        assert xl.BOARD_ORDER(column(100.0, 120.0), 20.0, column(1.0, 2.0, 3.0)) == (
            "#VALUE! estimates has 3 cells where the grades have 2"
        )
        assert xl.BOARD_ORDER(column(100.0), 20.0, None, column("maybe")) == [
            ["#VALUE! juniors item 1 'maybe' is not TRUE or FALSE"]
        ]
        assert xl.TEAM_ELIGIBLE(column(100.0), top_boards=2.5, max_top_average=1.0) == (
            "#VALUE! Top boards 2.5 is not whole"
        )


class TestListRating:
    # The Ratings sheet after September's and January's lists: X 1850 then 1780, Y 1750 then
    # 1900 (Croydon, Devon: the list in force on the match date).
    RATINGS: ClassVar = [
        ["Code", "Name", "List", "ECF rating", "ECF category", "ECF rapid rating"],
        ["123456A", "X", "2025-09", 1850.0, "K", 1800.0],
        ["111111F", "Y", "2025-09", 1750.0, "K", None],
        ["123456A", "X", "2026-01", 1780.0, "K", None],
        ["111111F", "Y", "2026-01", 1900.0, "K", None],
    ]

    def test_the_list_in_force_on_a_date_or_a_named_edition(self) -> None:
        codes = column("123456A", "111111F", None, "999999X")
        september = [[1850.0], [1750.0], [""], [""]]
        assert xl.LIST_RATING(codes, dt.datetime(2025, 9, 20), self.RATINGS) == september
        assert xl.LIST_RATING(codes, "September 2025", self.RATINGS) == september
        # 1 January is January's: the ECF issues a month's list on its first day.
        assert xl.LIST_RATING(codes, dt.datetime(2026, 1, 1), self.RATINGS) == [
            [1780.0], [1900.0], [""], [""]
        ]  # fmt: skip
        # Office.js passes a date as its serial number: 46042 is 20 January 2026.
        assert xl.LIST_RATING("111111F", 46042, self.RATINGS) == 1900.0
        assert xl.LIST_RATING("123456A", "2025-09", self.RATINGS, True) == 1800.0

    def test_refusals(self) -> None:
        assert xl.LIST_RATING("123456A", dt.datetime(2025, 8, 31), self.RATINGS) == (
            "#VALUE! no list loaded was in force on 2025-08-31 (loaded: September 2025, "
            "January 2026)"
        )
        assert xl.LIST_RATING("123456A", "October 2025", self.RATINGS) == (
            "#VALUE! the October 2025 list is not in the ratings (loaded: September 2025, "
            "January 2026)"
        )
        assert xl.LIST_RATING("123456A", "match date", self.RATINGS) == (
            "#VALUE! 'match date': give the match's date, the list in force on it"
        )
        bad = [*self.RATINGS, ["222222L", "Z", "2025-09", "high", None, None]]
        assert xl.LIST_RATING("123456A", "2025-09", bad) == (
            "#VALUE! ratings row 6: ECF rating: 'high' is not a number"
        )
        assert xl.LIST_RATING("123456A", "2025-09", [["Code", "Name"]]) == (
            "#VALUE! ratings has no column headed 'List': give the Ratings table, its header "
            "row first"
        )
