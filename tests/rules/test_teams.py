"""Team eligibility and board order: the league handbooks' rules (docs/rules.md §13, issue 15)
as worked cases, with the arithmetic written out."""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
from typing import ClassVar

import numpy as np
import pytest

from xlgrade.editions import MATCH_DATE, ListedRating, RatingHistory
from xlgrade.errors import GradingError, SettingError
from xlgrade.model import Game, Player
from xlgrade.teams import (
    BELOW_NORMAL,
    BOARD_LIMIT,
    BOARD_ORDER,
    LEAGUE_REGISTERED,
    MAX_GRADE,
    MAX_TOTAL,
    NON_MEMBER,
    NOT_CHECKED,
    ONE_TEAM,
    ONE_TEAM_ROUND,
    PLAYERS_OVER,
    PLAYING_DOWN,
    REGISTERED,
    RESERVES,
    RULE_KINDS,
    RULES,
    Board,
    BoardLimit,
    Division,
    ListFigures,
    Team,
    allocations,
    appearances,
    board_limits,
    board_order,
    boards_of,
    breach_rows,
    declared_order,
    figure_list,
    figures,
    parse_match,
    parse_team,
    player_figures,
    rank_teams,
    season_breaches,
    team_breaches,
    team_breaches_array,
    team_total,
)

# Southend Minor: "4 boards, team total at most 440, no player over 125, grades under 75 count
# as 75".
SOUTHEND_MINOR = Division(
    "Southend Minor", boards=4, max_total=440, max_grade=125, min_counting_grade=75
)
# Sheffield "400 League": "total at most 400, no player over 120, minimum counting 80, ungraded
# and defaulted boards count 80".
SHEFFIELD_400 = Division(
    "400 League",
    boards=4,
    max_total=400,
    max_grade=120,
    min_counting_grade=80,
    ungraded_grade=80,
    default_grade=80,
)
# Somerset Division 3: "no player over 145, average at most 125, under 95 counts as 95".
SOMERSET_3 = Division("Division 3", max_grade=145, max_average=125, min_counting_grade=95)
# Somerset Division 2: "at most one player over 165".
SOMERSET_2 = Division("Division 2", max_players_over=1, over_grade=165)
# North Staffs: totals 725/520/460/400 with minimum counting grades 120/105/90/75, "defaults at
# the minimum"; board order 15. The lowest division, four boards.
NORTH_STAFFS_4 = Division(
    "Division 4",
    boards=4,
    max_total=400,
    min_counting_grade=75,
    default_grade=75,
    board_order_tolerance=15,
)
# Nottinghamshire: "not more than 20 above anyone on a higher board"; after 3 games for a higher
# team a player may not play for a lower team.
NOTTS = Division("Division 1", board_order_tolerance=20, games_to_fix=3)


def whys(division: Division, boards: list[Board] | tuple[Board, ...]) -> list[str]:
    return [breach.why for breach in team_breaches(division, boards)]


class TestSouthendMinor:
    def test_a_team_of_430_is_eligible(self) -> None:
        # 125 + 120 + 110 + 75 (74 counts as 75) = 430 ≤ 440; nobody over 125.
        boards = boards_of([125, 120, 110, 74])
        total = team_total(SOUTHEND_MINOR, boards)
        assert total.total == 125 + 120 + 110 + 75 == 430
        assert total.values == (125, 120, 110, 75)
        assert total.notes == ("board 4 (74) counts as 75",)
        assert team_breaches(SOUTHEND_MINOR, boards) == ()

    def test_a_team_of_450_is_not(self) -> None:
        # 125 + 125 + 120 + 80 = 450 > 440.
        breaches = team_breaches(SOUTHEND_MINOR, boards_of([125, 125, 120, 80]))
        assert [(b.rule, b.why, b.board) for b in breaches] == [
            (
                MAX_TOTAL,
                "the team counts 125 + 125 + 120 + 80 = 450, more than the maximum 440",
                None,
            )
        ]

    def test_no_player_over_125(self) -> None:
        boards = [Board(1, "Smith, Ann", 126), Board(2, "Lee, Bo", 100)]
        assert [
            (b.rule, b.board, b.player, b.why) for b in team_breaches(SOUTHEND_MINOR, boards)
        ] == [
            (MAX_GRADE, 1, "Smith, Ann", "board 1, Smith, Ann (126) is over the maximum grade 125")
        ]

    def test_exactly_125_and_exactly_440_are_allowed(self) -> None:
        # 125 + 125 + 115 + 75 = 440: at the maximum, not over it.
        assert team_breaches(SOUTHEND_MINOR, boards_of([125, 125, 115, 75])) == ()

    def test_the_minimum_counting_grade_can_make_a_team_ineligible(self) -> None:
        # 125 + 125 + 116 + 75 (40 counts as 75) = 441 > 440; 125+125+116+40 would be 406.
        assert whys(SOUTHEND_MINOR, boards_of([125, 125, 116, 40])) == [
            "the team counts 125 + 125 + 116 + 75 = 441, more than the maximum 440: "
            "board 4 (40) counts as 75"
        ]


class TestSheffield400League:
    def test_ungraded_counts_80(self) -> None:
        # 120 + 110 + 90 + 80 (ungraded) = 400: at the maximum.
        boards = boards_of([120, 110, 90, None])
        assert team_total(SHEFFIELD_400, boards).total == 400
        assert team_breaches(SHEFFIELD_400, boards) == ()

    def test_minimum_counting_80(self) -> None:
        # 120 + 110 + 95 + 80 (60 counts as 80) = 405 > 400.
        assert whys(SHEFFIELD_400, boards_of([120, 110, 95, 60])) == [
            "the team counts 120 + 110 + 95 + 80 = 405, more than the maximum 400: "
            "board 4 (60) counts as 80"
        ]

    def test_defaulted_and_missing_boards_count_80(self) -> None:
        # Board 3 defaulted, board 4 not in the results: 120 + 110 + 80 + 80 = 390.
        boards = [Board(1, "", 120), Board(2, "", 110), Board(3, defaulted=True)]
        total = team_total(SHEFFIELD_400, boards)
        assert total.values == (120, 110, 80, 80)
        assert total.notes == (
            "board 3 defaulted counts as 80",
            "board 4 missing counts as 80",
        )
        # 120 + 115 + 90 + 80 (missing) = 405 > 400.
        assert whys(SHEFFIELD_400, boards_of([120, 115, 90])) == [
            "the team counts 120 + 115 + 90 + 80 = 405, more than the maximum 400: "
            "board 4 missing counts as 80"
        ]

    def test_no_player_over_120(self) -> None:
        breaches = team_breaches(SHEFFIELD_400, boards_of([121, 80, 80, 80]))
        # 121 + 80 + 80 + 80 = 361 is within the total; 121 is over 120.
        assert [b.rule for b in breaches] == [MAX_GRADE]


class TestSomerset:
    def test_division_3_average(self) -> None:
        # 145 + 130 + 120 + 95 (90 counts as 95) = 490; 490 / 4 = 122.5 ≤ 125.
        assert team_breaches(SOMERSET_3, boards_of([145, 130, 120, 90])) == ()
        # 145 + 140 + 130 + 95 = 510; 510 / 4 = 127.5 > 125.
        assert whys(SOMERSET_3, boards_of([145, 140, 130, 90])) == [
            "the team's average is 510 / 4 = 127.5, more than the maximum 125: "
            "board 4 (90) counts as 95"
        ]

    def test_division_3_no_player_over_145(self) -> None:
        # 146 + 100 + 100 + 100 = 446, average 111.5: only the maximum grade is broken.
        assert [b.rule for b in team_breaches(SOMERSET_3, boards_of([146, 100, 100, 100]))] == [
            MAX_GRADE
        ]

    def test_division_2_at_most_one_player_over_165(self) -> None:
        assert team_breaches(SOMERSET_2, boards_of([170, 165, 150])) == ()
        breaches = team_breaches(
            SOMERSET_2, [Board(1, "Ash", 170), Board(2, "Box", 166), Board(3, "Elm", 150)]
        )
        assert [(b.rule, b.why) for b in breaches] == [
            (
                PLAYERS_OVER,
                "2 players are over 165: Ash (170) on board 1, Box (166) on board 2; "
                "at most 1 may be",
            )
        ]


class TestNorthStaffs:
    def test_defaults_at_the_minimum(self) -> None:
        # 130 + 100 + 75 (60 counts as 75) + 75 (board 4 defaulted) = 380 ≤ 400.
        boards = [Board(1, "", 130), Board(2, "", 100), Board(3, "", 60), Board(4, defaulted=True)]
        assert team_total(NORTH_STAFFS_4, boards).total == 380
        assert team_breaches(NORTH_STAFFS_4, boards) == ()

    def test_a_missing_board_counts_at_the_minimum(self) -> None:
        # 140 + 110 + 80 + 75 (board 4 missing) = 405 > 400. Board order: 110 and 80 are below 140.
        assert whys(NORTH_STAFFS_4, boards_of([140, 110, 80])) == [
            "the team counts 140 + 110 + 80 + 75 = 405, more than the maximum 400: "
            "board 4 missing counts as 75"
        ]

    def test_board_order_15(self) -> None:
        # 115 − 100 = 15: not more than 15; 116 − 100 = 16 is.
        assert team_breaches(NORTH_STAFFS_4, boards_of([100, 115, 80, 80])) == ()
        assert whys(NORTH_STAFFS_4, boards_of([100, 116, 80, 80])) == [
            "board 2 (116) is more than 15 above board 1 (100)"
        ]


