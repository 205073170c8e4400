"""A rated season set beside the ECF's rating list (xlgrade.season.reconcile): equal, or the
likely reason. The season is examples/rated's (README, "A season rated month by month"),
worked by hand there: after September Ann 1605, Bob 1595, Cy 1792 (P); after October Ann
1616, Cy 1651 (P); Bob plays no rated game in October."""

from __future__ import annotations

import datetime as dt

import pytest

from xlgrade.errors import GradingError
from xlgrade.model import Game, Player
from xlgrade.season import recalculate
from xlgrade.season.reconcile import ListedPlayer, reconcile
from xlgrade.settings import RATING_2020, Settings

AUGUST = dt.date(2025, 8, 1)
SETTINGS = Settings(
    season_start=dt.date(2025, 9, 1), season_end=dt.date(2026, 8, 31), system=RATING_2020
)
PLAYERS = [
    Player("Able, Ann", "123456A", "Anytown", rating=1600.0, rating_category="K",
           last_rated_month=AUGUST, row=2),
    Player("Best, Bob", "654321C", "Beeton", rating=1600.0, rating_category="K",
           last_rated_month=AUGUST, row=3),
    Player("Cole, Cy", None, "Beeton", row=4),
    Player("Dunn, Dee", "765432H", "Anytown", rating=1500.0, rating_category="K",
           last_rated_month=AUGUST, row=5),
]  # fmt: skip
GAMES = [
    Game("123456A", "Best, Bob", "1-0", dt.date(2025, 9, 10), row=2),
    Game("Cole, Cy", "123456A", "1-0", dt.date(2025, 9, 12), row=3),
    Game("Cole, Cy", "Best, Bob", "½-½", dt.date(2025, 9, 20), row=4),
    Game("123456A", "Cole, Cy", "1-0", dt.date(2025, 10, 2), row=5),
]
NOVEMBER = dt.date(2025, 11, 1)
SEASON = recalculate(PLAYERS, GAMES, SETTINGS)
ANN = ListedPlayer("123456A", "Able, Ann", "Anytown", 1616, "K")
LIST = [
    ANN,
    ListedPlayer("654321C", "Best, Bob", "Beeton", 1600, "K"),
    ListedPlayer("876543B", "Cole, Cy", "Beeton", 1651, "P"),
    ListedPlayer("765432H", "Dunn, Dee", "Anytown", 1520, "K"),
]


def reasons(listed: list[ListedPlayer], edition: dt.date = NOVEMBER) -> dict[str, str]:
    done = reconcile(SEASON, listed, edition)
    name, reason = done.table.headers.index("Name"), done.table.headers.index("Likely reason")
    return {str(row[name]): row[reason] or "equal" for row in done.table.rows}


def test_each_player_equal_or_with_the_likely_reason() -> None:
    found = reasons(LIST)
    assert found["Able, Ann"] == "equal"
    assert found["Best, Bob"].startswith(
        "games differ: the list's 1600 is his rating at the start of the season: the league "
        "has 2 games the list has not rated"
    )
    assert found["Cole, Cy"] == (
        "another code: no code; the list has 'Cole, Cy' of 'Beeton' as 876543B (rating 1651)"
    )
    assert found["Dunn, Dee"].startswith(
        "games differ: no rated game here, and the list's 1520 is not his start (1500): the "
        "ECF has games the league does not"
    )
    done = reconcile(SEASON, LIST, NOVEMBER)
    assert (
        done.summary() == "4 players compared: 1 equal, 3 differ (1 another code, 2 games differ)"
    )
    figures = {row[1]: (row[4], row[5]) for row in done.table.rows}
    assert figures["Able, Ann"] == (1616, "K")
    assert figures["Best, Bob"] == (1595, "K")


def test_the_list_of_another_month_is_found_by_its_figure() -> None:
    # Ann's 1605 is her rating after September: a list of October, not November.
    early = [ListedPlayer("123456A", "Able, Ann", "Anytown", 1605, "K")]
    assert reasons(early)["Able, Ann"].startswith(
        "list edition: the list's 1605 is xlgrade's rating at the start of 2025-10"
    )
    # The list of October itself is equal.
    assert reasons(early, dt.date(2025, 10, 1))["Able, Ann"] == "equal"


def test_late_results_a_category_and_another_players_code() -> None:
    late = [ListedPlayer("123456A", "Able, Ann", "Anytown", 1620, "K", other=1616)]
    assert reasons(late)["Able, Ann"].startswith("late results: the list's other figure, 1616")
    category = [ListedPlayer("123456A", "Able, Ann", "Anytown", 1616, "A")]
    assert reasons(category)["Able, Ann"] == "category differs: the list has A, xlgrade K"
    robert = [ListedPlayer("654321C", "Best, Robert", "Beeton", 1700, "K")]
    assert reasons(robert)["Best, Bob"] == (
        "another player's code: the list's name for 654321C is 'Best, Robert', not 'Best, Bob'"
    )


def test_a_graded_season_is_refused() -> None:
    graded = recalculate(PLAYERS, GAMES, Settings(season_start=SETTINGS.season_start,
                                                  season_end=SETTINGS.season_end))  # fmt: skip
    with pytest.raises(GradingError, match="needs the setting System"):
        reconcile(graded, LIST, NOVEMBER)
