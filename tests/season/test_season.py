"""The season recalculation (issue: season): the YCA player inside a league, working grades,
every check before grading with its exact reason, and the accounting."""

import datetime as dt

import numpy as np
import pytest

from tests.worked_examples import YCA_GAMES, YCA_POINTS, YCA_STARS
from xlgrade.model import EarlierSeason, Game, Player
from xlgrade.season import recalculate
from xlgrade.settings import Settings

DAY = dt.date(2025, 9, 1)

# The YCA 142 player's games (tests/worked_examples.py) as (result, opponent's grade), the
# ungraded opponent (working grade 136) without a grade.
GAMES = [
    ("½" if game.score == 0.5 else str(int(game.score)), None if game.estimated else game.opponent)
    for game in YCA_GAMES
]
RESULT = {"1": "1-0", "0": "0-1", "½": "½-½"}


def yca_league(history: bool) -> tuple[list[Player], list[Game]]:
    """The YCA player, an opponent per game, and an ungraded newcomer who beats the YCA player
    and loses to the opponent graded 130: his performance is (142 + 50 + 130 − 50) / 2 = 136."""
    yca = Player(
        "Yorke, Arthur",
        code="210988J",
        grade=142,
        previous=EarlierSeason(19, 2754) if history else None,
        earlier=EarlierSeason(24, 3300) if history else None,
        row=2,
    )
    players = [yca]
    games = []
    for number, (result, grade) in enumerate(GAMES, start=1):
        name = f"Opponent {number}" if grade is not None else "Newcomer, Nick"
        players.append(Player(name, grade=grade, club="Leeds", row=len(players) + 2))
        day = DAY + dt.timedelta(days=7 * number)
        games.append(Game("210988J", name, RESULT[result], day, row=number + 1))
    games.append(Game("Opponent 5", "Nick Newcomer", "1-0", DAY, row=19))
    return players, games


def test_the_yca_player_inside_a_league_gets_the_pages_card() -> None:
    players, games = yca_league(history=True)
    season = recalculate(players, games, Settings())
    card = season.card(0)
    assert [line.points.points for line in card.lines] == YCA_POINTS
    assert {line.number for line in card.lines if line.points.horizon_applied} == YCA_STARS
    assert [line.number for line in card.lines if line.game.estimated] == [4]
    assert card.lines[3].game.opponent_grade == pytest.approx(136)
    assert (card.grade.points, card.grade.games) == (2405, 17)
    assert (card.grade.grade, card.grade.category) == (143, "C")
    assert card.grade.borrowed_games == 13
    assert round(card.grade.borrowed_points, 1) == 1884.3


def test_without_history_the_yca_player_is_141_d() -> None:
    players, games = yca_league(history=False)
    season = recalculate(players, games, Settings())
    i = season.player_index("210988J")
    assert (season.standard.grade[i], season.standard.category[i]) == (141, "D")
    listed = {row[1]: row for row in season.list_table().rows}
    assert "Yorke, Arthur" in listed
    assert listed["Yorke, Arthur"][5:7] == (141, "D")


# Working grades (docs/rules.md §6).


def test_a_lone_ungraded_player_gets_his_performance_grade() -> None:
    players = [Player("A", grade=100), Player("B", grade=140), Player("New")]
    games = [Game("New", "A", "1-0", DAY), Game("B", "New", "1-0", DAY)]
    season = recalculate(players, games, Settings())
    # (100 + 50) and (140 − 50): mean 120, no horizon.
    assert season.standard.working.grades[2] == pytest.approx(120)
    assert season.standard.grade[2] == 120


def test_two_ungraded_players_who_meet_get_the_exact_solution() -> None:
    # X beats A (100) and Y; Y draws B (140). W_x = (150 + W_y + 50)/2, W_y = (140 + W_x − 50)/2
    # → W_x = 490/3, W_y = 380/3.
    players = [Player("A", grade=100), Player("B", grade=140), Player("X"), Player("Y")]
    games = [
        Game("X", "A", "1-0", DAY),
        Game("Y", "B", "½-½", DAY),
        Game("X", "Y", "1-0", DAY + dt.timedelta(days=1)),
    ]
    working = recalculate(players, games, Settings()).standard.working
    assert working.grades[2] == pytest.approx(490 / 3, abs=1e-9)
    assert working.grades[3] == pytest.approx(380 / 3, abs=1e-9)