class TestNottinghamshireBoardOrder:
    def test_the_issue_s_message(self) -> None:
        boards = [Board(1, "Ash", 140), Board(2, "Graham", 112), Board(3, "Kay", 134)]
        # 134 − 112 = 22 > 20; 134 is below 140.
        (breach,) = team_breaches(NOTTS, boards)
        assert (breach.rule, breach.board, breach.player) == (BOARD_ORDER, 3, "Kay")
        assert breach.why == "board 3, Kay (134) is more than 20 above Graham (112) on board 2"

    def test_exactly_20_above_is_allowed(self) -> None:
        assert team_breaches(NOTTS, boards_of([112, 132])) == ()

    def test_the_lowest_higher_board_is_named(self) -> None:
        # Board 4 (150): 150 − 120 = 30 above board 1 and 150 − 105 = 45 above board 3.
        boards = [Board(1, "A", 120), Board(2, "B", 125), Board(3, "C", 105), Board(4, "D", 150)]
        assert [b and b.why for b in board_order(20, boards)] == [
            None,
            None,
            None,
            "board 4, D (150) is more than 20 above C (105) on board 3",
        ]

    def test_ungraded_players_and_defaults_are_not_compared(self) -> None:
        boards = [Board(1, "A", None), Board(2, "B", defaulted=True), Board(3, "C", 200)]
        assert board_order(20, boards) == (None, None, None)

    def test_dorset_ratings_75(self) -> None:
        # Ratings: 1876 − 1800 = 76 > 75.
        dorset = Division("Dorset 2", boards=4, max_total=7200, board_order_tolerance=75)
        # 1800 + 1875 + 1700 + 1650 = 7025 ≤ 7200; 1875 − 1800 = 75 is not more than 75.
        assert whys(dorset, boards_of([1800, 1875, 1700, 1650])) == []
        # 1800 + 1876 + 1850 + 1700 = 7226 > 7200; 1850 − 1800 = 50 is within 75.
        assert whys(dorset, boards_of([1800, 1876, 1850, 1700])) == [
            "board 2 (1876) is more than 75 above board 1 (1800)",
            "the team counts 1800 + 1876 + 1850 + 1700 = 7226, more than the maximum 7200",
        ]


class TestCountingValues:
    def test_an_ungraded_player_without_a_value_is_not_counted(self) -> None:
        division = Division("D", max_average=100)
        total = team_total(division, [Board(1, "Ash", 120), Board(2, "Box", None)])
        assert (total.total, total.counted, total.values) == (120, 1, (120, None))
        assert total.notes == ("Box (ungraded) on board 2 not counted",)

    def test_an_ungraded_player_counts_at_the_minimum_without_a_value_of_his_own(self) -> None:
        assert team_total(Division("D", min_counting_grade=90), boards_of([None])).total == 90

    def test_a_default_without_a_value_is_not_counted(self) -> None:
        total = team_total(Division("D", boards=3), boards_of([100, 90]))
        # No Default grade: missing boards are not looked for.
        assert (total.total, total.counted) == (190, 2)
        total = team_total(Division("D"), [Board(1, "", 100), Board(2, defaulted=True)])
        assert total.notes == ("board 2 defaulted, not counted",)

    def test_a_fractional_average_is_shown_to_two_places(self) -> None:
        # 101 + 100 + 100 = 301; 301 / 3 = 100.33 > 100.
        assert whys(Division("D", max_average=100), boards_of([101, 100, 100])) == [
            "the team's average is 301 / 3 = 100.33, more than the maximum 100"
        ]


class TestTeams:
    def test_team_letters_and_numbers(self) -> None:
        assert parse_team("Redmire Chess Club B") == Team(
            "Redmire Chess Club B", "Redmire Chess Club", 1, "B"
        )
        assert parse_team("  Ulverdale   2 ") == Team("Ulverdale 2", "Ulverdale", 1, "2")
        assert parse_team("Ulverdale a").rank == 0
        assert parse_team("Hull") == Team("Hull", "Hull", None)

    def test_match(self) -> None:
        home, away = parse_match("Ulverdale A vs. Whinmoor B")
        assert (home.name, away.name) == ("Ulverdale A", "Whinmoor B")
        assert parse_match("Ulverdale A V Whinmoor B")[1].club == "Whinmoor"

    @pytest.mark.parametrize("text", ["Round 3", "", "A v ", "A v B v C"])
    def test_a_match_that_names_no_two_teams(self, text: str) -> None:
        with pytest.raises(GradingError, match="is not 'Home team v Away team'"):
            parse_match(text)


class TestDivisionRules:
    def test_over_needs_both_columns(self) -> None:
        with pytest.raises(SettingError, match="'Max players over' and 'Over grade' go together"):
            Division("D", max_players_over=1)

    @pytest.mark.parametrize(
        ("field", "value", "message"),
        [
            ("boards", 2.5, "Boards 2.5 is not whole"),
            ("boards", 0, "Boards 0 is not 1 or more"),
            ("max_total", -1, "Max total -1 is not 0 or more"),
            ("max_grade", float("nan"), "Max grade nan is not 0 or more"),
            ("max_grade", "120", "Max grade '120' is not a number"),
            ("games_to_fix", 0, "Games to fix to higher team 0 is not 1 or more"),
        ],
    )
    def test_values_out_of_range(self, field: str, value: object, message: str) -> None:
        with pytest.raises(SettingError, match=f"division 'D': {message}"):
            Division("D", **{field: value})  # type: ignore[arg-type]


def _game(
    day: int,
    match: str,
    board: int,
    home: str,
    away: str,
    result: str = "1-0",
    division: str = "Division 1",
    row: int = 0,
) -> Game:
    return Game(home, away, result, dt.date(2025, 9, day), division, match, board, row=row)


PEOPLE = ["Ash", "Box", "Elm", "Fir", "Oak", "Yew"]


def _season(
    games: list[Game],
    figures: list[float | None] | None = None,
    divisions: dict[str, Division] | None = None,
) -> list:
    index = {name: i for i, name in enumerate(PEOPLE)}
    people = figures if figures is not None else [100.0] * len(PEOPLE)
    boards = appearances(
        games,
        [index.get(g.home, -1) for g in games],
        [index.get(g.away, -1) for g in games],
        people,
        PEOPLE,
    )
    return season_breaches(divisions or {"Division 1": NOTTS, "Division 2": NOTTS}, boards)


def test_only_the_divisions_asked_for_and_results_not_understood() -> None:
    games = [
        _game(1, "Redmire A v Hull", 1, "Ash", "Box", "won", division="Friendly"),
        _game(1, "Redmire A v Hull", 1, "Ash", "Box", "??"),
    ]
    boards = appearances(
        games, [0, 0], [1, 1], [100.0, None], ["Ash", "Box"], {"DIVISION 1": NOTTS}
    )
    # The friendly is not taken; a result not understood is a game played by both.
    assert boards.row == (0, 0)
    assert boards.division == ("Division 1", "Division 1")
    assert boards.defaulted.tolist() == [False, False]
    assert np.isnan(boards.figure[1])


class TestPlayingDown:
    def test_after_three_games_for_the_a_team_not_for_the_b_team(self) -> None:
        games = [_game(day, "Redmire A v Hull", 1, "Ash", "Box", row=day) for day in (1, 2, 3)] + [
            _game(4, "Redmire B v Leeds", 1, "Ash", "Elm", division="Division 2", row=4)
        ]
        (breach,) = _season(games)
        assert (
            breach.rule,
            breach.division,
            breach.team,
            breach.board,
            breach.player,
            breach.row,
        ) == (PLAYING_DOWN, "Division 2", "Redmire B", 1, "Ash", 4)
        assert breach.why == (
            "Ash had played 3 games for higher teams of Redmire (Redmire A 3) before 2025-09-04; "
            "after 3 a player may not play for a lower team"
        )

    def test_two_games_are_not_enough(self) -> None:
        games = [_game(d, "Redmire A v Hull", 1, "Ash", "Box") for d in (1, 2)]
        games.append(_game(4, "Redmire B v Leeds", 1, "Ash", "Elm"))
        assert _season(games) == []

    def test_games_the_same_day_do_not_count(self) -> None:
        games = [_game(d, "Redmire A v Hull", 1, "Ash", "Box") for d in (1, 2)]
        games += [
            _game(3, "Redmire A v Hull", 1, "Ash", "Box"),
            _game(3, "Redmire B v Leeds", 1, "Ash", "Elm"),
        ]
        assert _season(games) == []

    def test_another_club_s_higher_team_does_not_count(self) -> None:
        games = [_game(d, "Hull A v Redmire A", 1, "Box", "Ash") for d in (1, 2, 3)]
        games.append(_game(4, "Hull B v Leeds", 1, "Ash", "Elm"))
        assert _season(games) == []

    def test_away_games_and_defaults(self) -> None:
        # Ash plays away for Redmire A twice and wins a third by default: a default is no game
        # played for the team only when he is the one who defaulted.
        games = [
            _game(1, "Hull v Redmire A", 1, "Box", "Ash", "0-1"),
            _game(2, "Hull v Redmire A", 1, "Box", "Ash", "1-0 def"),
            _game(3, "Hull v Redmire A", 1, "Box", "Ash", "0-1 def"),
            _game(4, "Redmire B v Leeds", 1, "Ash", "Elm"),
        ]
        assert _season(games) == []
        games.insert(3, _game(3, "Hull v Redmire A", 2, "Fir", "Ash", "0-1"))
        assert [b.rule for b in _season(games)] == [PLAYING_DOWN]


