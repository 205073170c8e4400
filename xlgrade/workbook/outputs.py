"""The output sheets as a grader publishes them: the Grading List (and Rapid List) with the
players left off it and why, every graded player's card laid out as the Yorkshire Chess
Association's *Grading Calculation Examples* page lays it out, and the Exceptions.

Numbers are numbers and dates are dates; the card's marks are cell formats on them (a working
grade shown ``[136]``, points where the horizon applied ``152*``, a draw ``½``), so that a grader
can sum and sort the columns. The cell formats are named in :attr:`SheetTable.styles` and
written by :mod:`xlgrade.workbook.sheetxml`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from xlgrade.card import (
    Card,
    borrowed_line,
    format_points,
    grade_lines,
    mark_lines,
    shown_number,
)
from xlgrade.season import RAPID, STANDARD, SeasonResult, Table
from xlgrade.season.rating_card import month_lines, path_text
from xlgrade.workbook import layout
from xlgrade.workbook.layout import (
    CARD_SHEET_HEADERS,
    LIST_SHEET_HEADERS,
    RATING_CARD_SHEET_HEADERS,
    RATING_LIST_SHEET_HEADERS,
)

__all__ = [
    "CARD_SHEET_HEADERS",
    "LEFT_OFF",
    "LIST_SHEET_HEADERS",
    "RAPID_CARDS",
    "SheetTable",
    "cards_sheet",
    "list_sheet",
    "rating_cards_sheet",
    "rating_list_sheet",
    "season_sheets",
]

LEFT_OFF: str = "Not on the list"
"""The heading, in the Name column, of the players below a list who are not published."""
RAPID_CARDS: str = "Rapidplay cards"
"""The heading, in the Name column of Player Cards, of the rapidplay cards below the others."""


@dataclass(frozen=True)
class SheetTable(Table):
    """An output sheet's table with the cell format of some of its cells.

    Attributes:
        styles: (row index in ``rows``, column index) → a name of
            :data:`xlgrade.workbook.styles.STYLES`.
    """

    styles: dict[tuple[int, int], str] = field(default_factory=dict)


def list_sheet(result: SeasonResult, kind: str = STANDARD) -> SheetTable:
    """The Grading List (or Rapid List): the season's list
    (:meth:`xlgrade.season.SeasonResult.list_table`), then under the heading :data:`LEFT_OFF`
    every player not published and why — category ``*`` when the Settings leave it off, no
    game graded this season — so that each Players row is on the sheet. On the Rapid List only
    players with a rapidplay game are shown below it. A rated season has its own list
    (:func:`rating_list_sheet`)."""
    if result.rated:
        return rating_list_sheet(result, kind)
    published = result.list_table(kind)
    rows: list[tuple[object, ...]] = [(*row, None) for row in published.rows]
    # Category, Junior and Borrowed games centred: a number at the right of a column whose
    # neighbour's header is longer reads as the neighbour's (a junior's 10 beside his Elo).
    centred = [LIST_SHEET_HEADERS.index(h) for h in ("Category", "Junior", "Borrowed games")]
    styles = {(r, c): "centre" for r in range(len(rows)) for c in centred}
    graded = result.standard if kind == STANDARD else result.rapid
    left: list[tuple[str, tuple[object, ...]]] = []
    for i, player in enumerate(result.players):
        games = int(graded.games[i])
        category = str(graded.category[i])
        if games and category != "*":
            continue
        if not games and kind == RAPID:
            continue
        if category == "*" and result.settings.list_star:
            continue
        if games:
            history = sum(s.games for s in (player.previous, player.earlier) if s is not None)
            why = (
                f"category *: {games} game{'s' if games != 1 else ''} this season and "
                f"{history} in the two before, too few for a category; Settings: "
                "List category * is no"
            )
        else:
            why = "no standard-play game graded this season"
        row = (
            result.codes[i] or None,
            player.name,
            player.club or None,
            games,
            shown_number(float(graded.points[i])) if games else None,
            None,
            category or None,
            None,
            None,
            shown_number(player.grade) if player.grade is not None else None,
            None,
            None,
            why,
        )
        left.append((player.name.casefold(), row))
    _left_off(rows, styles, left, "not published", centred)
    return SheetTable(LIST_SHEET_HEADERS, rows, styles)


def _left_off(
    rows: list[tuple[object, ...]],
    styles: dict[tuple[int, int], str],
    left: list[tuple[str, tuple[object, ...]]],
    words: str,
    centred: Sequence[int],
) -> None:
    """Append, below a list, a blank row, the heading :data:`LEFT_OFF` with how many players
    are ``words``, and those players' rows (``(sort key, row)``) in name order."""
    if not left:
        return
    width = len(left[0][1])
    rows.append((None,) * width)
    heading: list[object] = [None] * width
    heading[1] = LEFT_OFF
    heading[-1] = f"{len(left)} player{'s' if len(left) != 1 else ''} {words}, and why"
    styles[(len(rows), 1)] = "label"
    rows.append(tuple(heading))
    for _, player_row in sorted(left, key=lambda item: item[0]):
        styles |= {(len(rows), c): "centre" for c in centred}
        rows.append(player_row)


