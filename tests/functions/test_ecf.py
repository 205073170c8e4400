"""The ECF worksheet functions called as Excel calls them: floats, ``None`` for empty cells,
a cell as its value and a range as rows of cells. Expectations are the sources' worked
examples (docs/rules.md §2–§7)."""

import pytest
import xlgrade_udfs as xl

from tests.worked_examples import YCA_118_TABLE, YCA_GAMES

# The YCA 142 player's card (tests/worked_examples.py) as a grader types it: each result in one
# of the forms the functions take, the working grade [136] in brackets as the card shows it.
TYPED = ["½", 1.0, "1", 0.0, "W", 0.5, "win", "L", "1-0", 1.0, "0-1", 0.0, 1.0, "0", 1.0, 1.0, 1.0]
YCA_CARD = [
    (typed, f"[{game.opponent}]" if game.estimated else float(game.opponent), float(game.points))
    for typed, game in zip(TYPED, YCA_GAMES, strict=True)
]


def column(values: list[object]) -> list[list[object]]:
    """A one-column range as xlwings passes it (``ndim=2``)."""
    return [[v] for v in values]


class TestGradePoints:
    @pytest.mark.parametrize(("score", "at"), [(1.0, 0), (0.5, 1), (0.0, 2)])
    def test_yca_horizon_table_as_one_column(self, score: float, at: int) -> None:
        opponents = [float(o) for o in YCA_118_TABLE]
        got = xl.GRADE_POINTS(118.0, column(opponents), score)
        assert got == column([YCA_118_TABLE[o][at] for o in opponents])

    def test_yca_card_one_formula_for_the_whole_column(self) -> None:
        results = column([r for r, _, _ in YCA_CARD])
        opponents = column([o for _, o, _ in YCA_CARD])
        got = xl.GRADE_POINTS(142.0, opponents, results)
        assert got == column([p for _, _, p in YCA_CARD])
        assert sum(row[0] for row in got) == 2405.0  # "Total points gained = 2405"

    @pytest.mark.parametrize(("result", "opponent", "points"), YCA_CARD)
    def test_yca_card_cell_by_cell(self, result: object, opponent: object, points: float) -> None:
        assert xl.GRADE_POINTS(142.0, opponent, result) == points

    def test_every_column_may_be_a_range(self) -> None:
        got = xl.GRADE_POINTS([[118.0], [142.0]], [[165.0], [100.0]], [["½-½"], ["1-0"]])
        assert got == [[158.0], [152.0]]

    def test_a_flat_list_is_a_column(self) -> None:
        assert xl.GRADE_POINTS(118.0, [165.0, 70.0], ["1", "0"]) == [[208.0], [28.0]]

    def test_a_row_range_gives_a_row(self) -> None:
        assert xl.GRADE_POINTS(118.0, [[165.0, 130.0, 70.0]], 1.0) == [[208.0, 180.0, 128.0]]

    def test_blank_own_grade_is_ungraded_no_horizon(self) -> None:
        # 1997 leaflet: opponent + 50 for a win; the horizon needs the player's own grade.
        assert xl.GRADE_POINTS(None, 70.0, 1.0) == 120.0
        assert xl.GRADE_POINTS(118.0, 70.0, 1.0) == 128.0

    @pytest.mark.parametrize(
        ("opponent", "result"), [(None, 1.0), (100.0, None), (100.0, "  "), (None, None)]
    )
    def test_blank_in_blank_out(self, opponent: object, result: object) -> None:
        assert xl.GRADE_POINTS(142.0, opponent, result) == ""

    @pytest.mark.parametrize(
        ("result", "shown"),
        [
            ("+", "not graded: won by default"),
            ("-", "not graded: lost by default"),
            ("1d", "not graded: won by default"),
            ("1-0 def", "not graded: won by default"),
            ("0-1 def", "not graded: lost by default"),
            ("dd", "not graded: double default"),
            ("bye", "not graded: bye"),
            ("1-0 nm", "not graded: no move made"),
        ],
    )
    def test_defaults_are_not_graded(self, result: str, shown: str) -> None:
        assert xl.GRADE_POINTS(142.0, 100.0, result) == shown

    def test_a_bye_needs_no_opponent(self) -> None:
        assert xl.GRADE_POINTS(142.0, None, "bye") == "not graded: bye"

    def test_horizon_setting(self) -> None:
        # YCA: the horizon is a setting; 142 v 100 with 40 → 152, with none → 150, 50 → 150.
        assert xl.GRADE_POINTS(142.0, 100.0, 1.0, 40.0) == 152.0
        assert xl.GRADE_POINTS(142.0, 100.0, 1.0, "none") == 150.0
        assert xl.GRADE_POINTS(142.0, 100.0, 1.0, 50.0) == 150.0
        assert xl.GRADE_POINTS(142.0, 100.0, 1.0, 35.0) == 157.0
        assert xl.GRADE_POINTS(142.0, 100.0, 1.0) == 152.0

    def test_a_blank_horizon_cell_is_the_settings_default(self) -> None:
        # The Settings sheet: "Grading horizon in points (none: no horizon; blank: 40)".
        assert xl.GRADE_POINTS(142.0, 100.0, 1.0, None) == 152.0
        assert xl.GRADE_POINTS(142.0, 100.0, 1.0, "") == 152.0
        assert xl.GRADE_POINTS(142.0, 100.0, 1.0, "off") == 150.0
        assert xl.GRADE_POINTS(142.0, 100.0, 1.0, "no") == 150.0

    def test_horizon_may_differ_by_row(self) -> None:
        got = xl.GRADE_POINTS(142.0, 100.0, 1.0, [[40.0], [35.0], ["none"], [-1.0]])
        assert got == [[152.0], [157.0], [150.0], ["#VALUE! horizon -1 is not 0 or more"]]

    def test_points_below_zero_count_as_nought(self) -> None:
        # Published ECF practice (docs/rules.md §2): a loss to a player graded 30 → 0.
        assert xl.GRADE_POINTS(None, 30.0, 0.0) == 0.0

    @pytest.mark.parametrize(
        ("args", "message"),
        [
            ((142.0, 100.0, "x"), "#VALUE! result 'x' not understood"),
            ((142.0, 100.0, 2.0), "#VALUE! result 2 not understood (a score is 1, ½ or 0)"),
            (
                (142.0, 100.0, "1-1"),
                "#VALUE! result '1-1' not understood: the scores add up to 2, not 1",
            ),
            ((142.0, "abc", 1.0), "#VALUE! opponent_grade 'abc' is not a number"),
            ((True, 100.0, 1.0), "#VALUE! own_grade TRUE is not a number"),
            ((142.0, 100.0, True), "#VALUE! result TRUE not understood"),
            ((142.0, 100.0, 1.0, "wide"), "#VALUE! horizon 'wide' is not a number"),
        ],
    )
    def test_bad_input_messages(self, args: tuple[object, ...], message: str) -> None:
        assert xl.GRADE_POINTS(*args) == message

    def test_a_date_is_not_a_grade(self) -> None:
        import datetime as dt

        got = xl.GRADE_POINTS(142.0, dt.datetime(2025, 9, 1), 1.0)
        assert got == "#VALUE! opponent_grade 2025-09-01 is a date, not a number"

    def test_bad_rows_do_not_spoil_the_column(self) -> None:
        got = xl.GRADE_POINTS(
            column([118.0, "x", 118.0, 118.0]),
            column([165.0, 100.0, "?", 100.0]),
            column(["1", "1", "1", "draw?"]),
        )
        assert got == [
            [208.0],
            ["#VALUE! own_grade 'x' is not a number"],
            ["#VALUE! opponent_grade '?' is not a number"],
            ["#VALUE! result 'draw?' not understood"],
        ]

    def test_the_first_bad_argument_is_named(self) -> None:
        assert xl.GRADE_POINTS("x", "y", "z") == "#VALUE! own_grade 'x' is not a number"

    def test_ranges_of_different_sizes(self) -> None:
        got = xl.GRADE_POINTS(142.0, column([100.0, 110.0, 120.0]), column([1.0, 0.0]))
        assert got == (
            "#VALUE! result is 2 rows × 1 column but opponent_grade is 3 rows × 1 column: "
            "give ranges of the same size"
        )