class TestOneTeamPerDivision:
    def test_a_second_team_in_the_division(self) -> None:
        croydon = Division("Division 1", one_team=True)
        games = [
            _game(1, "Redmire A v Hull", 1, "Ash", "Box"),
            _game(2, "Redmire A v Leeds", 1, "Ash", "Elm"),
            _game(3, "Redmire B v York", 2, "Ash", "Fir"),
        ]
        (breach,) = _season(games, divisions={"division 1": croydon})
        assert (breach.rule, breach.team, breach.date) == (
            ONE_TEAM,
            "Redmire B",
            dt.date(2025, 9, 3),
        )
        assert breach.why == (
            "Ash played for Redmire A in Division 1 on 2025-09-01; a player plays for one team of "
            "the division"
        )


class TestSeason:
    def test_each_team_of_each_match(self) -> None:
        # Redmire A: board 2 Box 100, board 3 Elm 125: 25 above; Hull's side is in order.
        figures: list[float | None] = [130, 100, 125, 120, 110, 90]
        games = [
            _game(1, "Redmire A v Hull", 1, "Ash", "Fir", row=2),
            _game(1, "Redmire A v Hull", 2, "Box", "Oak", row=3),
            _game(1, "Redmire A v Hull", 3, "Elm", "Yew", row=4),
            _game(1, "Redmire A v Hull", 3, "Elm", "Yew", row=5),  # the other club's card
        ]
        (breach,) = _season(games, figures)
        assert breach_rows([breach]) == [
            (
                "Division 1",
                "2025-09-01",
                "Redmire A v Hull",
                "Redmire A",
                3,
                "Elm",
                BOARD_ORDER,
                "board 3, Elm (125) is more than 20 above Box (100) on board 2",
            )
        ]
        assert breach.row == 4

    def test_boards_without_numbers_follow_the_rows(self) -> None:
        figures: list[float | None] = [100, 130, 100, 100, 100, 100]
        games = [
            Game("Ash", "Fir", "1-0", dt.date(2025, 9, 1), "Division 1", "Redmire A v Hull"),
            Game("Box", "Oak", "1-0", dt.date(2025, 9, 1), "Division 1", "Redmire A v Hull"),
        ]
        (breach,) = _season(games, figures)
        assert breach.why == "board 2, Box (130) is more than 20 above Ash (100) on board 1"
        assert breach.board == 2

    def test_a_team_level_breach_names_no_board(self) -> None:
        games = [
            _game(1, "Redmire A v Hull", b, home, away)
            for b, home, away in ((1, "Ash", "Fir"), (2, "Box", "Oak"))
        ]
        # Redmire A: 130 + 100 = 230 > 200; Hull: 50 + 50 = 100.
        figures: list[float | None] = [130, 100, 100, 50, 50, 100]
        division = {"Division 1": Division("Division 1", max_total=200)}
        (breach,) = _season(games, figures, division)
        assert breach.why == "the team counts 130 + 100 = 230, more than the maximum 200"
        assert (breach.rule, breach.board, breach.player, breach.team) == (
            MAX_TOTAL,
            None,
            "",
            "Redmire A",
        )
        assert breach_rows([breach])[0][4] == ""

    def test_rows_that_cannot_be_checked_are_listed(self) -> None:
        games = [
            _game(1, "Round 3", 1, "Ash", "Box", row=7),
            _game(1, "Redmire A v Hull", 1, "Nobody", "Box", row=8),
            _game(1, "Redmire A v Hull", 1, "Ash", "Box", division="Friendly", row=9),
        ]
        found = _season(games)
        assert [(b.rule, b.row, b.why) for b in found] == [
            (NOT_CHECKED, 8, "'Nobody' is not on the Players table: the board is not checked"),
            (NOT_CHECKED, 7, "match 'Round 3' is not 'Home team v Away team'"),
        ]
        assert found[0].team == "Redmire A"

    def test_a_blank_player_is_a_defaulted_board(self) -> None:
        sheffield = {"Division 1": SHEFFIELD_400}
        # Hull: Fir 120 + board 2 defaulted (80) + boards 3, 4 missing (80 + 80) = 360: fine.
        # Redmire: Ash 120, Box 120, missing 80 + 80 = 400: fine; with Elm 121 over 120.
        figures: list[float | None] = [120, 120, 121, 120, 100, 100]
        games = [
            _game(1, "Redmire A v Hull", 1, "Ash", "Fir"),
            _game(1, "Redmire A v Hull", 2, "Box", "", "1-0 def"),
        ]
        assert _season(games, figures, sheffield) == []
        games.append(_game(1, "Redmire A v Hull", 3, "Elm", "Oak"))
        found = _season(games, figures, sheffield)
        # 120 + 120 + 121 + 80 = 441 > 400, and 121 > 120.
        assert [(b.rule, b.team) for b in found] == [
            (MAX_GRADE, "Redmire A"),
            (MAX_TOTAL, "Redmire A"),
        ]