def test_an_unanchored_group_is_reported_and_can_be_given_a_default() -> None:
    players = [Player("A", grade=100), Player("P"), Player("Q")]
    games = [Game("P", "Q", "1-0", DAY, row=2)]
    season = recalculate(players, games, Settings())
    assert season.standard.working.unanchored == ((1, 2),)
    assert [(p.row, p.what) for p in season.problems] == [(2, "no working grade")]
    assert season.accounting.balanced
    given = recalculate(players, games, Settings(unanchored_grade=80))
    assert given.standard.grade[1] == 130  # 80 + 50
    assert given.accounting.standard_graded == 1


def test_a_100_percent_score_stays_finite() -> None:
    players = [Player("A", grade=150), Player("B", grade=160), Player("Star")]
    games = [Game("Star", "A", "1-0", DAY), Game("B", "Star", "0-1", DAY)]
    season = recalculate(players, games, Settings())
    assert season.standard.working.grades[2] == pytest.approx(205)  # (200 + 210) / 2


def test_an_estimate_and_a_lapsed_grade_come_first() -> None:
    players = [
        Player("A", grade=100),
        Player("Est", estimated_grade=90),
        Player("Old", lapsed_grade=130),
    ]
    games = [Game("Est", "A", "1-0", DAY), Game("Old", "A", "1-0", DAY + dt.timedelta(days=1))]
    working = recalculate(players, games, Settings(inactivity_allowance=10)).standard.working
    assert list(working.grades) == [100, 90, 120]
    assert list(working.estimated) == [False, True, True]


# Checks before grading: each with its exact reason.

PLAYERS = [
    Player("Smith, John", code="210988J", club="Anytown", grade=120, row=2),
    Player("Brown, Ann", club="Beeton", grade=110, row=3),
    Player("Green, Tom", club="Beeton", grade=100, row=4),
    Player("Lee, Sam", club="Anytown", row=5),
    Player("Lee, Sam", club="Anytown", row=6),
    Player("Wrong, Code", code="123456B", grade=90, row=7),
]


@pytest.mark.parametrize(
    ("game", "what", "why"),
    [
        (Game("Jones", "Ann Brown", "1-0", DAY, row=9), "unknown player",
         "no player is called 'Jones'"),
        (Game("210988J", "999999B", "1-0", DAY, row=9), "unknown player",
         "no player has code '999999B'"),
        (Game("Sam Lee", "Ann Brown", "1-0", DAY, row=9), "ambiguous player",
         "2 players are called 'Sam Lee' (rows 5, 6): use the code"),
        (Game("Ann Brown", "Brown, Ann", "1-0", DAY, row=9), "self pairing",
         "'Ann Brown' is paired with himself"),
        (Game("210988J", "Ann Brown", "1-O", DAY, row=9), "result not understood",
         "result '1-O' not understood"),
        (Game("210988J", "Ann Brown", "1-0", dt.date(2026, 6, 1), row=9), "date outside season",
         "2026-06-01 is outside the season 2025-06-01 to 2026-05-31"),
        (Game("210988J", "Ann Brown", "1-0", DAY, time_control="40/", row=9),
         "time control not understood", "time control '40/': part '40/' not understood"),
        (Game("210988J", "Ann Brown", "1-0", DAY, time_control="blitz", row=9),
         "time control not gradable", "'blitz': lightning chess is not graded"),
        (Game("210988J", "Ann Brown", "1-0 def", DAY, row=9), "default",
         "'1-0 def': home won by default"),
    ],
)  # fmt: skip
def test_each_check_gives_its_reason(game: Game, what: str, why: str) -> None:
    season = recalculate(PLAYERS, [game], Settings())
    results = [p for p in season.problems if p.sheet == "Results"]
    assert [(p.row, p.what, p.why) for p in results] == [(9, what, why)]
    assert season.accounting.excepted == 1
    assert season.accounting.balanced


def test_player_checks() -> None:
    season = recalculate(PLAYERS, [], Settings())
    found = [(p.row, p.what, p.why) for p in season.problems]
    assert found == [
        (7, "bad code", "ECF code '123456B' has check letter 'B'; 123456 needs 'A'; games are "
         "matched to it as typed"),
        (5, "same name and club", "'Lee, Sam' of 'Anytown' appears 2 times with no code "
         "(rows 5, 6): give each a code"),
        (6, "same name and club", "'Lee, Sam' of 'Anytown' appears 2 times with no code "
         "(rows 5, 6): give each a code"),
    ]  # fmt: skip


