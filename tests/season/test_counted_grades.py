"""Grades are compared with the horizon and printed as the rules count them: a working grade
carrying binary noise (146.00000000000003, 145.99999999999997) is the whole number it stands
for. README: a difference of exactly 40 is not "more than 40", so no horizon and no ``*``."""

from __future__ import annotations

import dataclasses
import datetime as dt

from xlgrade.card import format_points, render_card
from xlgrade.ecf import game_points
from xlgrade.model import Game, Player
from xlgrade.season import recalculate
from xlgrade.settings import Settings

SEASON = Settings(season_start=dt.date(2025, 9, 1), season_end=dt.date(2026, 5, 31))
DAY = dt.date(2025, 10, 1)
# Ned's and Pat's working grades as solved, with binary noise: both stand for 146. Ann (106)
# beats Ned and Bob (186) beats Pat, each exactly 40 away.
NOISE_PLAYERS = [
    Player("Ann Able", grade=106.0, row=2),
    Player("Ned Noise", estimated_grade=146.00000000000003, row=3),
    Player("Pat Part", estimated_grade=145.99999999999997, row=4),
    Player("Bob Best", grade=186.0, row=5),
]
NOISE_GAMES = [
    Game("Ann Able", "Ned Noise", "1-0", DAY, row=2),
    Game("Bob Best", "Pat Part", "1-0", DAY, row=3),
]


def test_an_opponent_exactly_40_away_by_a_hair_is_not_moved() -> None:
    # 106 v 146.00000000000003: the difference is 40, not "more than 40"; a win is 146 + 50.
    won = game_points(106, 146.00000000000003, 1.0)
    assert (won.points, won.counted_grade, won.horizon_applied) == (196.0, 146.0, False)
    # 186 v 145.99999999999997: 40 below, so it stands too; a loss is 146 − 50.
    lost = game_points(186, 145.99999999999997, 0.0)
    assert (lost.points, lost.counted_grade, lost.horizon_applied) == (96.0, 146.0, False)
    # 41 away is more than 40: counted as 40 away.
    assert game_points(106, 147.00000000000003, 1.0).horizon_applied


def test_the_season_card_shows_no_star_and_a_whole_bracketed_grade() -> None:
    season = recalculate(NOISE_PLAYERS, NOISE_GAMES, SEASON)
    text = render_card(season.card(0))
    assert "[146]" in text
    assert "*" not in text.split("Total")[0]


def test_points_are_printed_as_counted() -> None:
    assert format_points(145.99999999999997) == "146"
    assert format_points(146.00000000000003) == "146"
    assert format_points(141.5) == "141.5"


def test_the_list_shows_a_start_grade_as_counted_as_its_cards_do() -> None:
    # Rita's start grade carries binary noise; the list's Start grade column shows 146, as the
    # card's "grade at the start" does, a whole number and not 146.0.
    players = [
        Player("Rita Rounded", grade=145.99999999999997, row=2),
        Player("Sam Solid", grade=146.0, row=3),
    ]
    games = [Game("Rita Rounded", "Sam Solid", "1/2-1/2", DAY, row=2)]
    # One game each is category *: listed only when the Settings list it.
    season = recalculate(players, games, dataclasses.replace(SEASON, list_star=True))
    table = season.list_table()
    start = table.headers.index("Start grade")
    shown = {row[1]: row[start] for row in table.rows}
    assert shown == {"Rita Rounded": 146, "Sam Solid": 146}
    assert all(type(value) is int for value in shown.values())
    assert format_points(145.99999999999997) == str(shown["Rita Rounded"])
