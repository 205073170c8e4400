"""A player's calculation card: the games, the points each earned, what was borrowed, the
grade and its category — laid out as the Yorkshire Chess Association's *Grading Calculation
Examples* page does, so a player who asks "why is my grade 143?" can check every line.

The card is data (:class:`Card`) built by :func:`build_card`; :func:`render_card` turns it
into the text the command line prints. The season recalculation builds the same cards.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from xlgrade.ecf import (
    DEFAULT_HORIZON,
    GAMES_FOR_FULL_GRADE,
    Borrowed,
    GamePoints,
    SeasonGrade,
    game_points,
    grade_as_counted,
    season_grade,
)
from xlgrade.model import EarlierSeason

__all__ = [
    "Card",
    "CardGame",
    "CardLine",
    "borrowed_line",
    "build_card",
    "format_points",
    "grade_lines",
    "mark_lines",
    "render_card",
    "shown_number",
]


@dataclass(frozen=True)
class CardGame:
    """One game on a card, as entered.

    Attributes:
        score: 1, 0.5 or 0.
        opponent_grade: the opponent's grade, or working grade if ``estimated``.
        estimated: the opponent is ungraded and ``opponent_grade`` is a working grade
            (shown in brackets, as [136]).
        opponent: the opponent's name, if known.
        date: when it was played, if known.
        league: the league that reported it, in a union's season (``""`` in one league's).
    """

    score: float
    opponent_grade: float
    estimated: bool = False
    opponent: str = ""
    date: dt.date | None = None
    league: str = ""


@dataclass(frozen=True)
class CardLine:
    """A game on the card with the points it earned.

    Attributes:
        number: game number, from 1.
        game: the game as entered.
        points: the points and whether the horizon applied.
    """

    number: int
    game: CardGame
    points: GamePoints


@dataclass(frozen=True)
class Card:
    """Everything a calculation card shows.

    Attributes:
        name: the player's name ("" if not given).
        own_grade: the grade the player started the season with (``None`` if ungraded).
        lines: the games and their points.
        grade: the season grade, with borrowing and category.
        horizon: the horizon used.
        junior_enhancement: points added to the published grade (0 for adults).
    """

    name: str
    own_grade: float | None
    lines: tuple[CardLine, ...]
    grade: SeasonGrade
    horizon: float | None
    junior_enhancement: int = 0

    @property
    def published_grade(self) -> int | None:
        """The grade with the junior enhancement added, as the list publishes it."""
        if self.grade.grade is None:
            return None
        return self.grade.grade + self.junior_enhancement


def build_card(
    own_grade: float | None,
    games: Sequence[CardGame],
    earlier: Sequence[EarlierSeason | None] = (),
    *,
    name: str = "",
    horizon: float | None = DEFAULT_HORIZON,
    floor_at_zero: bool = True,
    min_games: int = GAMES_FOR_FULL_GRADE,
    category_rules: Literal["bcf1997", "ecf2015"] = "bcf1997",
    junior_enhancement: int = 0,
) -> Card:
    """Grade each game (:func:`xlgrade.ecf.game_points`) and the season
    (:func:`xlgrade.ecf.season_grade`, pro rata borrowing) and keep every step for the card."""
    lines = tuple(
        CardLine(
            number,
            game,
            game_points(
                own_grade,
                game.opponent_grade,
                game.score,
                horizon=horizon,
                floor_at_zero=floor_at_zero,
            ),
        )
        for number, game in enumerate(games, start=1)
    )
    total = sum(line.points.points for line in lines)
    grade = season_grade(
        total, len(lines), earlier, min_games=min_games, category_rules=category_rules
    )
    return Card(name, own_grade, lines, grade, horizon, junior_enhancement)


@functools.lru_cache(maxsize=4096)  # a card sheet repeats the same grades and points
def shown_number(value: float) -> int | float:
    """Points or a grade as a card or list shows it in a cell, the number :func:`format_points`
    writes: whole numbers whole, others to one decimal, as the rules count it.

    >>> shown_number(145.99999999999997), shown_number(1884.34), shown_number(152.0)
    (146, 1884.3, 152)
    """
    counted = grade_as_counted(float(value))
    return int(counted) if counted.is_integer() else float(f"{counted:.1f}")


def format_points(value: float) -> str:
    """Points or a grade as a card shows them: whole numbers plain, others to one decimal
    (1884.3). The value is first taken as the rules count it
    (:func:`xlgrade.ecf.grade_as_counted`), so a working grade solved as 145.99999999999997
    shows as 146, not 146.0.

    >>> format_points(145.99999999999997), format_points(1884.3), format_points(152.0)
    ('146', '1884.3', '152')
    """
    counted = grade_as_counted(float(value))
    if counted.is_integer():
        return str(int(counted))
    return f"{counted:.1f}"


_SCORE_TEXT = {1.0: "1", 0.5: "½", 0.0: "0"}
_SEASONS_BACK = {1: "last season", 2: "the season before"}


def borrowed_line(borrowed: Borrowed) -> str:
    """The card's line for games borrowed from an earlier season (YCA: "games 13 are all
    'borrowed' from the previous year … 2754 times 13 divided by 19, i.e. 1884")."""
    return (
        f"Borrowed {borrowed.games} of {borrowed.season_games} games from "
        f"{_SEASONS_BACK[borrowed.seasons_back]} "
        f"({format_points(borrowed.season_points)} × {borrowed.games} / "
        f"{borrowed.season_games}) = {format_points(borrowed.points)} points"
    )