class TestSeasonGrade:
    def test_yca_seventeen_games_alone(self) -> None:
        # YCA: "his grade would be 141 (2405 divided by 17)".
        assert xl.SEASON_GRADE(2405.0, 17.0) == 141

    def test_yca_borrowing_thirteen_games(self) -> None:
        # YCA: 2405 + 2754 × 13/19 over 30 games → 143.
        assert xl.SEASON_GRADE(2405.0, 17.0, 2754.0, 19.0, 3300.0, 24.0) == 143

    def test_leaflet_table_as_columns(self) -> None:
        # 1997 leaflet: 34/3400 → 100; 25/2900 + 10/1400 → 120; 18/2600 + 8/1000 + 12/1800
        # → 140; 8/700 + 6/560 + 7/630 → 90.
        got = xl.SEASON_GRADE(
            column([3400.0, 2900.0, 2600.0, 700.0]),
            column([34.0, 25.0, 18.0, 8.0]),
            column([None, 1400.0, 1000.0, 560.0]),
            column([None, 10.0, 8.0, 6.0]),
            column([None, None, 1800.0, 630.0]),
            column([None, None, 12.0, 7.0]),
        )
        assert got == [[100], [120], [140], [90]]

    def test_min_games_setting(self) -> None:
        # With a 20-game target, 3 of the 19 earlier games are borrowed: (2405 + 2754·3/19)/20.
        assert xl.SEASON_GRADE(2405.0, 17.0, 2754.0, 19.0, None, None, 20.0) == 142

    @pytest.mark.parametrize(("points", "games"), [(None, 17.0), (2405.0, None), (0.0, 0.0)])
    def test_blank_or_no_game_this_season(self, points: object, games: object) -> None:
        assert xl.SEASON_GRADE(points, games) == ""

    @pytest.mark.parametrize(
        ("args", "message"),
        [
            ((2405.0, 17.5), "#VALUE! games 17.5 is not a whole number"),
            ((2405.0, 17.0, 2754.0), "#VALUE! prev_games is blank but prev_points is 2754"),
            ((2405.0, 17.0, None, 19.0), "#VALUE! prev_points is blank but prev_games is 19"),
            ((2405.0, "seventeen"), "#VALUE! games 'seventeen' is not a number"),
            ((2405.0, -1.0), "#VALUE! games -1 must not be negative"),
        ],
    )
    def test_bad_input_messages(self, args: tuple[object, ...], message: str) -> None:
        assert xl.SEASON_GRADE(*args) == message