def _random_teams(seed: int, count: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    team, number, figure, defaulted, junior, fide = [], [], [], [], [], []
    for t in range(count):
        size = int(rng.integers(1, 7))
        boards = rng.choice(np.arange(1, 8), size=size, replace=False)
        for b in boards.tolist():
            team.append(t)
            number.append(b)
            figure.append(float(rng.integers(40, 200)) if rng.random() > 0.15 else np.nan)
            defaulted.append(bool(rng.random() < 0.1))
            junior.append(bool(rng.random() < 0.2))
            fide.append(float(rng.integers(1900, 2500)) if rng.random() > 0.3 else np.nan)
    return tuple(np.array(column) for column in (team, number, figure, defaulted, junior, fide))


DIVISIONS = [
    Division(
        "D",
        boards=boards,
        max_grade=max_grade,
        max_players_over=over[0],
        over_grade=over[1],
        max_total=total,
        max_average=average,
        min_counting_grade=floor,
        ungraded_grade=ungraded,
        default_grade=default,
        board_order_tolerance=tolerance,
    )
    for (
        boards,
        max_grade,
        over,
        total,
        average,
        floor,
        ungraded,
        default,
        tolerance,
    ) in itertools.product(
        (None, 4, 6),
        (None, 150),
        ((None, None), (1, 140)),
        (None, 450),
        (None, 110),
        (None, 75),
        (None, 80),
        (None, 70),
        (None, 0, 20),
    )
]
VARIANTS = [
    Division("D", board_order_higher_by=15, junior_allowance=100),
    Division("D", board_order_tolerance=0, adjacent_within=10),
    Division("D", board_order_tolerance=5, adjacent_within=30, junior_allowance=40),
    Division("D", boards=6, default_grade=60, min_average=110, top_boards=4, max_top_average=130),
    Division("D", min_counting_grade=90, top_boards=2, max_top_average=150, max_fide=2200),
]


@pytest.mark.parametrize("division", DIVISIONS[::7] + DIVISIONS[-3:] + VARIANTS)
def test_the_array_form_agrees_with_the_scalar_form(division: Division) -> None:
    team, number, figure, defaulted, junior, fide = _random_teams(len(str(division)), 60)
    names = [f"P{k}" for k in range(team.size)]
    sources = ["estimated grade" if k % 5 == 0 else "" for k in range(team.size)]
    expected = []
    for t in range(60):
        mine = np.flatnonzero(team == t).tolist()
        boards = [
            Board(
                int(number[k]),
                names[k],
                None if np.isnan(figure[k]) else float(figure[k]),
                bool(defaulted[k]),
                source=sources[k],
                junior=bool(junior[k]),
                fide=None if np.isnan(fide[k]) else float(fide[k]),
            )
            for k in mine
        ]
        expected += [(t, b) for b in team_breaches(division, boards)]
    got = team_breaches_array(
        division, team, number, figure, defaulted, names, sources=sources, juniors=junior, fide=fide
    )
    assert got == expected
    # The random teams break something.
    assert expected or (division.max_total is None and division.order_rule is None)


def test_the_array_form_of_nothing() -> None:
    assert team_breaches_array(NOTTS, [], [], [], []) == []


def test_the_figure_the_rules_use() -> None:
    from types import SimpleNamespace

    assert figures([Player("Ash", grade=120.0), Player("Box")]) == [120.0, None]
    rated = [SimpleNamespace(grade=120.0, rating=1650), SimpleNamespace(grade=None, rating=None)]
    assert figures(rated, "rating") == [1650.0, None]  # type: ignore[arg-type]
    with pytest.raises(SettingError, match="figure 'elo' of 'elo' is not one of grade, rating"):
        figures([], "elo")


class TestEstimates:
    """Issue 23: "Nearly every handbook gives each ungraded player an estimated or temporary
    grade from the grading officer or the captain (Nottinghamshire, North Staffs, Somerset,
    Northamptonshire, Southend …; Sheffield 'unless there are reasonable grounds for a higher
    figure')": the Players' ``Estimated grade`` (or ``Estimated rating``), the division's
    ``Ungraded grade`` only where a player has none."""

    PLAYERS = (
        Player("Ash", grade=120.0),
        Player("Box", estimated_grade=95.0),
        Player("Elm"),
        Player("Fir", grade=110.0, estimated_grade=150.0),
    )

    def test_each_player_s_figure_and_where_it_came_from(self) -> None:
        found = player_figures(self.PLAYERS, figure_list("grade"))
        # Ash his grade; Box his estimate; Elm nothing; Fir his grade (the estimate is only
        # for a player without one).
        assert found.value.tolist()[:2] == [120.0, 95.0]
        assert np.isnan(found.value[2])
        assert found.value[3] == 110.0
        assert found.source == ("", "estimated grade", "", "")
        assert figures(list(self.PLAYERS)) == [120.0, 95.0, None, 110.0]

    def test_board_order_compares_an_estimated_player(self) -> None:
        # Nottinghamshire: Kay is ungraded with an estimate of 134: 134 − 112 = 22 > 20.
        boards = [
            Board(1, "Ash", 140),
            Board(2, "Graham", 112),
            Board(3, "Kay", 134, source="estimated grade"),
        ]
        (breach,) = team_breaches(NOTTS, boards)
        assert breach.why == (
            "board 3, Kay (134, estimated grade) is more than 20 above Graham (112) on board 2"
        )

    def test_the_division_s_ungraded_grade_only_where_there_is_no_estimate(self) -> None:
        # Sheffield 400: ungraded counts 80, so 120 + 110 + 90 + 80 = 400 keeps the limit; with
        # the grading officer's estimate of 95 the team counts 120 + 110 + 90 + 95 = 415 > 400.
        unestimated = boards_of([120, 110, 90, None])
        assert team_breaches(SHEFFIELD_400, unestimated) == ()
        estimated = [*boards_of([120, 110, 90]), Board(4, "Box", 95, source="estimated grade")]
        assert whys(SHEFFIELD_400, estimated) == [
            "the team counts 120 + 110 + 90 + 95 = 415, more than the maximum 400: "
            "Box (95, estimated grade) on board 4"
        ]

    def test_through_the_season(self) -> None:
        # Ash 130 on board 1; Box, ungraded, estimated 155 on board 2: 155 − 130 = 25 > 20.
        people = [Player(n) for n in PEOPLE]
        people[0] = Player("Ash", grade=130.0)
        people[1] = Player("Box", estimated_grade=155.0)
        games = [
            _game(1, "Redmire A v Hull", 1, "Ash", "Fir"),
            _game(1, "Redmire A v Hull", 2, "Box", "Oak"),
        ]
        index = {name: i for i, name in enumerate(PEOPLE)}
        boards = appearances(
            games,
            [index[g.home] for g in games],
            [index[g.away] for g in games],
            figures(people),
            PEOPLE,
        )
        own = player_figures(people, figure_list("grade"))
        (breach,) = season_breaches({"Division 1": NOTTS}, boards, {"Division 1": (own, own)})
        assert breach.why == (
            "board 2, Box (155, estimated grade) is more than 20 above Ash (130) on board 1"
        )
        # Without the estimate Box is not compared.
        people[1] = Player("Box")
        none = player_figures(people, figure_list("grade"))
        assert season_breaches({"Division 1": NOTTS}, boards, {"Division 1": (none, none)}) == []

    def test_an_estimated_rating_for_a_rule_by_ratings(self) -> None:
        rated = [Player("Ash", rating=1800.0), Player("Box", estimated_rating=1650.0)]
        found = player_figures(rated, figure_list("rating"))
        assert found.value.tolist() == [1800.0, 1650.0]
        assert found.source == ("", "estimated rating")


def _checked(
    games: list[Game],
    divisions: dict[str, Division],
    grades: list[float | None] | None = None,
    registrations: list[tuple[str, dt.date | None]] | None = None,
) -> list:
    index = {name: i for i, name in enumerate(PEOPLE)}
    boards = appearances(
        games,
        [index.get(g.home, -1) for g in games],
        [index.get(g.away, -1) for g in games],
        grades if grades is not None else [100.0] * len(PEOPLE),
        PEOPLE,
    )
    return season_breaches(divisions, boards, registrations=registrations or ())


class TestPlayingDownAsHandbooksSayIt:
    def test_nottinghamshire_c4_only_games_above_the_bottom_two_boards(self) -> None:
        # Rule C4: games count "on higher boards … above the bottom two boards". Redmire A plays
        # six boards; Ash's three games on board 5 (of 6: the bottom two are 5 and 6) do not fix
        # him, so he may play for Redmire B: no false breach.
        notts = {
            "Division 1": Division("Division 1", boards=6, games_to_fix=3, fix_above_bottom=2),
            "Division 2": Division("Division 2", boards=6, games_to_fix=3, fix_above_bottom=2),
        }
        games = [_game(d, "Redmire A v Hull", 5, "Ash", "Box") for d in (1, 2, 3)]
        games.append(_game(4, "Redmire B v Leeds", 1, "Ash", "Elm", division="Division 2"))
        assert _checked(games, notts) == []
        # On board 4 with boards 5 and 6 played (the lowest board above the bottom two) they
        # count: 3 ≥ 3.
        games = [
            _game(d, "Redmire A v Hull", b, home, "Box")
            for d in (1, 2, 3)
            for b, home in ((4, "Ash"), (5, "Fir"), (6, "Oak"))
        ]
        games.append(_game(4, "Redmire B v Leeds", 1, "Ash", "Elm", division="Division 2"))
        (breach,) = _checked(games, notts)
        assert (breach.rule, breach.team) == (PLAYING_DOWN, "Redmire B")
        assert breach.why == (
            "Ash had played 3 games above the bottom 2 boards for higher teams of Redmire "
            "(Redmire A 3) before 2025-09-04; after 3 a player may not play for a lower team"
        )

    def test_nottinghamshire_c4_the_bottom_boards_played_or_won_by_default(self) -> None:
        # "Above the bottom two boards played or won by default", with Boards 5: Redmire A
        # defaults board 5 each time, so boards 3 and 4 are its bottom two played and Ash's
        # three games on board 3 do not fix him. Where board 5 is won by default (Hull
        # defaults it), it is one of the bottom two, and board 3 is above them: 3 ≥ 3.
        notts = {"Division 1": Division("Division 1", boards=5, games_to_fix=3, fix_above_bottom=2)}
        lower = _game(4, "Redmire B v Leeds", 1, "Ash", "Elm")

        def season(result: str) -> list[Game]:
            games = []
            for d in (1, 2, 3):
                games += [
                    _game(d, "Redmire A v Hull", b, home, away)
                    for b, home, away in ((1, "Fir", "Box"), (2, "Oak", "Elm"), (3, "Ash", "Yew"))
                ]
                games.append(_game(d, "Redmire A v Hull", 4, "Yew", "Box"))
                games.append(_game(d, "Redmire A v Hull", 5, "Oak", "Fir", result))
            return [*games, lower]

        assert [b for b in _checked(season("0-1 def"), notts) if b.player == "Ash"] == []
        (breach,) = [b for b in _checked(season("1-0 def"), notts) if b.player == "Ash"]
        assert (breach.rule, breach.team) == (PLAYING_DOWN, "Redmire B")

    def test_without_the_division_s_boards_the_team_s_own_boards(self) -> None:
        # No Boards given: Redmire A fielded boards 1 to 4 that day, so board 3 is one of the
        # bottom two; three such games do not fix Ash.
        rule = Division("Division 1", games_to_fix=3, fix_above_bottom=2)
        games = []
        for day in (1, 2, 3):
            games += [
                _game(day, "Redmire A v Hull", b, home, away)
                for b, home, away in ((1, "Fir", "Box"), (2, "Oak", "Elm"), (3, "Ash", "Yew"))
            ]
            games.append(_game(day, "Redmire A v Hull", 4, "Yew", "Box"))
        games.append(_game(4, "Redmire B v Leeds", 1, "Ash", "Elm"))
        assert [b for b in _checked(games, {"Division 1": rule}) if b.player == "Ash"] == []

    def test_sheffield_top_two_boards_and_a_lower_division(self) -> None:
        # Sheffield fixes a player by games on the top two boards and forbids a lower division,
        # not a lower team letter: Ash's three games on board 2 for Redmire A in Division 1 keep
        # him out of Division 2, but not out of Redmire B in Division 1.
        rules = {
            name: Division(
                name, level=level, games_to_fix=3, fix_top_boards=2, down_by_division=True
            )
            for name, level in (("Division 1", 1), ("Division 2", 2))
        }
        games = [_game(d, "Redmire A v Hull", 2, "Ash", "Box") for d in (1, 2, 3)]
        same = _game(4, "Redmire B v York", 1, "Ash", "Elm")
        lower = _game(5, "Redmire C v Leeds", 1, "Ash", "Elm", division="Division 2")
        assert _checked([*games, same], rules) == []
        (breach,) = _checked([*games, same, lower], rules)
        assert (breach.rule, breach.team, breach.division) == (
            PLAYING_DOWN,
            "Redmire C",
            "Division 2",
        )
        # Four games in Division 1 on the top two boards: three for Redmire A, one for B.
        assert breach.why == (
            "Ash had played 4 games on the top 2 boards for Redmire in higher divisions "
            "(Division 1 4) before 2025-09-05; after 3 a player may not play in a lower division"
        )
        # Games on board 3 do not count.
        games = [_game(d, "Redmire A v Hull", 3, "Ash", "Box") for d in (1, 2, 3)]
        assert _checked([*games, lower], rules) == []

    def test_lms_not_more_than_one_team_below_the_normal_team(self) -> None:
        # "cannot play two teams below their normal team": Ash's normal team is Redmire B (two
        # games); Redmire C is 1 below it, allowed; Redmire D is 2 below, more than 1.
        lms = {"Division 1": Division("Division 1", max_below_normal=1)}
        games = [_game(d, "Redmire B v Hull", 1, "Ash", "Box") for d in (1, 2)]
        games.append(_game(3, "Redmire C v Hull", 1, "Ash", "Box"))
        assert _checked(games, lms) == []
        games.append(_game(4, "Redmire D v Hull", 1, "Ash", "Box"))
        (breach,) = _checked(games, lms)
        assert (breach.rule, breach.team) == (BELOW_NORMAL, "Redmire D")
        assert breach.why == (
            "Ash's normal team is Redmire B (2 games before 2025-09-04); Redmire D is 2 teams "
            "below it, more than 1"
        )


class TestRegisteredPlayers:
    RULES: ClassVar[dict[str, Division]] = {
        "Division 1": Division("Division 1", level=1),
        "Division 2": Division("Division 2", level=2),
    }

    def test_not_for_a_lower_team_from_the_day_of_registration(self) -> None:
        # Bristol, Oxfordshire…: a player registered (nominated, starred) to a team may not
        # play for a lower team. Ash is registered to Redmire A from 3 September.
        registered = [("Redmire A", dt.date(2025, 9, 3))] + [("", None)] * 5
        before = _game(2, "Redmire B v Hull", 1, "Ash", "Box")
        after = _game(4, "Redmire B v Hull", 1, "Ash", "Box", row=9)
        higher = _game(5, "Redmire A v Hull", 1, "Ash", "Box")
        other_club = _game(6, "Hull B v Leeds", 1, "Ash", "Box")
        found = _checked([before, after, higher, other_club], self.RULES, registrations=registered)
        assert [(b.rule, b.row, b.why) for b in found] == [
            (
                REGISTERED,
                9,
                "Ash is registered to Redmire A from 2025-09-03; a registered player may not "
                "play for a lower team",
            )
        ]

    def test_not_in_a_lower_division(self) -> None:
        # Sheffield: registered players may not play in a lower division; Redmire A plays in
        # Division 1, so Redmire B in Division 1 is allowed and Redmire C in Division 2 is not.
        rules = {
            name: dataclasses.replace(d, down_by_division=True) for name, d in self.RULES.items()
        }
        registered = [("Redmire A", None)] + [("", None)] * 5
        games = [
            _game(1, "Redmire A v Hull", 1, "Ash", "Box"),
            _game(2, "Redmire B v Hull", 1, "Ash", "Box"),
            _game(3, "Redmire C v Hull", 1, "Ash", "Box", division="Division 2"),
        ]
        (breach,) = _checked(games, rules, registrations=registered)
        assert (breach.rule, breach.team) == (REGISTERED, "Redmire C")
        assert breach.why == (
            "Ash is registered to Redmire A, a team of a higher division than Division 2; a "
            "registered player may not play in a lower division"
        )

    def test_allocations_that_change_on_a_date(self) -> None:
        # B until 9 September, A from the 10th (a player moved up mid-season): Redmire B on the
        # 9th is his own team; on the 10th it is a lower team than his allocation.
        registered = [("Redmire B; Redmire A from 10/9/2025", None)] + [("", None)] * 5
        games = [
            _game(9, "Redmire B v Hull", 1, "Ash", "Box", row=2),
            _game(10, "Redmire B v Hull", 1, "Ash", "Box", row=3),
            _game(11, "Redmire A v Hull", 1, "Ash", "Box", row=4),
        ]
        (breach,) = _checked(games, self.RULES, registrations=registered)
        assert (breach.rule, breach.row, breach.why) == (
            REGISTERED,
            3,
            "Ash is registered to Redmire A from 2025-09-10; a registered player may not play "
            "for a lower team",
        )
        # Redmire C on the 9th is below his allocation then, B.
        lower = [_game(9, "Redmire C v Hull", 1, "Ash", "Box", row=5)]
        (breach,) = _checked(lower, self.RULES, registrations=registered)
        assert breach.why == (
            "Ash is registered to Redmire B; a registered player may not play for a lower team"
        )
        assert allocations("Redmire B", dt.date(2025, 9, 1)) == (
            ("Redmire B", dt.date(2025, 9, 1)),
        )

    def test_an_allocation_not_read_is_said_so(self) -> None:
        registered = [("Redmire B; Redmire A", None)] + [("", None)] * 5
        (breach,) = _checked(
            [_game(9, "Redmire C v Hull", 1, "Ash", "Box")], self.RULES, registrations=registered
        )
        assert (breach.rule, breach.player) == (NOT_CHECKED, "Ash")
        assert breach.why == (
            "Registered team: 'Redmire A' of 'Redmire B; Redmire A' needs the day it takes effect "
            "('Redmire A from 2025-11-02'): his registration is not checked"
        )
        with pytest.raises(GradingError, match="the days are not in order"):
            allocations("A; B from 2025-11-02; C from 2025-10-01")


class TestReservePlaces:
    def test_bournemouth_ten_reserve_places(self) -> None:
        # Bournemouth & District: a team has a "maximum of 10 Reserve Places". Elm, registered
        # to Redmire B, plays board 2 for Redmire A in eleven matches: the first ten are its
        # ten places, the eleventh is one too many. Ash (Redmire A), Box and Fir (Hull) play
        # for their own teams.
        rule = {"Division 1": Division("Division 1", max_reserve_places=10)}
        registered = [("Redmire A", None), ("Hull", None), ("Redmire B", None), ("Hull", None)]
        registered += [("", None)] * 2
        games = []
        for day in range(1, 12):
            games += [
                _game(day, "Redmire A v Hull", 1, "Ash", "Box", row=2 * day),
                _game(day, "Redmire A v Hull", 2, "Elm", "Fir", row=2 * day + 1),
            ]
        assert _checked(games[:20], rule, registrations=registered) == []
        (breach,) = _checked(games, rule, registrations=registered)
        assert (breach.rule, breach.row, breach.team, breach.player) == (
            RESERVES,
            23,
            "Redmire A",
            "Elm",
        )
        assert breach.why == (
            "Elm (registered to Redmire B) is a reserve for Redmire A: its reserve place 11 of "
            "the season; a team has at most 10"
        )

    def test_two_reserves_in_one_match_and_a_player_registered_to_no_team(self) -> None:
        # One place left, two reserves in the match: the second board is the breach.
        rule = {"Division 1": Division("Division 1", max_reserve_places=1)}
        registered = [("Hull", None)] * 2 + [("", None)] * 4
        games = [
            _game(1, "Redmire A v Hull", 1, "Elm", "Ash"),
            _game(1, "Redmire A v Hull", 2, "Fir", "Box", row=7),
        ]
        (breach,) = _checked(games, rule, registrations=registered)
        assert (breach.row, breach.why) == (
            7,
            "Fir (registered to no team) is a reserve for Redmire A: its reserve place 2 of the "
            "season; a team has at most 1",
        )


class TestLeagueRegistration:
    def test_cheltenham_registered_before_the_first_game(self) -> None:
        # Cheltenham: a player is registered with the league before he plays. Ash registered
        # on 10 September: his game of the 9th is too early, the 10th is in time. Box has no
        # registration at all. (Decision: registered on the match's day is in time.)
        rule = {"Division 1": Division("Division 1", league_registration=True)}
        registered = [dt.date(2025, 9, 10), None, *[dt.date(2025, 9, 1)] * 4]
        games = [
            _game(9, "Redmire A v Hull", 1, "Ash", "Elm", row=2),
            _game(10, "Redmire A v Hull", 1, "Ash", "Box", row=3),
        ]
        index = {name: i for i, name in enumerate(PEOPLE)}
        boards = appearances(
            games,
            [index[g.home] for g in games],
            [index[g.away] for g in games],
            [100.0] * len(PEOPLE),
            PEOPLE,
        )
        found = season_breaches(rule, boards, league_registered=registered)
        assert [(b.rule, b.row, b.player, b.why) for b in found] == [
            (
                LEAGUE_REGISTERED,
                2,
                "Ash",
                "Ash was registered with the league on 2025-09-10, after this game of "
                "2025-09-09; a player is registered before he plays",
            ),
            (
                LEAGUE_REGISTERED,
                3,
                "Box",
                "Box is not registered with the league (no 'League registered' day); a player "
                "is registered before he plays",
            ),
        ]


class TestOneTeamARound:
    def test_leicestershire_cup_rounds_by_their_ends(self) -> None:
        # Leicestershire's cups: a player plays for one team in a round. Round 1 is to be
        # played by 10 September, round 2 by the 20th: Ash plays for Redmire A on the 3rd and
        # Redmire B on the 10th (round 1 still: a breach), then Redmire B on the 11th (round
        # 2: allowed).
        cup = {"Cup": Division("Cup", one_team_round=True, round_ends="10/9/2025, 20/9/2025")}
        games = [
            _game(3, "Redmire A v Hull", 1, "Ash", "Box", division="Cup", row=2),
            _game(10, "Redmire B v Leeds", 1, "Ash", "Elm", division="Cup", row=3),
            _game(11, "Redmire B v York", 1, "Ash", "Fir", division="Cup", row=4),
        ]
        (breach,) = _checked(games, cup)
        assert (breach.rule, breach.row, breach.team) == (ONE_TEAM_ROUND, 3, "Redmire B")
        assert breach.why == (
            "Ash played for Redmire A in round 1 (to 2025-09-10) of Cup; a player plays for one "
            "team a round"
        )

    def test_a_round_by_the_match_date(self) -> None:
        # No Round ends: each date is a round; the same day for two teams is a breach, even
        # in one day's games.
        cup = {"Cup": Division("Cup", one_team_round=True)}
        games = [
            _game(3, "Redmire A v Hull", 1, "Ash", "Box", division="Cup", row=2),
            _game(4, "Redmire B v Leeds", 1, "Ash", "Elm", division="Cup", row=3),
        ]
        assert _checked(games, cup) == []
        games.append(_game(4, "Redmire A v York", 2, "Ash", "Fir", division="Cup", row=4))
        (breach,) = _checked(games, cup)
        assert breach.why == (
            "Ash played for Redmire B in the round of 2025-09-04 of Cup; a player plays for one "
            "team a round"
        )
        with pytest.raises(SettingError, match="round ends '2025-10-01, 2025-09-01' are not in"):
            Division("Cup", one_team_round=True, round_ends="2025-10-01, 2025-09-01")


class TestNorthStaffsOneTeamExemption:
    # North Staffs: one team per division, but players "graded at least 10 below the
    # division's average limit" are exempt. Division 4: 400 for 4 boards, an average limit of
    # 400 / 4 = 100; 100 − 10 = 90 or less is exempt.
    RULE = Division("Division 4", boards=4, max_total=400, one_team=True, one_team_margin=10)

    def games(self) -> list[Game]:
        return [
            _game(1, "Redmire A v Hull", 1, "Ash", "Box", division="Division 4"),
            _game(2, "Redmire B v Leeds", 1, "Ash", "Elm", division="Division 4"),
        ]

    def test_exactly_10_below_is_exempt(self) -> None:
        assert _checked(self.games(), {"Division 4": self.RULE}, [90.0] * 6) == []

    def test_9_below_is_not(self) -> None:
        (breach,) = _checked(self.games(), {"Division 4": self.RULE}, [91.0] * 6)
        assert breach.rule == ONE_TEAM
        assert breach.why == (
            "Ash played for Redmire A in Division 4 on 2025-09-01; a player plays for one team "
            "of the division (exempt at 10 or more below the average limit 100, 90 or less: Ash "
            "has 91)"
        )

    def test_the_margin_needs_an_average_limit(self) -> None:
        with pytest.raises(SettingError, match="'One team exemption margin' needs an average"):
            Division("D", one_team=True, one_team_margin=10)


class TestTeamRanking:
    def test_roman_numerals(self) -> None:
        # "Cowley I" is Cowley's first team, not its ninth (letter I).
        games = [_game(d, "Cowley I v Hull", 1, "Ash", "Box") for d in (1, 2, 3)]
        games.append(_game(4, "Cowley II v Leeds", 1, "Ash", "Elm"))
        (breach,) = _checked(games, {"Division 1": NOTTS})
        assert breach.why.startswith("Ash had played 3 games for higher teams of Cowley (Cowley I")
        ranks = rank_teams([parse_team(n) for n in ("Hull A", "Hull I", "Hull B")])
        assert [ranks[n].rank for n in ("hull a", "hull b", "hull i")] == [0, 1, 8]

    def test_a_declared_order(self) -> None:
        # Northumbria lets clubs declare their teams' ranking: Gosforth Phoenix above Gosforth
        # Pegasus, names that give no order.
        declared = "Gosforth: Gosforth Phoenix, Gosforth Pegasus"
        rule = Division("Division 1", games_to_fix=3, team_order=declared)
        games = [_game(d, "Gosforth Phoenix v Hull", 1, "Ash", "Box") for d in (1, 2, 3)]
        games.append(_game(4, "Gosforth Pegasus v Leeds", 1, "Ash", "Elm"))
        (breach,) = _checked(games, {"Division 1": rule})
        assert breach.why == (
            "Ash had played 3 games for higher teams of Gosforth (Gosforth Phoenix 3) before "
            "2025-09-04; after 3 a player may not play for a lower team"
        )
        assert declared_order("A 1, A 2; B: B X") == [("A", ["A 1", "A 2"]), ("B", ["B X"])]
        with pytest.raises(SettingError, match="team order names 'A 1' twice"):
            declared_order("A 1; A 1")
        with pytest.raises(SettingError, match="team order 'Club:' names no team"):
            Division("D", team_order="Club:")


class TestTheFigureForEachRule:
    def test_fallbacks_in_order(self) -> None:
        # A rapid division: "rapid ratings, falling back to standard then an estimate".
        people = [
            Player("Ash", rapid_rating=1650.0, rating=1700.0),
            Player("Box", rating=1620.0),
            Player("Elm", estimated_rating=1610.0),
        ]
        found = player_figures(people, figure_list("rapid rating, standard rating"))
        assert found.value.tolist() == [1650.0, 1620.0, 1610.0]
        assert found.source == ("", "ECF rating", "estimated rating")

    def test_p_ratings_apart(self) -> None:
        # Dorset treats P (partial) ratings apart: counted, as an estimate, or not at all.
        people = [
            Player("Ash", rating=1500.0, rating_category="P"),
            Player("Box", rating=1500.0, rating_category="P", estimated_rating=1580.0),
            Player("Elm", rating=1500.0, rating_category="A"),
        ]
        chain = figure_list("rating")
        assert player_figures(people, chain).value.tolist() == [1500.0, 1500.0, 1500.0]
        estimate = player_figures(people, chain, "estimate")
        assert estimate.value.tolist() == [1500.0, 1580.0, 1500.0]
        assert estimate.source == ("ECF rating P, as an estimate", "estimated rating", "")
        ignored = player_figures(people, chain, "ignore")
        assert np.isnan(ignored.value[0])
        assert ignored.value.tolist()[1:] == [1580.0, 1500.0]

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("grade, rating", "'grade, rating' mixes grades and ratings"),
            ("elo", "figure 'elo' of 'elo' is not one of grade, rating"),
            (" , ", "' , ' names no figure"),
        ],
    )
    def test_lists_refused(self, text: str, message: str) -> None:
        with pytest.raises(SettingError, match=message):
            Division("D", eligibility_figure=text)

    def test_p_ratings_refused(self) -> None:
        with pytest.raises(SettingError, match="P ratings 'half' is not one of count, estimate"):
            Division("D", p_ratings="half")

    def test_board_order_on_its_own_figure(self) -> None:
        # Croydon: the fixed list for the limits, the live rating for board order.
        fixed = [Board(1, "Ash", 1700), Board(2, "Box", 1740)]
        live = [Board(1, "Ash", 1640), Board(2, "Box", 1760)]
        croydon = Division("D", board_order_tolerance=100, max_grade=1750)
        assert [b.why for b in team_breaches(croydon, fixed, live)] == [
            "board 2, Box (1760) is more than 100 above Ash (1640) on board 1"
        ]
        got = team_breaches_array(
            croydon, [0, 0], [1, 2], [1700, 1740], [False, False], ["Ash", "Box"],
            order_figure=[1640, 1760],
        )  # fmt: skip
        assert [b for _, b in got] == list(team_breaches(croydon, fixed, live))


