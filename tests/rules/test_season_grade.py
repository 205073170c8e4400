"""docs/rules.md §3: season grade, borrowing and rounding, as the sources work them."""

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlgrade.ecf import round_half_up, season_grade
from xlgrade.errors import GradeError, SettingError
from xlgrade.model import DatedPoints, EarlierSeason


def test_yca_player_without_history_is_141_d() -> None:
    # "his grade would be 141 (2405 divided by 17) with a grade category of D"
    result = season_grade(2405, 17)
    assert (result.grade, result.category) == (141, "D")
    assert result.borrowed == ()
    assert (result.total_games, result.total_points) == (17, 2405)


def test_yca_player_with_two_earlier_seasons_is_143_c() -> None:
    # "2754 from 19 games in the previous season, and … 3300 points from 24 games in the season
    # before that. A further 13 games are needed … 2754 times 13 divided by 19, i.e. 1884 …
    # 4289 points divided by 30 games gives a grade of 143, and the grade category will be C."
    result = season_grade(2405, 17, [EarlierSeason(19, 2754), EarlierSeason(24, 3300)])
    assert (result.grade, result.category) == (143, "C")
    assert result.borrowed_games == 13
    assert result.borrowed_points == pytest.approx(2754 * 13 / 19)
    assert round(result.borrowed_points, 1) == 1884.3
    assert round(result.total_points, 1) == 4289.3
    assert result.total_games == 30
    assert [b.seasons_back for b in result.borrowed] == [1]


@pytest.mark.parametrize(
    ("this", "last", "before", "grade", "category"),
    [
        ((34, 3400), None, None, 100, "A"),
        ((25, 2900), (10, 1400), None, 120, "B"),
        ((18, 2600), (8, 1000), (12, 1800), 140, "C"),
        ((8, 700), (6, 560), (7, 630), 90, "D"),
    ],
)
def test_the_1997_leaflet_table(
    this: tuple[int, int],
    last: tuple[int, int] | None,
    before: tuple[int, int] | None,
    grade: int,
    category: str,
) -> None:
    earlier = [EarlierSeason(*s) if s else None for s in (last, before)]
    result = season_grade(this[1], this[0], earlier)
    assert (result.grade, result.category) == (grade, category)


def test_leaflet_row_three_borrows_all_of_last_season_and_4_of_12_before() -> None:
    # [2600 + 1000 + (4/12 x 1800)]/30
    result = season_grade(2600, 18, [EarlierSeason(8, 1000), EarlierSeason(12, 1800)])
    assert [(b.games, b.points) for b in result.borrowed] == [(8, 1000), (4, 600)]


def test_fewer_than_30_in_three_seasons_uses_all_of_them() -> None:
    # (700 + 560 + 630)/21
    result = season_grade(700, 8, [EarlierSeason(6, 560), EarlierSeason(7, 630)])
    assert (result.total_games, result.total_points) == (21, 1890)


def test_rounding_is_half_up_not_to_even() -> None:
    assert round_half_up(150.5) == 151
    assert round_half_up(151.5) == 152
    assert round_half_up(150.49) == 150
    assert season_grade(4515, 30).grade == 151  # 150.5 exactly


def test_no_game_this_season_gives_no_grade() -> None:
    result = season_grade(0, 0, [EarlierSeason(20, 2000)])
    assert (result.grade, result.category) == (None, None)


def test_most_recent_borrowing_takes_the_latest_dated_games() -> None:
    earlier = [DatedPoints(dt.date(2024, 1, d), 100.0 + d) for d in range(1, 29)]
    result = season_grade(
        2800, 28, [EarlierSeason(28, 100 * 28 + 406)], borrowing="most_recent",
        earlier_games=earlier,
    )  # fmt: skip
    # 2 games needed: the two latest, 28 January (128) and 27 January (127).
    assert result.borrowed_games == 2
    assert result.borrowed_points == 128 + 127
    assert result.grade == 102  # 3055 / 30 = 101.83


def test_bad_settings_and_counts_are_errors() -> None:
    with pytest.raises(SettingError, match="borrowing rule 'oldest'"):
        season_grade(100, 1, borrowing="oldest")  # type: ignore[arg-type]
    with pytest.raises(GradeError, match=r"games 2\.5 is not a whole number of games"):
        season_grade(100, 2.5)  # type: ignore[arg-type]
    with pytest.raises(SettingError, match="at most 2 earlier seasons"):
        season_grade(100, 1, [None, None, None])


seasons = st.one_of(
    st.none(),
    st.builds(
        EarlierSeason,
        games=st.integers(min_value=0, max_value=60),
        points=st.floats(min_value=0, max_value=12000, allow_nan=False),
    ),
)


@given(
    games=st.integers(min_value=1, max_value=80),
    per_game=st.floats(min_value=0, max_value=250),
    last=seasons,
    before=seasons,
)
def test_borrowing_never_passes_30_and_nothing_is_borrowed_from_30(
    games: int, per_game: float, last: EarlierSeason | None, before: EarlierSeason | None
) -> None:
    result = season_grade(games * per_game, games, [last, before])
    if games >= 30:
        assert result.borrowed == ()
        assert result.total_games == games
    else:
        assert result.total_games <= 30
        available = games + sum(s.games for s in (last, before) if s is not None)
        assert result.total_games == min(30, available)