class TestGradeCategory:
    def test_leaflet_table(self) -> None:
        got = xl.GRADE_CATEGORY(
            column([34.0, 25.0, 18.0, 8.0]),
            column([None, 10.0, 8.0, 6.0]),
            column([None, None, 12.0, 7.0]),
        )
        assert got == [["A"], ["B"], ["C"], ["D"]]

    def test_yca_player(self) -> None:
        # YCA: 17 games alone → D; with 19 and 24 in the two seasons before → C.
        assert xl.GRADE_CATEGORY(17.0) == "D"
        assert xl.GRADE_CATEGORY(17.0, 19.0, 24.0) == "C"

    def test_star_and_no_game(self) -> None:
        # 1997 leaflet: fewer than 10 games in three seasons → *; none this season → no grade.
        assert xl.GRADE_CATEGORY(3.0, 3.0, 3.0) == "*"
        assert xl.GRADE_CATEGORY(0.0, 20.0, 20.0) == ""
        assert xl.GRADE_CATEGORY(None) == ""

    def test_ecf_2015_rule_set(self) -> None:
        # ECF 2015: E from 9 games in three seasons, F from 5.
        assert xl.GRADE_CATEGORY(1.0, 4.0, 4.0, "ecf2015") == "E"
        assert xl.GRADE_CATEGORY(1.0, 4.0, 4.0) == "*"
        assert xl.GRADE_CATEGORY(1.0, 2.0, 2.0, "ECF2015") == "F"

    def test_unknown_rule_set(self) -> None:
        assert xl.GRADE_CATEGORY(10.0, rule_set="xyz") == (
            "#VALUE! category rule set 'xyz' is not one of ['bcf1997', 'ecf2015']"
        )