class TestBoardOrderVariants:
    def test_northamptonshire_junior_allowance(self) -> None:
        # "up to 100 points for each junior in the pair", beside the tolerance of 100: Ash (an
        # adult, 120) above Kid (a junior): 310 − 120 = 190 ≤ 100 + 100; 321 − 120 = 201 is not.
        rule = Division("Northants", board_order_tolerance=100, junior_allowance=100)
        assert team_breaches(rule, [Board(1, "Ash", 120), Board(2, "Kid", 310, junior=True)]) == ()
        assert whys(rule, [Board(1, "Ash", 120), Board(2, "Kid", 321, junior=True)]) == [
            "board 2, Kid (321) is more than 200 above Ash (120) on board 1 (100 + 1 × 100 for "
            "the pair's junior)"
        ]
        # Two juniors: 100 + 2 × 100 = 300; 421 − 120 = 301 > 300.
        pair = [Board(1, "Tot", 120, junior=True), Board(2, "Kid", 421, junior=True)]
        assert whys(rule, pair) == [
            "board 2, Kid (421) is more than 300 above Tot (120) on board 1 (100 + 2 × 100 for "
            "the pair's juniors)"
        ]
        # An adult's pair keeps the plain tolerance: 221 − 120 = 101 > 100.
        assert whys(rule, boards_of([120, 221])) == [
            "board 2 (221) is more than 100 above board 1 (120)"
        ]

    def test_shropshire_adjacent_boards_within_10(self) -> None:
        # Strict order, but adjacent boards within 10 are interchangeable: board 2 (130) is 10
        # above board 1 (120), allowed; board 3 (125) is 5 above board 1, not adjacent.
        shropshire = Division("Shropshire", board_order_tolerance=0, adjacent_within=10)
        assert whys(shropshire, boards_of([120, 130, 125])) == [
            "board 3 (125) is more than 0 above board 1 (120)"
        ]
        # 131 − 120 = 11: more than 10, so not interchangeable.
        assert whys(shropshire, boards_of([120, 131])) == [
            "board 2 (131) is more than 0 above board 1 (120); adjacent boards may be 10 apart"
        ]

    def test_north_staffs_not_above_a_player_15_points_higher(self) -> None:
        # "not above a player 15 points higher": 15 or more breaks it, as a tolerance of 14.
        staffs = Division("North Staffs", board_order_higher_by=15)
        assert team_breaches(staffs, boards_of([100, 114])) == ()
        assert whys(staffs, boards_of([100, 115])) == [
            "board 2 (115) is 15 or more above board 1 (100)"
        ]
        as_tolerance = Division("North Staffs", board_order_tolerance=14)
        for figures_ in ([100, 114], [100, 115]):
            assert bool(team_breaches(staffs, boards_of(figures_))) == bool(
                team_breaches(as_tolerance, boards_of(figures_))
            )

    @pytest.mark.parametrize(
        ("rules", "message"),
        [
            (
                {"board_order_tolerance": 14, "board_order_higher_by": 15},
                "say one rule two ways",
            ),
            ({"junior_allowance": 100}, "'Junior allowance' needs 'Board order tolerance'"),
            ({"adjacent_within": 10}, "'Adjacent boards within' needs 'Board order tolerance'"),
            ({"top_boards": 4}, "'Top boards' and 'Max top average' go together"),
        ],
    )
    def test_rules_that_do_not_go_together(self, rules: dict[str, float], message: str) -> None:
        with pytest.raises(SettingError, match=message):
            Division("D", **rules)  # type: ignore[arg-type]