def rating_list_sheet(result: SeasonResult, kind: str = STANDARD) -> SheetTable:
    """The Grading List (or Rapid List) of a rated season (:data:`RATING_LIST_SHEET_HEADERS`):
    every player with a rating after the season, highest first
    (:meth:`xlgrade.season.SeasonResult.list_table`), then under :data:`LEFT_OFF` every player
    without one and why — never rated, or unrated by the ECF's 36-month rule — so that each
    Players row is on the sheet (on the Rapid List, those who had a rapid rating)."""
    published = result.list_table(kind)
    rows: list[tuple[object, ...]] = [(*row, None) for row in published.rows]
    # The categories and the change centred: at the right of its column, a start rating reads
    # as part of the start category beside it ("2191K"), a change as part of the path ("-4 2191").
    centred = [RATING_LIST_SHEET_HEADERS.index(h) for h in ("Start category", "Category", "Change")]
    styles = {(r, c): "centre" for r in range(len(rows)) for c in centred}
    rated = result.rated[kind]
    category, start = rated.category, rated.start.rating
    left: list[tuple[str, tuple[object, ...]]] = []
    for i, player in enumerate(result.players):
        if str(category[i]):
            continue
        had = not np.isnan(start[i])
        if kind == RAPID and not had:
            continue
        why = (
            "unrated: no rated result in the previous 36 months (ECF rating categories)"
            if had
            else f"no ECF {'rapid ' if kind == RAPID else ''}rating and no rated game this season"
        )
        row: list[object] = [None] * len(RATING_LIST_SHEET_HEADERS)
        row[0], row[1], row[2] = result.codes[i] or None, player.name, player.club or None
        row[3] = 0
        row[4] = int(start[i]) if had else None
        row[-1] = why
        left.append((player.name.casefold(), tuple(row)))
    _left_off(rows, styles, left, "without a rating", centred)
    return SheetTable(RATING_LIST_SHEET_HEADERS, rows, styles)


_CARD_COLUMN: dict[str, int] = {h: i for i, h in enumerate(CARD_SHEET_HEADERS)}
_GAME, _DATE, _OPPONENT, _RESULT, _OPPONENT_GRADE, _POINTS, _NOTE = (
    _CARD_COLUMN[h]
    for h in ("Game", "Date", "Opponent", "Result", "Opponent grade", "Points", "Note")
)