def test_both_clubs_entering_one_match_is_graded_once() -> None:
    games = [
        Game("210988J", "Ann Brown", "1-0", DAY, row=9),
        Game("Brown, Ann", "Smith, John", "0-1", DAY, row=10),
    ]
    season = recalculate(PLAYERS, games, Settings())
    results = [p for p in season.problems if p.sheet == "Results"]
    assert [(p.row, p.what, p.why) for p in results] == [
        (10, "duplicate game",
         "the same game as row 9 ('210988J' v 'Ann Brown', '0-1'): graded once"),
    ]  # fmt: skip
    assert season.standard.games[0] == 1


def test_two_entries_that_disagree_are_both_held_back() -> None:
    games = [
        Game("210988J", "Ann Brown", "1-0", DAY, row=9),
        Game("Ann Brown", "210988J", "1-0", DAY, row=10),
    ]
    season = recalculate(PLAYERS, games, Settings())
    why = (
        "the same game entered 2 times with different results (row 9 '1-0', row 10 '1-0'): "
        "not graded until corrected"
    )
    results = [p for p in season.problems if p.sheet == "Results"]
    assert [(p.row, p.what, p.why) for p in results] == [
        (9, "duplicate disagrees", why),
        (10, "duplicate disagrees", why),
    ]
    assert season.accounting.standard_graded == 0


def test_rapid_games_go_to_a_separate_list() -> None:
    games = [
        Game("210988J", "Ann Brown", "1-0", DAY, time_control="25+10", row=9),
        Game("210988J", "Tom Green", "½-½", DAY, time_control="60+30", row=10),
    ]
    season = recalculate(PLAYERS, games, Settings())
    assert season.accounting.rapid_graded == 1
    assert season.accounting.standard_graded == 1
    assert season.rapid.points[0] == 160  # beat 110
    assert season.standard.points[0] == 100  # drew with 100


def test_junior_enhancement_reaches_the_published_list() -> None:
    players = [
        Player("Kid", grade=100, date_of_birth=dt.date(2014, 1, 1)),  # 12 on 1 June 2026
        Player("Adult", grade=100),
    ]
    season = recalculate(players, [Game("Kid", "Adult", "½-½", DAY)], Settings(list_star=True))
    listed = {row[1]: row for row in season.list_table().rows}
    assert listed["Kid"][5] == 108  # 100 + 8 for ages 11–14
    assert listed["Kid"][7] == 8
    assert listed["Adult"][5] == 100


def test_the_published_list_leaves_out_star_players_unless_asked() -> None:
    players = [Player("A", grade=100), Player("B", grade=100)]
    games = [Game("A", "B", "½-½", DAY)]
    assert recalculate(players, games, Settings()).list_table().rows == []
    assert len(recalculate(players, games, Settings(list_star=True)).list_table().rows) == 2


def test_elo_beside_the_grades() -> None:
    players = [Player("A", grade=150), Player("B", grade=150)]
    games = [Game("A", "B", "1-0", DAY)]
    settings = Settings(elo_k_policy="chesterfield", list_star=True)
    season = recalculate(players, games, settings)
    # 150 → 1250 + 5·150 = 2000 (FIDE piecewise); equal ratings expect 0.5; K 45 → ±22.5 → 23.
    assert season.standard.elo is not None
    assert list(season.standard.elo) == [2023, 1977]


def test_monthly_elo_periods() -> None:
    players = [Player("A", grade=150), Player("B", grade=150)]
    games = [Game("A", "B", "1-0", DAY), Game("A", "B", "1-0", DAY + dt.timedelta(days=31))]
    settings = Settings(elo_k_policy="chesterfield", elo_period="month")
    elo = recalculate(players, games, settings).standard.elo
    assert elo is not None
    # Period 1: 2000 v 2000, +22.5 → 2023 / 1977. Period 2: difference 46 → table 8.1b 0.56;
    # 45 · 0.44 = 19.8 → 20: 2043 / 1957.
    assert np.array_equal(elo, [2043, 1957])


def test_duplicates_among_other_games_are_grouped_exactly() -> None:
    # Three entries of one game (two agree, one differs) between single entries of others.
    games = [
        Game("210988J", "Tom Green", "1-0", DAY, row=8),
        Game("210988J", "Ann Brown", "1-0", DAY, row=9),
        Game("Ann Brown", "210988J", "0-1", DAY, row=10),
        Game("Tom Green", "Ann Brown", "½-½", DAY, row=11),
        Game("Ann Brown", "210988J", "½-½", DAY, row=12),
    ]
    season = recalculate(PLAYERS, games, Settings())
    results = [(p.row, p.what) for p in season.problems if p.sheet == "Results"]
    assert results == [
        (9, "duplicate disagrees"),
        (10, "duplicate disagrees"),
        (12, "duplicate disagrees"),
    ]
    assert season.accounting.standard_graded == 2


