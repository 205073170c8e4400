"""Conversions, ECF codes, FIDE Elo and Glicko worksheet functions, called as Excel calls them.
Expectations: docs/rules.md §8–§10, the Chesterfield page and Glickman's papers."""

from typing import ClassVar

import pytest
import xlgrade_udfs as xl

# Chesterfield page: a player rated 1778 meets six opponents (K = 45).
CHESTERFIELD_OPPONENTS = [[1828.0], [2178.0], [1678.0], [1728.0], [1978.0], [2078.0]]
CHESTERFIELD_RESULTS = [["½"], [0.0], [1.0], ["="], ["W"], ["L"]]
CHESTERFIELD_EXPECTED = [[0.43], [0.08], [0.64], [0.57], [0.24], [0.15]]


class TestConversions:
    @pytest.mark.parametrize(
        ("grade", "formula", "elo"),
        [
            (150.0, None, 2000.0),  # piecewise: 5 × 150 + 1250
            (216.0, "fide", 2328.0),  # piecewise from 216: 8 × 216 + 600
            (150.0, "national", 1800.0),  # 8 × 150 + 600
            (150.0, "ecf2020", 1825.0),  # 7.5 × 150 + 700
        ],
    )
    def test_ecf_to_elo(self, grade: float, formula: object, elo: float) -> None:
        assert xl.ECF_TO_ELO(grade, formula) == elo

    @pytest.mark.parametrize(
        ("rating", "formula", "grade"),
        [
            (2000.0, None, 150.0),
            (2400.0, "fide", 225.0),  # above 2325: (2400 − 600) / 8
            (2000.0, "national", 175.0),  # Chesterfield: subtract 600 and divide by 8
            (1825.0, "ecf2020", 150.0),
        ],
    )
    def test_elo_to_ecf(self, rating: float, formula: object, grade: float) -> None:
        assert xl.ELO_TO_ECF(rating, formula) == grade

    def test_a_column_of_grades_against_a_row_of_formulas(self) -> None:
        got = xl.ECF_TO_ELO([[100.0], [150.0]], [["fide", "national"]])
        assert got == [[1750.0, 1400.0], [2000.0, 1800.0]]

    def test_uscf(self) -> None:
        # ECF summary page: USCF = FIDE + 100.
        assert xl.FIDE_TO_USCF([[2000.0], [None]]) == [[2100.0], [""]]
        assert xl.USCF_TO_FIDE(2100.0) == 2000.0

    def test_unknown_formula(self) -> None:
        assert xl.ECF_TO_ELO(150.0, "uscf") == (
            "#VALUE! conversion formula 'uscf' unknown; use one of ('fide', 'national', 'ecf2020')"
        )

    def test_rating_classes(self) -> None:
        # Chesterfield page: Senior Master 2400+ / 225+; Master 2200–2399 / 200–224; Expert
        # 2000–2199 / 175–199; Class A 1800–1999 / 150–174; … Class E below 1200 / below 75.
        got = xl.RATING_CLASS([[2400.0], [2399.0], [2000.0], [1999.0], [1199.0]])
        assert got == [["Senior Master"], ["Master"], ["Expert"], ["Class A"], ["Class E"]]
        got = xl.RATING_CLASS([[225.0, 175.0, 174.0, 74.0]], "ecf")
        assert got == [["Senior Master", "Expert", "Class A", "Class E"]]

    def test_grade_as_text_is_a_number(self) -> None:
        assert xl.ECF_TO_ELO(" 150 ") == 2000.0

    def test_bad_grade(self) -> None:
        assert xl.ECF_TO_ELO("n/a") == "#VALUE! grade 'n/a' is not a number"


class TestEcfCodes:
    def test_valid_codes_as_a_column(self) -> None:
        # docs/rules.md §8: "210988J is valid".
        got = xl.ECF_CODE_VALID([["210988J"], ["210988K"], [" 210988j "], [None], [210988.0]])
        assert got == [[True], [False], [True], [""], [False]]

    def test_check_letter(self) -> None:
        assert xl.ECF_CODE_LETTER("210988") == "J"
        assert xl.ECF_CODE_LETTER(210988.0) == "J"

    def test_a_number_that_lost_its_leading_zero(self) -> None:
        # 012345: 7·0 + 6·1 + 5·2 + 4·3 + 3·4 + 2·5 = 50; 50 mod 11 = 6 → "ABCDEFGHJKL"[6] = G.
        assert xl.ECF_CODE_LETTER(12345.0) == "G"
        assert xl.ECF_CODE_LETTER("012345") == "G"

    def test_bad_digits(self) -> None:
        assert xl.ECF_CODE_LETTER("21098") == (
            "#VALUE! ECF code digits '21098' must be exactly six digits"
        )
        assert xl.ECF_CODE_LETTER(2109.5) == "#VALUE! six_digits 2109.5 is not six digits"