def _card_rows(
    code: str | None,
    card: Card,
    rows: list[tuple[object, ...]],
    styles: dict[tuple[int, int], str],
) -> None:
    """Append one player's card to ``rows``, its cell formats to ``styles``."""
    column = _CARD_COLUMN
    width = len(CARD_SHEET_HEADERS)

    def add(values: dict[str, object], marks: dict[str, str] | None = None) -> None:
        row: list[object] = [None] * width
        row[0], row[1] = code, card.name
        for header, value in values.items():
            row[column[header]] = value
        for header, style in (marks or {}).items():
            styles[(len(rows), column[header])] = style
        rows.append(tuple(row))

    start = "ungraded" if card.own_grade is None else format_points(card.own_grade)
    add(
        {
            "Opponent": "Start of season",
            "Grade": shown_number(card.own_grade) if card.own_grade is not None else None,
            "Note": f"grade at the start of the season: {start}",
        },
        {"Opponent": "label"},
    )
    # A row a game, the card's bulk: made directly, in the columns' order.
    blank: list[object] = [None] * width
    blank[0], blank[1] = code, card.name
    scored: float = 0  # as sum() adds them, from 0
    for line in card.lines:
        game, points = line.game, line.points
        scored += game.score
        here = len(rows)
        styles[(here, _RESULT)] = "score"
        if game.estimated:
            styles[(here, _OPPONENT_GRADE)] = "working"
        if points.horizon_applied:
            styles[(here, _POINTS)] = "horizon"
        row = blank.copy()
        row[_GAME] = line.number
        row[_DATE] = game.date
        row[_OPPONENT] = game.opponent or None
        row[_RESULT] = game.score
        row[_OPPONENT_GRADE] = shown_number(game.opponent_grade)
        row[_POINTS] = shown_number(points.points)
        if game.league:  # a union's card names the league of each game
            row[_NOTE] = game.league
        rows.append(tuple(row))
    season = card.grade
    add(
        {
            "Game": season.games,
            "Opponent": "Total points gained",
            "Result": scored,
            "Points": shown_number(season.points),
            "Note": (
                f"Total points gained = {format_points(season.points)}; "
                f"number of games graded = {season.games}"
            ),
        },
        {"Opponent": "label", "Result": "score"},
    )
    for borrowed in season.borrowed:
        back = "last season" if borrowed.seasons_back == 1 else "the season before"
        add(
            {
                "Game": borrowed.games,
                "Opponent": f"Borrowed from {back}",
                "Points": shown_number(borrowed.points),
                "Note": borrowed_line(borrowed),
            },
            {"Opponent": "label"},
        )
    new_grade = grade_lines(card)
    add(
        {
            "Game": season.total_games,
            "Opponent": "New grade",
            "Points": shown_number(season.total_points),
            "Grade": card.published_grade,
            "Category": season.category,
            "Note": "; ".join(new_grade),
        },
        {"Opponent": "label", "Grade": "label", "Category": "bold centre"},
    )
    for note in mark_lines(card):
        add({"Note": note})


def cards_sheet(result: SeasonResult) -> SheetTable:
    """The Player Cards sheet: every player with a graded standard-play game, in the order of
    the Players sheet, each card as the CLI's ``xlgrade card`` prints it
    (:func:`xlgrade.card.render_card`): the grade at the start, one row a game, the total
    points and games, each borrowed season, the new grade and category, what the marks mean.
    Then, under the heading :data:`RAPID_CARDS`, the rapidplay card of every player with a
    graded rapidplay game, in the same order: every graded game is on both players' cards."""
    if result.rated:
        return rating_cards_sheet(result)
    rows: list[tuple[object, ...]] = []
    styles: dict[tuple[int, int], str] = {}
    for i in np.flatnonzero(result.standard.games > 0).tolist():
        _card_rows(result.codes[i] or None, result.card(i, STANDARD), rows, styles)
    rapid = np.flatnonzero(result.rapid.games > 0).tolist()
    if rapid:
        if rows:
            rows.append((None,) * len(CARD_SHEET_HEADERS))
        heading: list[object] = [None] * len(CARD_SHEET_HEADERS)
        heading[1] = RAPID_CARDS
        styles[(len(rows), 1)] = "label"
        rows.append(tuple(heading))
    for i in rapid:
        _card_rows(result.codes[i] or None, result.card(i, RAPID), rows, styles)
    return SheetTable(CARD_SHEET_HEADERS, rows, styles)


def rating_cards_sheet(result: SeasonResult) -> SheetTable:
    """The Player Cards sheet of a rated season (:data:`RATING_CARD_SHEET_HEADERS`): each
    player with a rated standard-play game, month by month
    (:func:`xlgrade.season.rating_card.rating_card`, the cards ``xlgrade season --card``
    prints): each game's opponent rating, expected score, k and change; each month's figures
    and the rating after it (for the P method the games, the nominal opponent and the
    performance, in the note); the monthly path last. Then, under the heading
    :data:`RAPID_CARDS`, the rapidplay rating cards, laid out the same."""
    rows = _rating_card_rows(result, STANDARD)
    rapid = _rating_card_rows(result, RAPID)
    if rapid:
        if rows:
            rows.append((None,) * len(RATING_CARD_SHEET_HEADERS))
        heading: list[object] = [None] * len(RATING_CARD_SHEET_HEADERS)
        heading[1] = RAPID_CARDS
        rows.append(tuple(heading))
        rows.extend(rapid)
    label = RATING_CARD_SHEET_HEADERS.index("Opponent")
    result_at = RATING_CARD_SHEET_HEADERS.index("Result")
    # The category centred, apart from the rating at the right of the column before it.
    category = RATING_CARD_SHEET_HEADERS.index("Category")
    styles: dict[tuple[int, int], str] = {}
    for r, row in enumerate(rows):
        if row[category] is not None:
            styles[(r, category)] = "centre"
        if row[1] == RAPID_CARDS:
            styles[(r, 1)] = "label"
        if row[RATING_CARD_SHEET_HEADERS.index("Game")] is None:
            styles[(r, label)] = "label"
        if row[result_at] is not None:
            styles[(r, result_at)] = "score"
    return SheetTable(RATING_CARD_SHEET_HEADERS, rows, styles)