def test_a_code_with_a_wrong_check_letter_in_a_result_is_not_guessed() -> None:
    season = recalculate(PLAYERS, [Game("210988K", "Ann Brown", "1-0", DAY, row=9)], Settings())
    results = [(p.row, p.what, p.why) for p in season.problems if p.sheet == "Results"]
    assert results == [
        (9, "bad code", "ECF code '210988K' has check letter 'K'; 210988 needs 'J': not matched "
         "to any player"),
    ]  # fmt: skip


@pytest.mark.parametrize("bound", [1, 100, 2**16, 2**16 + 1, 300_000, 2**33])
def test_the_cards_order_is_a_stable_sort(bound: int) -> None:
    from xlgrade.season.duplicates import stable_order

    keys = np.random.default_rng(bound).integers(0, bound, 5_000)
    assert np.array_equal(stable_order(keys, bound), np.argsort(keys, kind="stable"))


# Decisions: the rapid list, duplicates, list order, bad values.


def test_the_rapid_list_borrows_no_standard_history() -> None:
    players = [
        Player("A", grade=100, previous=EarlierSeason(30, 3000)),
        Player("B", grade=200, previous=EarlierSeason(30, 6000)),
    ]
    games = [
        Game("A", "B", "1-0", DAY + dt.timedelta(days=i), time_control="rapid") for i in range(10)
    ]
    rapid = recalculate(players, games, Settings()).rapid
    # Ten wins against 200 with the horizon at 140: 190 each; nothing borrowed; 10 games in
    # three seasons, at least 1 this season: E.
    assert (rapid.grade[0], rapid.category[0], rapid.borrowed_games[0]) == (190, "E", 0)


def test_a_standard_and_a_rapid_game_on_one_day_are_both_graded() -> None:
    games = [
        Game("210988J", "Ann Brown", "1-0", DAY, row=9),
        Game("210988J", "Ann Brown", "0-1", DAY, time_control="rapid", row=10),
    ]
    season = recalculate(PLAYERS, games, Settings())
    assert (season.accounting.standard_graded, season.accounting.rapid_graded) == (1, 1)


def test_undated_home_and_away_fixtures_are_different_games() -> None:
    games = [
        Game("210988J", "Ann Brown", "1-0", match="Anytown v Beeton", row=9),
        Game("Ann Brown", "210988J", "0-1", match="Beeton v Anytown", row=10),
        Game("Ann Brown", "210988J", "0-1", match="Beeton v Anytown", row=11),
    ]
    season = recalculate(PLAYERS, games, Settings())
    results = [(p.row, p.what) for p in season.problems if p.sheet == "Results"]
    assert results == [(11, "duplicate game")]
    assert season.accounting.standard_graded == 2


def test_the_list_is_in_order_of_published_grade() -> None:
    players = [
        Player("Adult", grade=103),
        Player("Junior", grade=100, date_of_birth=dt.date(2017, 1, 1)),  # 9: +10
        Player("Other", grade=100),
    ]
    games = [Game("Adult", "Other", "½-½", DAY), Game("Junior", "Other", "½-½", DAY)]
    rows = recalculate(players, games, Settings(list_star=True)).list_table().rows
    # Junior: 100 + 10; Other: (103 + 100) / 2 = 101.5 → 102; Adult: 100.
    assert [(row[1], row[5]) for row in rows] == [("Junior", 110), ("Other", 102), ("Adult", 100)]