class TestElo:
    def test_chesterfield_expected_scores(self) -> None:
        assert xl.ELO_EXPECTED(1778.0, CHESTERFIELD_OPPONENTS) == CHESTERFIELD_EXPECTED

    def test_table_2_of_the_chesterfield_page(self) -> None:
        # Differences 0, 50, 100, 200, 300, 400 → 0.50, 0.57, 0.64, 0.76, 0.85, 0.92.
        got = xl.ELO_EXPECTED([[1600.0, 1650.0, 1700.0, 1800.0, 1900.0, 2000.0]], 1600.0)
        assert got == [[0.5, 0.57, 0.64, 0.76, 0.85, 0.92]]

    def test_400_point_rule(self) -> None:
        # docs/rules.md §9: a difference over 400 counts as 400.
        assert xl.ELO_EXPECTED(2500.0, 1900.0) == 0.92

    def test_logistic(self) -> None:
        # 1 / (1 + 10^(−400/400)) = 1/1.1.
        assert xl.ELO_EXPECTED(2000.0, 1600.0, "logistic") == pytest.approx(1 / 1.1)

    def test_chesterfield_change_and_new_rating(self) -> None:
        # "1778 + 45(3 − 2.11) = 1818".
        change = xl.ELO_CHANGE(1778.0, CHESTERFIELD_OPPONENTS, CHESTERFIELD_RESULTS, 45.0)
        assert change == pytest.approx(45 * (3 - 2.11))
        rating = xl.ELO_NEW_RATING(1778.0, CHESTERFIELD_OPPONENTS, CHESTERFIELD_RESULTS, 45.0)
        assert rating == 1818

    def test_defaults_and_empty_rows_do_not_count(self) -> None:
        opponents = [*CHESTERFIELD_OPPONENTS, [1500.0], [None]]
        results = [*CHESTERFIELD_RESULTS, ["+"], [None]]
        assert xl.ELO_NEW_RATING(1778.0, opponents, results, 45.0) == 1818

    def test_dp_table_8_1a(self) -> None:
        # Chesterfield page: 70 % → 149 ("adding 149"); 40 % → −72 ("Performance = 72").
        assert xl.ELO_DP([[0.7], [0.4], [0.5]]) == [[149], [-72], [0]]

    def test_performance(self) -> None:
        # Chesterfield page: 70 % against an average of 1601 → 1750.
        results = [[1.0]] * 7 + [[0.0]] * 3
        assert xl.ELO_PERFORMANCE([[1601.0]] * 10, results) == 1750.0

    def test_initial_chesterfield(self) -> None:
        # Chesterfield page: 8 wins and 12 losses against an average of 1750 → 1678.
        results = [["1"]] * 8 + [["0"]] * 12
        assert xl.ELO_INITIAL([[1750.0]] * 20, results, "chesterfield") == 1678

    def test_initial_fide_2024(self) -> None:
        # FIDE 2024: five draws against 1800 plus two hypothetical 1800 draws: Ra = 1800,
        # p = 3.5/7 = 0.5, dp = 0 → 1800, five games, so published.
        assert xl.ELO_INITIAL([[1800.0]] * 5, [["½"]] * 5) == 1800
        assert xl.ELO_INITIAL([[1800.0]] * 3, [["½"]] * 3) == (
            "not published: only 3 games; at least 5 are needed"
        )

    def test_2022_edition_one_upgrade_an_event(self) -> None:
        # FIDE 2022, 8.3.1: 2200 beats four 1700s (K 20). Every game capped at 400: 4 × 0.92,
        # 20 × 0.32 = 6.4 → 2206; one upgrade: 0.92 + 3 × 0.96 (row 485–517) = 3.80,
        # 20 × 0.20 = 4 → 2204.
        four, wins = [[1700.0]] * 4, [["1"]] * 4
        assert xl.ELO_NEW_RATING(2200.0, four, wins, 20.0) == 2206
        assert xl.ELO_NEW_RATING(2200.0, four, wins, 20.0, "400-2022") == 2204
        assert xl.ELO_CHANGE(2200.0, four, wins, 20.0, [["400-2022"]]) == pytest.approx(4.0)
        assert xl.ELO_CHANGE(2200.0, four, wins, 20.0, "400-1999").startswith(
            "#VALUE! rating difference rule '400-1999' unknown"
        )

    def test_rapid_and_blitz_rule(self) -> None:
        # FIDE rapid and blitz, from 1 December 2024: 600 or more apart with a player above
        # 2600 is not rated; no 2650 exemption (2700 v 2200 is capped: 0.92).
        assert xl.ELO_EXPECTED(2601.0, 2001.0, None, "rapid-blitz") == (
            "not rated: 600 apart with a player above 2600"
        )
        assert xl.ELO_EXPECTED([[2700.0], [2600.0]], [[2200.0], [2000.0]], None, "rapid-blitz") == [
            [0.92],
            [0.92],
        ]
        assert xl.ELO_EXPECTED(2700.0, 2200.0, None, "400-2025") == 0.96
        # 2700 beats 2000 (not rated) and 2300 (0.92): 10 × 0.08 = 0.8 → 2701.
        assert xl.ELO_NEW_RATING(2700.0, [[2000.0], [2300.0]], [[1], [1]], 10.0, "rapid-blitz") == (
            2701
        )

    def test_initial_fide_2022(self) -> None:
        # FIDE 2022, 8.2.3, and FIDE's online calculator: 3 of 5 against 2000 → 2000 + 20; 1
        # of 5 against 1600 → 1600 + dp(0.20) = 1360 (floor 1000 then).
        assert xl.ELO_INITIAL([[2000.0]] * 5, [["1"]] * 3 + [["0"]] * 2, "fide-2022") == 2020
        assert xl.ELO_INITIAL([[1600.0]] * 5, [["1"]] + [["0"]] * 4, "fide-2022") == 1360
        assert xl.ELO_INITIAL([[1600.0]] * 5, [["1"]] + [["0"]] * 4) == 1499  # 2024: (8000 +
        # 3600) / 7 = 1657.14, p = 2/7 → 0.29, dp −158 → 1499

    def test_march_2024_adjustment(self) -> None:
        # FIDE, 1 March 2024: + 0.4 × (2000 − R) from 1000 to 2000.
        got = xl.ELO_MARCH_2024([[1000.0], [1500.0], [1998.0], [2200.0], [None]])
        assert got == [[1400], [1700], [1999], [2200], [""]]
        assert xl.ELO_MARCH_2024(900.0) == (
            "#VALUE! rating 900.0 is below 1000, the floor of the list FIDE adjusted on "
            "1 March 2024 (ratings from 1000 to 2000)"
        )

    def test_listed_flags_the_floor(self) -> None:
        # FIDE 7.2.1: below 1400, unrated on the next list; 1000 before March 2024.
        assert xl.ELO_LISTED([[1400.0], [1399.0]]) == [
            [1400.0],
            ["unrated on the next list: 1399 is below the 1400 floor (FIDE 7.2.1)"],
        ]
        assert xl.ELO_LISTED(1200.0, 1000.0) == 1200.0
        assert xl.ELO_LISTED(None) == ""

    @pytest.mark.parametrize(
        ("args", "k"),
        [
            # Chesterfield: 45 for the first 100 games, 30 for the next 200, 20 after;
            # juniors 45.
            ((1700.0, 50.0, None, "chesterfield"), 45),
            ((1700.0, 150.0, None, "chesterfield"), 30),
            ((1700.0, 400.0, None, "chesterfield"), 20),
            ((1700.0, 400.0, 15.0, "chesterfield"), 45),
            ((1700.0, 150.0, 18.0, "chesterfield"), 30),
            # FIDE 2014: 40 new (under 30 games) and juniors under 2300 "until their 18th
            # birthday"; 20 below 2400; 10 once 2400 was reached.
            ((1700.0, 10.0, None), 40),
            ((1700.0, 100.0, 16.0), 40),
            ((1700.0, 100.0, 17.0), 40),
            ((1700.0, 100.0, 18.0), 20),
            # FIDE 2024: a junior "until the end of the year of their 18th birthday" (this
            # year minus the year of birth: 18 still is one, 19 is not).
            ((1700.0, 100.0, 18.0, "fide-2024"), 40),
            ((1700.0, 100.0, 19.0, "fide-2024"), 20),
            ((2350.0, 100.0, 16.0), 20),
            ((1700.0, 100.0, None), 20),
            ((2350.0, 100.0, None, "fide-2014", True), 10),
            ((2400.0, 100.0, None, "fide-2014"), 10),
            # FIDE 2014's rapid and blitz lists: "K = 20 for RAPID and BLITZ ratings all
            # players".
            ((1700.0, 10.0, 12.0, "fide-rapid-blitz-2014"), 20),
            # FIDE 2011: 30 new, then 15, 10 from 2400.
            ((1700.0, 10.0, None, "fide-30-15-10"), 30),
            ((1700.0, 100.0, None, "fide-30-15-10"), 15),
        ],
    )
    def test_k_policies(self, args: tuple[object, ...], k: int) -> None:
        assert xl.ELO_K(*args) == k

    def test_k_for_a_column_of_players(self) -> None:
        got = xl.ELO_K([[1700.0], [1700.0], [2350.0]], [[10.0], [100.0], [100.0]], None)
        assert got == [[40], [20], [20]]

    def test_unknown_policy(self) -> None:
        assert xl.ELO_K(1700.0, 10.0, None, "uscf").startswith(
            "#VALUE! K factor policy 'uscf' unknown"
        )

    def test_rating_must_be_one_cell(self) -> None:
        got = xl.ELO_CHANGE(
            [[1778.0], [1800.0]], CHESTERFIELD_OPPONENTS, CHESTERFIELD_RESULTS, 45.0
        )
        assert got == "#VALUE! rating must be a single cell, not 2 rows × 1 column"