class TestAveragesAndComposition:
    """4NCL: "minimum and top-four averages and a FIDE cap" (issue 23)."""

    def test_minimum_average(self) -> None:
        # 2000 + 1900 + 1700 + 1600 = 7200; 7200 / 4 = 1800 < 1850.
        rule = Division("4NCL", min_average=1850)
        assert whys(rule, boards_of([2000, 1900, 1700, 1600])) == [
            "the team's average is 7200 / 4 = 1800, less than the minimum 1850"
        ]
        assert team_breaches(rule, boards_of([2000, 1900, 1800, 1700])) == ()  # 7400 / 4 = 1850

    def test_top_four_average(self) -> None:
        # The top four boards: 2300 + 2250 + 2200 + 2100 = 8850; 8850 / 4 = 2212.5 > 2200. The
        # other boards (1900, 1800) do not count.
        rule = Division("4NCL", top_boards=4, max_top_average=2200)
        assert whys(rule, boards_of([2300, 2250, 2200, 2100, 1900, 1800])) == [
            "the top 4 boards count 2300 + 2250 + 2200 + 2100 = 8850, an average of 2212.5, "
            "more than the maximum 2200"
        ]
        # 2300 + 2250 + 2150 + 2100 = 8800; 8800 / 4 = 2200: at the maximum.
        assert team_breaches(rule, boards_of([2300, 2250, 2150, 2100, 2400])) == ()

    def test_a_fide_cap(self) -> None:
        rule = Division("4NCL", max_fide=2400)
        boards = [Board(1, "Ash", 2380, fide=2405), Board(2, "Box", 2390, fide=2400)]
        assert whys(rule, boards) == [
            "board 1, Ash (FIDE 2405) is over the maximum FIDE rating 2400"
        ]