def _rating_card_rows(result: SeasonResult, kind: str) -> list[tuple[object, ...]]:
    """Every rated player's card as rows of the Player Cards sheet
    (:data:`RATING_CARD_SHEET_HEADERS`): a row for the start of the season, for each month a
    row per game and one for the month's figures, and the monthly path last."""
    rated = result.rated[kind]
    rows: list[tuple[object, ...]] = []
    column = {h: i for i, h in enumerate(RATING_CARD_SHEET_HEADERS)}

    def add(code: str | None, name: str, values: dict[str, object]) -> None:
        row: list[object] = [None] * len(RATING_CARD_SHEET_HEADERS)
        row[0], row[1] = code, name
        for header, value in values.items():
            row[column[header]] = value
        rows.append(tuple(row))

    for i in np.flatnonzero(rated.games > 0).tolist():
        card = result.rating_card(i, kind)
        code = result.codes[i] or None
        add(
            code,
            card.name,
            {
                "Opponent": "Start of season",
                "Rating": None if card.start_rating is None else int(card.start_rating),
                "Category": card.start_category or None,
            },
        )
        for m in card.months:
            month = m.month.isoformat()[:7]
            for g in m.games:
                add(
                    code,
                    card.name,
                    {
                        "Month": month,
                        "Method": m.method,
                        "Game": g.number,
                        "Date": g.date,
                        "Opponent": g.opponent,
                        "Result": g.score,
                        "Opponent rating": g.opponent_rating,
                        "Expected": g.expected,
                        "k": g.k,
                        "Change": None if g.change is None else round(g.change, 2),
                        "Note": g.league or None,  # a union's card names each game's league
                    },
                )
            lines = month_lines(m)
            add(
                code,
                card.name,
                {
                    "Month": month,
                    "Method": m.method,
                    "Opponent": "Month",
                    "Result": m.score,
                    "Opponent rating": None if m.nominal is None else m.nominal,
                    "Expected": None if m.expected is None else round(m.expected, 2),
                    "k": m.k,
                    "Change": None if m.change is None else round(m.change, 2),
                    "Rating": m.rating,
                    "Category": m.category or None,
                    "Note": "; ".join(line.strip() for line in lines),
                },
            )
        add(
            code,
            card.name,
            {
                "Opponent": "After the season",
                "Rating": None if card.rating is None else int(card.rating),
                "Category": card.category or None,
                "Note": f"monthly path {path_text(card.path)}",
            },
        )
    return rows


def _exceptions_sheet(result: SeasonResult) -> SheetTable:
    """The Exceptions (:meth:`xlgrade.season.SeasonResult.exceptions_table`), the row numbers
    centred, apart from the reasons beside them."""
    table = result.exceptions_table()
    row = table.headers.index("Row")
    return SheetTable(
        table.headers, table.rows, {(r, row): "centre" for r in range(len(table.rows))}
    )


def season_sheets(result: SeasonResult) -> dict[str, Table]:
    """Every output sheet's table for the season, by sheet name: the lists
    (:func:`list_sheet`; the Rapid List only when a rapidplay game was graded), the cards
    (:func:`cards_sheet`) and the Exceptions
    (:meth:`xlgrade.season.SeasonResult.exceptions_table`)."""
    out: dict[str, Table] = {
        layout.GRADING_LIST: list_sheet(result, STANDARD),
        layout.PLAYER_CARDS: cards_sheet(result),
        layout.EXCEPTIONS: _exceptions_sheet(result),
    }
    if result.accounting.rapid_graded:
        out[layout.RAPID_LIST] = list_sheet(result, RAPID)
    return out
