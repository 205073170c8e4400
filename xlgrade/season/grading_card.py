"""A player's grading card from the season's graded list: his games, points and season grade,
as the YCA card shows them (:class:`xlgrade.card.Card`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import numpy as np

from xlgrade import cells
from xlgrade.card import Card, CardGame, CardLine
from xlgrade.ecf import GamePoints, counted_grades, season_grade
from xlgrade.model import Game, Player
from xlgrade.season.checks import STANDARD
from xlgrade.season.lists import GradedList
from xlgrade.settings import Settings

__all__ = ["season_card"]


def season_card(
    graded: GradedList,
    players: Sequence[Player],
    games: Sequence[Game],
    settings: Settings,
    player: int,
    kind: str = STANDARD,
) -> Card:
    """The calculation card of player ``player`` on the list ``graded`` of the ``kind`` given
    (standard or rapid), from the season's players, result rows and settings."""
    p = players[player]
    lines: list[CardLine] = []
    sides = graded.order[graded.starts[player] : graded.starts[player + 1]]
    m = graded.rows.size
    # Each side of each game, as white (a position below m) or as black, read column by column.
    as_white = sides < m
    g = np.where(as_white, sides, sides - m)
    white_score = graded.white_score[g]
    opponents = np.where(as_white, graded.black[g], graded.white[g])
    opponent_grades = graded.grade_of[opponents]
    # The grades the opponents counted as, by the one horizon rule from this player's start grade.
    start = np.nan if p.grade is None else float(p.grade)
    counted_as = counted_grades(np.full(g.size, start), opponent_grades, settings.horizon)
    columns = zip(
        graded.rows[g].tolist(),
        opponents.tolist(),
        graded.working.estimated[opponents].tolist(),
        np.where(as_white, white_score, 1.0 - white_score).tolist(),
        opponent_grades.tolist(),
        counted_as.tolist(),
        np.where(as_white, graded.white_points[g], graded.black_points[g]).tolist(),
        np.where(as_white, graded.white_horizon[g], graded.black_horizon[g]).tolist(),
        strict=True,
    )
    entries = []
    for row, opponent, estimated, score, opp_grade, counted, points, horizon in columns:
        entries.append(
            (
                cells.day(games[row].date) or dt.date.min,
                row,
                opponent,
                estimated,
                score,
                opp_grade,
                counted,
                points,
                bool(horizon),
            )
        )
    entries.sort(key=lambda e: (e[0], e[1]))
    own = p.grade
    for number, (
        day,
        row,
        opponent,
        estimated,
        score,
        opp_grade,
        counted,
        points,
        horizon,
    ) in enumerate(entries, start=1):
        game = CardGame(
            score,
            opp_grade,
            bool(estimated),
            players[opponent].name,
            day if day != dt.date.min else None,
            games[row].league,
        )
        lines.append(CardLine(number, game, GamePoints(points, opp_grade, counted, horizon)))
    # A rapid grade borrows nothing: the history on the Players table is standard play.
    standard = kind == STANDARD
    season = season_grade(
        float(graded.points[player]),
        int(graded.games[player]),
        [p.previous, p.earlier] if standard else [],
        min_games=settings.min_games,
        borrowing=settings.borrowing if standard and p.earlier_games else "pro_rata",
        earlier_games=p.earlier_games if standard else (),
        category_rules=settings.category_rules,
    )
    return Card(
        p.name,
        own,
        tuple(lines),
        season,
        settings.horizon,
        int(graded.enhancement[player]),
    )
