"""The season's whole-column arithmetic against the one-game and one-player rules of
:mod:`xlgrade.ecf`, on random leagues and every setting (horizon off, 35, 40, 50; the floor at
zero; both category rule sets; any minimum of games; both borrowing rules): the two must never
disagree."""

import datetime as dt

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlgrade.ecf import category, game_points, season_grade
from xlgrade.model import DatedPoints, EarlierSeason, Game, Player
from xlgrade.season import recalculate
from xlgrade.settings import Settings

grades = st.one_of(st.none(), st.integers(min_value=0, max_value=250))
seasons = st.one_of(
    st.none(),
    st.builds(
        EarlierSeason,
        games=st.integers(min_value=0, max_value=40),
        points=st.integers(min_value=0, max_value=8000),
    ),
)


@st.composite
def leagues(draw: st.DrawFn) -> tuple[list[Player], list[Game], Settings]:
    n = draw(st.integers(min_value=2, max_value=8))
    players = [
        Player(
            f"Player {i}",
            grade=draw(grades) if i else draw(st.integers(0, 250)),  # at least one anchor
            previous=draw(seasons),
            earlier=draw(seasons),
            earlier_games=tuple(
                DatedPoints(dt.date(2024, 1, 1) + dt.timedelta(days=d), float(points))
                for d, points in draw(
                    st.lists(st.tuples(st.integers(0, 500), st.integers(0, 300)), max_size=12)
                )
            ),
            row=i + 2,
        )
        for i in range(n)
    ]
    count = draw(st.integers(min_value=1, max_value=25))
    games = []
    for g in range(count):
        a = draw(st.integers(0, n - 1))
        b = draw(st.integers(0, n - 1).filter(lambda x, a=a: x != a))
        result = draw(st.sampled_from(["1-0", "½-½", "0-1"]))
        day = dt.date(2025, 6, 1) + dt.timedelta(days=g)
        games.append(Game(f"Player {a}", f"Player {b}", result, day, row=g + 2))
    options = Settings(
        horizon=draw(st.sampled_from([None, 35.0, 40.0, 50.0])),
        floor_at_zero=draw(st.booleans()),
        unanchored_grade=80.0,
        category_rules=draw(st.sampled_from(["bcf1997", "ecf2015"])),
        min_games=draw(st.sampled_from([0, 1, 10, 30, 45])),
        borrowing=draw(st.sampled_from(["pro_rata", "most_recent"])),
    )
    return players, games, options


@settings(max_examples=150, deadline=None)
@given(leagues())
def test_whole_columns_agree_with_the_one_player_rules(
    league: tuple[list[Player], list[Game], Settings],
) -> None:
    players, games, options = league
    season = recalculate(players, games, options)
    graded = season.standard
    working = graded.working.grades
    points = np.zeros(len(players))
    counts = np.zeros(len(players), dtype=int)
    for w, b, s in zip(graded.white, graded.black, graded.white_score, strict=True):
        for me, them, score in ((w, b, s), (b, w, 1.0 - s)):
            result = game_points(
                players[me].grade,
                float(working[them]),
                float(score),
                horizon=options.horizon,
                floor_at_zero=options.floor_at_zero,
            )
            points[me] += result.points
            counts[me] += 1
    assert np.allclose(points, graded.points)
    assert np.array_equal(counts, graded.games)
    for i, p in enumerate(players):
        one = season_grade(
            float(points[i]),
            int(counts[i]),
            [p.previous, p.earlier],
            min_games=options.min_games,
            borrowing=options.borrowing if p.earlier_games else "pro_rata",
            earlier_games=p.earlier_games,
            category_rules=options.category_rules,
        )
        if one.grade is None:
            assert np.isnan(graded.grade[i])
            continue
        assert graded.grade[i] == one.grade
        assert graded.borrowed_games[i] == one.borrowed_games
        prev = p.previous.games if p.previous else 0
        earlier = p.earlier.games if p.earlier else 0
        assert str(graded.category[i]) == category(
            int(counts[i]), prev, earlier, rule_set=options.category_rules
        )
        assert graded.exact[i] == pytest.approx(one.exact)
        card = season.card(i)
        assert card.grade.grade == one.grade
        assert sum(line.points.points for line in card.lines) == pytest.approx(points[i])