def grade_lines(card: Card) -> list[str]:
    """The card's lines for the new grade and its category, and the junior enhancement if any
    (YCA: "4289 points divided by 30 games gives a grade of 143, and the grade category will be
    C")."""
    season = card.grade
    if season.grade is None or season.exact is None:
        return ["No games this season: no new grade."]
    out = [
        f"New grade = {format_points(season.total_points)} / {season.total_games} = "
        f"{season.exact:.2f} → {season.grade}, category {season.category}"
    ]
    if card.junior_enhancement:
        out.append(
            f"Junior enhancement +{card.junior_enhancement} → published grade "
            f"{card.published_grade}"
        )
    return out


def mark_lines(card: Card) -> list[str]:
    """What the card's marks mean, for the marks it shows: ``*`` (the horizon applied) and
    ``[ ]`` (an ungraded opponent's working grade)."""
    out: list[str] = []
    if any(line.points.horizon_applied for line in card.lines):
        limit = format_points(card.horizon) if card.horizon is not None else ""
        out.append(f"* opponent counted as {limit} points from the player's own grade (horizon)")
    if any(line.game.estimated for line in card.lines):
        out.append("[ ] the opponent is ungraded: his working grade was used")
    return out


def render_card(card: Card) -> str:
    """The card as text, column for column as the YCA page shows it."""
    out: list[str] = []
    who = card.name or "Player"
    start = "ungraded" if card.own_grade is None else format_points(card.own_grade)
    out.append(f"{who} — grade at the start of the season: {start}")
    out.append("")
    leagues = any(line.game.league for line in card.lines)  # a union's card names them
    out.append("Game  Res  OppsGrade  Points" + ("  League" if leagues else ""))
    for line in card.lines:
        grade = format_points(line.game.opponent_grade)
        shown = f"[{grade}]" if line.game.estimated else grade
        star = "*" if line.points.horizon_applied else " "
        league = f"  {line.game.league}" if leagues else ""
        out.append(
            f"{line.number:>4}  {_SCORE_TEXT[line.game.score]:>3}  {shown:>9}  "
            f"{format_points(line.points.points):>5}{star}{league}".rstrip()
        )
    season = card.grade
    out.append("-----")
    out.append(f"Total points gained = {format_points(season.points)}")
    out.append(f"Number of games graded = {season.games}")
    out.append("-----")
    out.extend(borrowed_line(borrowed) for borrowed in season.borrowed)
    out.extend(grade_lines(card))
    out.extend(mark_lines(card))
    return "\n".join(out) + "\n"