class TestNonMembers:
    def test_a_non_member_plays_at_most_the_limit(self) -> None:
        # Croydon, North Staffs limit games by players who are not ECF members: Ash (not a
        # member) plays his third game on 3 September with a limit of 2; Box's membership is
        # not known, and is not counted.
        rule = {"Division 1": Division("Division 1", max_non_member_games=2)}
        games = [_game(d, "Redmire A v Hull", 1, "Ash", "Box", row=d) for d in (1, 2, 3)]
        index = {name: i for i, name in enumerate(PEOPLE)}
        boards = appearances(
            games, [index["Ash"]] * 3, [index["Box"]] * 3, [100.0] * len(PEOPLE), PEOPLE
        )
        members = [False, None, True, True, True, True]
        (breach,) = season_breaches(rule, boards, members=members)
        assert (breach.rule, breach.row, breach.player) == (NON_MEMBER, 3, "Ash")
        assert breach.why == (
            "Ash is not an ECF member and had played 2 games in Division 1 before 2025-09-03; a "
            "non-member plays at most 2"
        )

    def test_croydon_three_in_the_main_divisions_six_in_the_rapidplay(self) -> None:
        # Croydon: non-members "up to three games in the main divisions, or six games in the
        # Rapidplay Division". Ash (not a member) plays 2 rapid games, then 3 main ones in
        # Divisions 1 and 2: no breach (counted together, he would have 3 and 4 games before
        # the 2nd and 3rd main game). His 4th main game breaks the main divisions' three.
        rules = {
            "Division 1": Division("Division 1", max_non_member_games=3, non_member_pool="Main"),
            "Division 2": Division("Division 2", max_non_member_games=3, non_member_pool="main"),
            "Rapidplay": Division("Rapidplay", max_non_member_games=6),
        }
        where = [("Rapidplay", 1), ("Rapidplay", 2), ("Division 1", 3), ("Division 2", 4)]
        where += [("Division 1", 5), ("Division 2", 6)]
        games = [
            _game(d, "Redmire A v Hull", 1, "Ash", "Box", division=name, row=d) for name, d in where
        ]
        index = {name: i for i, name in enumerate(PEOPLE)}
        people = [100.0] * len(PEOPLE)
        members = [False, True, True, True, True, True]
        boards = appearances(games[:5], [index["Ash"]] * 5, [1] * 5, people, PEOPLE)
        assert season_breaches(rules, boards, members=members) == []
        boards = appearances(games, [index["Ash"]] * 6, [1] * 6, people, PEOPLE)
        (breach,) = season_breaches(rules, boards, members=members)
        assert (breach.rule, breach.row, breach.division) == (NON_MEMBER, 6, "Division 2")
        assert breach.why == (
            "Ash is not an ECF member and had played 3 games in the main divisions before "
            "2025-09-06; a non-member plays at most 3"
        )


def test_a_breach_names_the_figure_its_rule_used() -> None:
    # Croydon: the limits by the September list, board order by the live rating.
    croydon = Division("D", max_grade=1750, board_order_tolerance=100)
    fixed = [Board(1, "Ash", 1700), Board(2, "Box", 1760)]
    live = [Board(1, "Ash", 1640), Board(2, "Box", 1760)]
    said = team_breaches(croydon, fixed, live, label="ECF rating", order_label="latest ECF rating")
    assert [b.why for b in said] == [
        "board 2, Box (1760) is more than 100 above Ash (1640) on board 1; by the latest ECF "
        "rating",
        "board 2, Box (1760) is over the maximum rating 1750; by the ECF rating",
    ]
    got = team_breaches_array(
        croydon, [0, 0], [1, 2], [1700, 1760], [False, False], ["Ash", "Box"],
        order_figure=[1640, 1760], label="ECF rating", order_label="latest ECF rating",
    )  # fmt: skip
    assert [b for _, b in got] == list(said)


class TestEdges:
    def test_an_exemption_by_the_average_limit_and_a_player_without_a_figure(self) -> None:
        # Max average 110 is the limit itself: 110 − 10 = 100 or less is exempt. An ungraded
        # player without an estimate has no figure, so is not.
        rule = Division("D", max_average=110, one_team=True, one_team_margin=10)
        assert rule.average_limit == 110
        games = [
            _game(1, "Redmire A v Hull", 1, "Ash", "Box", division="D"),
            _game(2, "Redmire B v Hull", 1, "Ash", "Box", division="D"),
        ]
        assert _checked(games, {"D": rule}, [100.0] * 6) == []
        (breach,) = _checked(games, {"D": rule}, [None] * 6)
        assert breach.why.endswith("100 or less: Ash has ungraded)")

    def test_names_that_give_no_rank(self) -> None:
        # "VX" is no numeral: the club's only team. A club's team left out of its declared
        # order ranks below the declared ones, in its name's order.
        assert parse_team("Hull VX").rank is None
        ranks = rank_teams(
            [parse_team(n) for n in ("Forest Hall A", "Forest Hall B", "Forest Hall C")],
            ["Forest Hall: Forest Hall B"],
        )
        assert [ranks[n].rank for n in ("forest hall b", "forest hall a", "forest hall c")] == [
            0,
            1,
            3,
        ]

    def test_the_normal_team_counts_only_ranked_teams(self) -> None:
        # "Redmire" alone has no rank: Ash's games for it give him no normal team.
        lms = {"Division 1": Division("Division 1", max_below_normal=1)}
        games = [_game(d, "Redmire v Hull", 1, "Ash", "Box") for d in (1, 2)]
        games.append(_game(3, "Redmire D v Hull", 1, "Ash", "Box"))
        assert _checked(games, lms) == []

    def test_a_registration_to_a_team_without_a_rank_or_a_higher_team(self) -> None:
        registered = [("Redmire B", None)] + [("", None)] * 5
        games = [_game(1, "Redmire A v Hull", 1, "Ash", "Box")]
        assert _checked(games, {"Division 1": Division("Division 1")}, None, registered) == []