def test_the_elo_column_rounds_halves_away_from_zero() -> None:
    # ECF 2020: 7.5 · 101 + 700 = 1457.5 → 1458; 7.5 · 103 + 700 = 1472.5 → 1473.
    players = [Player("A", grade=101), Player("B", grade=103)]
    games = [Game("A", "B", "½-½", DAY)]
    season = recalculate(players, games, Settings(list_star=True, conversion="ecf2020"))
    elo = {row[1]: row[8] for row in season.list_table().rows}
    # Draw: A scores 103, B scores 101.
    assert elo == {"A": 1473, "B": 1458}


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (Settings(horizon=-5), "Horizon -5 is not 0 or more"),
        (Settings(min_games=-1), "Minimum games -1 is not from 0 to 9999"),
        (Settings(tolerance=0), "Tolerance 0 is not more than 0"),
        (Settings(unanchored_grade=float("nan")), "Unanchored grade nan is not a number"),
        (
            Settings(season_start=dt.date(2026, 6, 1), season_end=dt.date(2025, 5, 31)),
            "the season ends (2025-05-31) before it starts (2026-06-01)",
        ),
    ],
)
def test_unusable_settings_are_refused(settings: Settings, message: str) -> None:
    from xlgrade.errors import SettingError

    with pytest.raises(SettingError) as raised:
        recalculate(PLAYERS, [], settings)
    assert str(raised.value) == message


def test_unusable_player_values_are_reported_and_left_out() -> None:
    players = [
        Player("A", grade=float("nan"), row=2),
        Player("B", grade=120, previous=EarlierSeason(-5, 500), row=3),
        Player("C", grade=float("inf"), row=4),
    ]
    games = [Game("A", "B", "1-0", DAY, row=2), Game("C", "B", "0-1", DAY, row=3)]
    season = recalculate(players, games, Settings())
    found = [(p.row, p.what, p.why) for p in season.problems]
    assert found == [
        (2, "bad grade", "start grade nan of 'A' is not a number: left out"),
        (4, "bad grade", "start grade inf of 'C' is not a number: left out"),
        (3, "bad earlier season", "previous season EarlierSeason(games=-5, points=500) of 'B' "
         "is not a whole number of games (0 to 9,999) and a number of points (at most "
         "4.49955e+06): left out"),
    ]  # fmt: skip
    assert season.accounting.standard_graded == 2
    assert season.standard.borrowed_games[1] == 0


def test_a_datetime_is_its_day_and_other_dates_are_reported() -> None:
    games = [
        Game("210988J", "Ann Brown", "1-0", dt.datetime(2025, 9, 1, 19, 30), row=9),  # type: ignore[arg-type]
        Game("210988J", "Tom Green", "1-0", "2025-09-01", row=10),  # type: ignore[arg-type]
    ]
    season = recalculate(PLAYERS, games, Settings())
    results = [(p.row, p.what, p.why) for p in season.problems if p.sheet == "Results"]
    assert results == [(10, "date not understood", "date '2025-09-01' is not a date")]
    assert season.card(0).lines[0].game.date == dt.date(2025, 9, 1)


def test_fide_juniors_keep_k40_to_the_end_of_the_year_of_their_18th_birthday() -> None:
    history = EarlierSeason(20, 3000)
    players = [
        Player("Kid", grade=150, date_of_birth=dt.date(2007, 7, 1), previous=history,
               earlier=history),
        Player("Adult", grade=150, previous=history, earlier=history),
    ]  # fmt: skip
    games = [
        Game("Kid", "Adult", "1-0", dt.date(2025, 10, 1)),
        Game("Kid", "Adult", "1-0", dt.date(2026, 1, 10)),
    ]
    settings = Settings(elo_k_policy="fide-2024", elo_period="month")
    elo = recalculate(players, games, settings).standard.elo
    # 150 → 2000 each. October 2025 (the year he turns 18): K 40 and K 20, expected 0.50 →
    # +20 and −10: 2020 v 1990. January 2026: K 20 each; 30 points apart → 0.54 / 0.46 (FIDE
    # table 8.1b) → +9.2 → +9 and −9.2 → −9: 2029 v 1981.
    assert elo is not None
    assert list(elo) == [2029, 1981]
    # FIDE 2014's junior is one "until their 18th birthday": 18 since July, he has K 20 in
    # October. +10 and −10: 2010 v 1990; January: 20 apart → 0.53 / 0.47 → +9.4 → +9 and
    # −9.4 → −9: 2019 v 1981.
    settings = Settings(elo_k_policy="fide-2014", elo_period="month")
    elo = recalculate(players, games, settings).standard.elo
    assert elo is not None
    assert list(elo) == [2019, 1981]