class TestGlicko:
    # Glickman, "The Glicko system": 1500/200 beats 1400/30, loses to 1550/100 and 1700/300.
    OPPONENTS: ClassVar = [[1400.0], [1550.0], [1700.0]]
    RDS: ClassVar = [[30.0], [100.0], [300.0]]
    RESULTS: ClassVar = [["1"], ["0"], ["0"]]

    def test_glicko_paper_example(self) -> None:
        # "r′ = 1464, RD′ = 151.4" (exact arithmetic 1464.11 / 151.40).
        [[rating, rd]] = xl.GLICKO(1500.0, 200.0, self.OPPONENTS, self.RDS, self.RESULTS)
        assert rating == pytest.approx(1464.11, abs=0.005)
        assert rd == pytest.approx(151.40, abs=0.005)

    def test_glicko2_paper_example(self) -> None:
        # Glickman, "Example of the Glicko-2 system": σ = 0.06, τ = 0.5 → 1464.05 / 151.52 /
        # 0.05999598 (the paper prints 1464.06 from a rounded μ′).
        got = xl.GLICKO2(1500.0, 200.0, 0.06, self.OPPONENTS, self.RDS, self.RESULTS, 0.5)
        [[rating, rd, volatility]] = got
        assert rating == pytest.approx(1464.05, abs=0.005)
        assert rd == pytest.approx(151.52, abs=0.005)
        assert volatility == pytest.approx(0.05999598, abs=5e-9)
        assert xl.GLICKO2(1500.0, 200.0, 0.06, self.OPPONENTS, self.RDS, self.RESULTS) == got

    def test_defaults_and_empty_rows_are_left_out(self) -> None:
        opponents = [*self.OPPONENTS, [1600.0], [None]]
        rds = [*self.RDS, [50.0], [None]]
        results = [*self.RESULTS, ["-"], [None]]
        expected = xl.GLICKO(1500.0, 200.0, self.OPPONENTS, self.RDS, self.RESULTS)
        assert xl.GLICKO(1500.0, 200.0, opponents, rds, results) == expected

    def test_mismatched_ranges(self) -> None:
        got = xl.GLICKO(1500.0, 200.0, self.OPPONENTS, self.RDS[:2], self.RESULTS)
        assert got == (
            "#VALUE! opponent_ratings, opponent_rds and results have 3, 2 and 3 cells: "
            "give one of each per game"
        )

    def test_blank_player(self) -> None:
        assert xl.GLICKO(None, None, self.OPPONENTS, self.RDS, self.RESULTS) == ""