def test_registrations_for_some_players_only() -> None:
    # Only Ash's registration is given: Box, beyond the list, has none.
    games = [_game(1, "Redmire B v Hull", 1, "Box", "Ash")]
    assert _checked(games, {"Division 1": Division("Division 1")}, None, [("Hull A", None)]) == []


def test_a_teams_breaches_are_listed_in_the_order_of_the_table_in_both_forms() -> None:
    # Boards 100, 150 (FIDE 2100), 160, 90. Board order 20: 150 and 160 are more than 20
    # above 100; no player over 155: 160; FIDE cap 2000: 2100; at most one over 140: 150 and
    # 160; total 500 > 450; average 125 > 110; top two boards (100 + 150) / 2 = 125 > 120.
    division = Division("All", board_order_tolerance=20, max_grade=155, max_fide=2000,
                        max_players_over=1, over_grade=140, max_total=450, max_average=110,
                        top_boards=2, max_top_average=120)  # fmt: skip
    figures = [100.0, 150.0, 160.0, 90.0]
    fides = [None, 2100.0, None, None]
    boards = [Board(k + 1, f"P{k + 1}", f, fide=fides[k]) for k, f in enumerate(figures)]
    expected = ["board order", "board order", "max grade", "max FIDE rating", "players over",
                "max total", "max average", "top average"]  # fmt: skip
    scalar = team_breaches(division, boards)
    array = team_breaches_array(
        division, [0] * 4, [1, 2, 3, 4], figures, [False] * 4, [b.player for b in boards],
        fide=[float("nan") if f is None else f for f in fides],
    )  # fmt: skip
    assert [b.rule for b in scalar] == expected
    assert [b for _, b in array] == list(scalar)
    assert tuple(kind.name for kind in RULE_KINDS) == RULES
    assert sorted(expected, key=RULES.index) == expected


class TestListsByDate:
    """A division's ratings from an edition of the rating list: a named one, or the one in
    force on the match date (docs/rules.md §13; Croydon, Devon)."""

    # Ash (X) 1850 above Box (Y) 1750 by September's list; January's has Y 1900, X 1780. Oak is
    # on September's list only, with an estimate of 1600.
    PLAYERS: ClassVar = [
        Player("Ash", code="123456A"),
        Player("Box", code="111111F"),
        Player("Oak", code="100000H", estimated_rating=1600.0),
        Player("Elm", code="210988J"),
    ]
    SEPTEMBER, JANUARY = dt.date(2025, 9, 1), dt.date(2026, 1, 1)
    HISTORY = RatingHistory.of(
        [
            ListedRating("123456A", SEPTEMBER, 1850.0),
            ListedRating("111111F", SEPTEMBER, 1750.0),
            ListedRating("100000H", SEPTEMBER, 1500.0),
            ListedRating("123456a", JANUARY, 1780.0),  # a code read as the Players' is
            ListedRating("111111F", JANUARY, 1900.0),
        ]
    )
    DIVISION = Division("D", board_order_tolerance=100)

    def _breaches(self, day: dt.date, listed: ListFigures) -> list:
        games = [
            Game("Ash", "Elm", "1-0", day, "D", "Redmire A v Hull A", 1),
            Game("Box", "Elm", "1-0", day, "D", "Redmire A v Hull A", 2),
            Game("Oak", "Elm", "1-0", day, "D", "Redmire A v Hull A", 3),
        ]
        names = [p.name for p in self.PLAYERS]
        boards = appearances(games, [0, 1, 2], [3, 3, 3], [None] * 4, names)
        return season_breaches({"D": self.DIVISION}, boards, {"D": (listed, listed)})

    def _by_date(self) -> ListFigures:
        chain = figure_list("rating")
        return ListFigures(
            MATCH_DATE,
            self.HISTORY,
            {
                month: player_figures(self.PLAYERS, chain, None, (self.HISTORY, month))
                for month in self.HISTORY.months
            },
        )

    def test_the_list_in_force_on_the_match_date(self) -> None:
        listed = self._by_date()
        # 31 December: September's list, Ash 1850 above Box 1750: in order.
        assert self._breaches(dt.date(2025, 12, 31), listed) == []
        # 1 January: January's list is issued on the 1st. Box 1900 − Ash 1780 = 120 > 100.
        (breach,) = self._breaches(self.JANUARY, listed)
        assert (breach.rule, breach.board) == (BOARD_ORDER, 2)
        assert breach.why == (
            "board 2, Box (1900) is more than 100 above Ash (1780) on board 1; by the ECF "
            "rating of the January 2026 list"
        )

    def test_a_player_not_on_the_edition_falls_back_to_his_estimate(self) -> None:
        january = self._by_date().figures[self.JANUARY]
        assert january.value.tolist()[:3] == [1780.0, 1900.0, 1600.0]
        assert january.source[:3] == ("", "", "estimated rating")
        assert np.isnan(january.value[3])  # Elm is on no list and has no estimate

    def test_a_match_before_the_first_list_is_not_checked(self) -> None:
        found = self._breaches(dt.date(2025, 8, 31), self._by_date())
        assert [(b.rule, b.team, b.board) for b in found] == [
            (NOT_CHECKED, "Hull A", None),
            (NOT_CHECKED, "Redmire A", None),
        ]
        assert (
            found[0].why
            == found[1].why
            == (
                "no rating list loaded was in force on 2025-08-31 (loaded: September 2025, January "
                "2026): the team is not checked"
            )
        )

    def test_a_named_edition_not_loaded_is_said_so(self) -> None:
        october = ListFigures(dt.date(2025, 10, 1), self.HISTORY, {})
        found = self._breaches(self.JANUARY, october)
        assert len(found) == 2  # each team
        assert found[0].why == (
            "the division's October 2025 list is not on the Ratings sheet (loaded: September "
            "2025, January 2026): the team is not checked"
        )

    def test_the_divisions_lists_read_and_refused(self) -> None:
        croydon = Division("D", rating_list="2025-09", board_order_list="Match date")
        assert croydon.lists == (self.SEPTEMBER, MATCH_DATE)
        assert Division("D", rating_list="Sep 2025").lists == (self.SEPTEMBER, self.SEPTEMBER)
        assert Division("D").lists == (None, None)
        with pytest.raises(SettingError, match="division 'D': list 'Septober' is neither"):
            Division("D", rating_list="Septober")


class TestWorcestershire:
    """Board 1 open, "the remaining 3 players having ratings below 1850"; a player with no
    current rating by a converted grade (7.5 × grade + 700), then an estimate."""

    RULE = Division(
        "Worcestershire", boards=4, board_limits="2-4 below 1850", eligibility_figure="rating, "
        "converted grade, estimate",
    )  # fmt: skip

    def _boards(self, people: list[Player]) -> tuple[list[Board], list]:
        found = player_figures(people, self.RULE.figures())
        boards = [
            Board(n, p.name, None if np.isnan(v) else v, source=source)
            for n, (p, v, source) in enumerate(
                zip(people, found.value.tolist(), found.source, strict=True), 1
            )
        ]
        said = team_breaches(self.RULE, boards, label=found.label)
        got = team_breaches_array(
            self.RULE, [0] * 4, [1, 2, 3, 4], found.value, [False] * 4, [p.name for p in people],
            sources=list(found.source), label=found.label,
        )  # fmt: skip
        assert [b for _, b in got] == list(said)
        return boards, list(said)

    def test_each_side_of_the_limit_with_no_false_breach(self) -> None:
        # Ash 2100 on the open board 1; Box 1849 is below 1850; Cole has no rating, his grade
        # 150 is 7.5 × 150 + 700 = 1825; Dale has neither, his estimate 1840.
        people = [
            Player("Ash", rating=2100.0),
            Player("Box", rating=1849.0),
            Player("Cole", grade=150.0),
            Player("Dale", estimated_rating=1840.0),
        ]
        boards, said = self._boards(people)
        assert [(b.figure, b.source) for b in boards] == [
            (2100.0, ""), (1849.0, ""), (1825.0, "grade as a rating"), (1840.0, "estimated rating")
        ]  # fmt: skip
        assert said == []

    def test_at_the_limit_and_by_a_converted_grade(self) -> None:
        # Box 1850 is not below 1850; Cole's grade 154 is 7.5 × 154 + 700 = 1855.
        people = [
            Player("Ash", rating=2100.0),
            Player("Box", rating=1850.0),
            Player("Cole", grade=154.0),
            Player("Dale", estimated_rating=1700.0),
        ]
        _, said = self._boards(people)
        assert [(b.rule, b.board, b.why) for b in said] == [
            (BOARD_LIMIT, 2, "board 2, Box (1850) is not below 1850, the rating limit on boards "
             "2-4; by the ECF rating"),
            (BOARD_LIMIT, 3, "board 3, Cole (1855, grade as a rating) is not below 1850, the "
             "rating limit on boards 2-4; by the ECF rating"),
        ]  # fmt: skip

    def test_the_limits_read_and_refused(self) -> None:
        assert board_limits("2+ below 1850; board 5 at most 1700") == (
            BoardLimit(2, None, 1850.0, True),
            BoardLimit(5, 5, 1700.0, False),
        )
        with pytest.raises(SettingError, match="board limit 'two below 1850' is not of the form"):
            Division("D", board_limits="two below 1850")
        with pytest.raises(SettingError, match="'rating, grade' mixes grades and ratings"):
            figure_list("rating, grade")