@pytest.mark.parametrize(("rule", "rated"), [("400", 2206), ("400-2022", 2204)])
def test_the_elo_column_follows_the_editions_of_the_400_point_rule(rule: str, rated: int) -> None:
    """FIDE 2022, 8.3.1: one 400-point upgrade a player an event; the season is the event.
    Grade 190 → 2200 beats four players graded 90 → 1700 (5 × grade + 1250), K 20: every game
    capped, 4 × 0.92 → +6.4 → 2206; one upgrade, 0.92 + 3 × 0.96 → +4 → 2204. Each 1700
    is capped in his one game: −20 × 0.08 = −1.6 → 1698."""
    history = EarlierSeason(20, 3000)
    players = [Player("Top", grade=190, previous=history, earlier=history)] + [
        Player(f"P{i}", grade=90, previous=history, earlier=history) for i in range(4)
    ]
    games = [Game("Top", f"P{i}", "1-0", DAY) for i in range(4)]
    settings = Settings(elo_k_policy="fide-2024", elo_rule=rule)
    elo = recalculate(players, games, settings).standard.elo
    assert elo is not None
    assert list(elo) == [rated, 1698, 1698, 1698, 1698]


@pytest.mark.parametrize(("rule", "rated"), [("rapid-blitz", [2656, 2000]), ("400", [2657, 1998])])
def test_the_rapid_list_follows_the_rapid_and_blitz_chapter(rule: str, rated: list[int]) -> None:
    """FIDE Rapid and Blitz, from 1 December 2024: a game 600 or more apart with a player above
    2600 is not rated. Grade 257 → 2656 (8 × 257 + 600) beats 150 → 2000 at rapidplay: 656
    apart, so neither moves. Under the standard rule it is capped at 400: 0.92, K 10 for the
    2400+ player → +0.8 → 2657, K 20 → −1.6 → 1998."""
    history = EarlierSeason(20, 3000)
    players = [
        Player("Top", grade=257, previous=history, earlier=history),
        Player("Low", grade=150, previous=history, earlier=history),
    ]
    games = [Game("Top", "Low", "1-0", DAY, time_control="30")]
    settings = Settings(elo_k_policy="fide-2024", elo_rapid_rule=rule)
    season = recalculate(players, games, settings)
    assert season.rapid.elo is not None
    assert list(season.rapid.elo) == rated


def test_divisions_of_under_12s_may_play_all_moves_in_an_hour() -> None:
    # 1997 leaflet, rule C: "The time limit may be varied for tournaments only containing
    # players aged under 12 to one hour and for … under 10 to three-quarters of an hour."
    games = [
        Game("210988J", "Ann Brown", "1-0", DAY, event="Under 12s", time_control="60", row=9),
        Game("210988J", "Tom Green", "1-0", DAY, event="Division 1", time_control="60", row=10),
        Game("Ann Brown", "Tom Green", "1-0", DAY, event="Under 10s", time_control="45", row=11),
        Game("Tom Green", "210988J", "1-0", DAY, event="Under 12s", time_control="45", row=12),
    ]
    settings = Settings(under_12_divisions="under 12s, Juniors", under_10_divisions="Under 10s")
    season = recalculate(PLAYERS, games, settings)
    results = [(p.row, p.what, p.why) for p in season.problems if p.sheet == "Results"]
    assert results == [
        (10, "time control not gradable",
         "'60': all moves in 60 minutes is under 75 minutes (rule C)"),
    ]  # fmt: skip
    # 45 minutes in an under-12 division is under the hour: rapidplay.
    assert (season.accounting.standard_graded, season.accounting.rapid_graded) == (2, 1)


def test_without_settings_the_season_is_the_one_the_games_were_played_in() -> None:
    """docs/rules.md §11: a season runs from 1 June to 31 May. Games of October 2026 and
    March 2027, and no settings: the 2026-27 season, said on the exceptions."""
    players = [Player("A", grade=150), Player("B", grade=130)]
    games = [
        Game("A", "B", "1-0", dt.date(2026, 10, 1), row=2),
        Game("B", "A", "½-½", dt.date(2027, 3, 1), row=3),
    ]
    season = recalculate(players, games)
    assert (season.settings.season_start, season.settings.season_end) == (
        dt.date(2026, 6, 1),
        dt.date(2027, 5, 31),
    )
    assert season.accounting.standard_graded == 2
    assert [tuple(p) for p in season.problems] == [
        (
            "Settings",
            None,
            "season from the games",
            "no settings: the 2026-27 season (2026-06-01 to 2027-05-31), the one the games "
            "were played in",
        )
    ]
    # Settings made in code keep their dates: the table's 2025-26 leaves both rows outside.
    fixed = recalculate(players, games, Settings())
    assert fixed.accounting.by_reason == {"date outside season": 2}