class TestJuniorEnhancement:
    def test_leaflet_ages_as_a_column(self) -> None:
        # 1997 leaflet: under 11 → 10; 11–14 → 8; 15–17 → 6; 18 and over → 0.
        got = xl.JUNIOR_ENHANCEMENT(column([9.0, 10.0, 11.0, 14.0, 15.0, 17.0, 18.0, 40.0]))
        assert got == column([10, 10, 8, 8, 6, 6, 0, 0])

    def test_junior_of_unknown_age(self) -> None:
        # 1997 leaflet: "4 points are added for juniors of unknown age".
        assert xl.JUNIOR_ENHANCEMENT(None, True) == 4
        assert xl.JUNIOR_ENHANCEMENT(None, "yes") == 4
        assert xl.JUNIOR_ENHANCEMENT(None, None) == 0
        assert xl.JUNIOR_ENHANCEMENT(None, False) == 0

    @pytest.mark.parametrize(
        ("args", "message"),
        [
            ((10.5,), "#VALUE! age 10.5 is not a whole number of years"),
            (("ten",), "#VALUE! age 'ten' is not a number"),
            ((None, "maybe"), "#VALUE! is_junior 'maybe' is not TRUE or FALSE"),
        ],
    )
    def test_bad_input_messages(self, args: tuple[object, ...], message: str) -> None:
        assert xl.JUNIOR_ENHANCEMENT(*args) == message

    def test_a_date_of_birth_is_not_an_age(self) -> None:
        import datetime as dt

        got = xl.JUNIOR_ENHANCEMENT(dt.datetime(2012, 5, 1))
        assert got == "#VALUE! age 2012-05-01 is a date; give the age in years"


class TestPerformanceGrade:
    def test_yca_card_without_horizon(self) -> None:
        # docs/rules.md §6: opponent ± 50 with no horizon. The YCA card's 2405 less what the
        # horizon added (games 10, 14, 15, 16: 2 + 3 + 8 + 1) is 2391; 2391/17 = 140.6 → 141.
        got = xl.PERFORMANCE_GRADE(
            column([o for _, o, _ in YCA_CARD]), column([r for r, _, _ in YCA_CARD])
        )
        assert got == 141

    def test_defaults_and_unplayed_rows_are_left_out(self) -> None:
        # 150 + 100 + 50 = 300 over 3 games → 100; the default and the empty row do not count.
        got = xl.PERFORMANCE_GRADE(
            [[100.0], [100.0], [100.0], [160.0], [None], [170.0]],
            [["1"], ["½"], ["0"], ["+"], [None], [None]],
        )
        assert got == 100

    def test_only_defaults(self) -> None:
        assert xl.PERFORMANCE_GRADE([[100.0]], [["1-0 def"]]) == "not graded: no game counts"
        assert xl.PERFORMANCE_GRADE([[None]], [[None]]) == ""

    @pytest.mark.parametrize(
        ("grades", "results", "message"),
        [
            (
                [[100.0], [110.0]],
                [["1"]],
                "#VALUE! opponent_grades has 2 cells but results has 1: "
                "give one result per opponent",
            ),
            (
                [[None]],
                [["1"]],
                "#VALUE! opponent_grades item 1 is blank but results item 1 is '1'",
            ),
            (
                [[100.0], [110.0]],
                [["1"], ["?"]],
                "#VALUE! results item 2: result '?' not understood",
            ),
            (
                [[100.0], ["x"]],
                [["1"], ["0"]],
                "#VALUE! opponent_grades item 2 'x' is not a number",
            ),
        ],
    )
    def test_bad_input_messages(self, grades: object, results: object, message: str) -> None:
        assert xl.PERFORMANCE_GRADE(grades, results) == message


class TestGradeExpected:
    def test_leaflet_linear(self) -> None:
        # 1997 leaflet: under 10 apart → 50 %; 10 → 60 %; 20 → 70 %.
        got = xl.GRADE_EXPECTED(150.0, column([145.0, 140.0, 130.0, 160.0]))
        assert got == column([0.5, 0.6, 0.7, 0.4])

    def test_chesterfield_elo_based(self) -> None:
        # Chesterfield page, table 1: BCF difference 46 ↔ 90 %, 30 ↔ 80 %, 19 ↔ 70 %, 9 ↔ 60 %.
        got = xl.GRADE_EXPECTED([[146.0, 130.0, 119.0, 109.0]], 100.0, "elo")
        assert got == [[0.9, 0.8, 0.7, 0.6]]

    def test_unknown_model(self) -> None:
        assert xl.GRADE_EXPECTED(150.0, 140.0, "normal") == (
            "#VALUE! expected-score model 'normal' is not 'linear' or 'elo'"
        )

    def test_blank(self) -> None:
        assert xl.GRADE_EXPECTED(None, 140.0) == ""
