"""The checks before grading run in the order the season's description gives, and a row
failing several is excepted under the first of them."""

from __future__ import annotations

import datetime as dt
import re

import xlgrade.season
from xlgrade.formats.tables import read_inputs
from xlgrade.model import Game, Player
from xlgrade.season import recalculate
from xlgrade.season.checks import CHECKS
from xlgrade.settings import Settings


def test_the_described_order_is_the_declared_list() -> None:
    doc = xlgrade.season.__doc__ or ""
    step = doc[doc.index("2. **Checks before grading**") : doc.index("3. **Working grades**")]
    described = [" ".join(name.split()) for name in re.findall(r"``([^`]+)``", step)]
    assert described == [check.reason for check in CHECKS]


SEASON = Settings(season_start=dt.date(2025, 9, 1), season_end=dt.date(2026, 5, 31))
PLAYERS = [
    Player("Ann Able", club="A", grade=120.0, row=2),
    Player("Bob Best", club="B", grade=130.0, row=3),
]
IN_SEASON = dt.date(2025, 10, 1)


def reason(home: str, away: str, result: str, day: object, control: str = "") -> str:
    """The one reason the single row is excepted under."""
    game = Game(home, away, result, day, time_control=control, row=2)  # type: ignore[arg-type]
    season = recalculate(PLAYERS, [game], SEASON)
    whats = [p.what for p in season.problems if p.sheet == "Results"]
    assert len(whats) == 1, whats
    return whats[0]


def test_a_row_failing_several_checks_gets_the_first() -> None:
    # Unknown player comes before a result nobody understands and a date out of the season.
    assert reason("Nobody", "Bob Best", "x-y", dt.date(2020, 1, 1)) == "unknown player"
    # Paired with himself, with a bad result and a bad date: self pairing first.
    assert reason("Ann Able", "Ann Able", "x-y", "soon") == "self pairing"
    # A result not understood comes before a date that is not a date.
    assert reason("Ann Able", "Bob Best", "x-y", "soon") == "result not understood"
    # A date that is not a date comes before an ungradable time control.
    assert reason("Ann Able", "Bob Best", "1-0", "soon", "blitz") == "date not understood"
    # Out of the season comes before an ungradable time control.
    assert reason("Ann Able", "Bob Best", "1-0", dt.date(2020, 1, 1), "blitz") == (
        "date outside season"
    )
    # An ungradable time control comes before a default.
    assert reason("Ann Able", "Bob Best", "1-0 def", IN_SEASON, "blitz").startswith("time control")
    assert reason("Ann Able", "Bob Best", "1-0 def", IN_SEASON) == "default"


def test_a_row_the_reader_cannot_read_is_one_line_under_its_first_reason() -> None:
    # Row 2: a blank Home player (the reader's first reason, as an unknown player is the
    # season's), a date that is not one and a board of 1.5; row 3: only its date is bad.
    header = ["Date", "Board", "Home player", "Result", "Away player"]
    inputs = read_inputs(
        {
            "Players": [["Name", "Grade"], ["Ann Able", 120], ["Bob Best", 130]],
            "Results": [
                header,
                ["soon", 1.5, None, "1-0", "Bob Best"],
                ["later", 1, "Ann Able", "1-0", "Bob Best"],
                ["2025-10-01", 2, "Ann Able", "0-1", "Bob Best"],
            ],
        }
    )
    season = recalculate(inputs.players, inputs.games, SEASON, inputs.problems)
    lines = [(p.row, p.what, p.why) for p in season.problems if p.sheet == "Results"]
    assert lines == [
        (
            2,
            "incomplete row",
            "cell C2 (Home player) is blank; also cell A2 (Date): 'soon' is not a date; "
            "cell B2 (Board): 1.5 is not a board number: a board is a whole number from 1 to 999",
        ),
        (3, "bad date", "cell A3 (Date): 'later' is not a date"),
    ]
    # Every row graded or listed once: 1 graded + 2 not graded of 3.
    accounting = season.accounting
    assert (accounting.rows, accounting.standard_graded, accounting.excepted) == (3, 1, 2)
    assert accounting.by_reason == {"incomplete row": 1, "bad date": 1}
    rows = [row for row in season.exceptions_table().rows if row[0] == "Results"]
    assert [row[1] for row in rows] == [2, 3]


def test_a_players_row_with_two_bad_cells_is_one_line_under_its_first() -> None:
    # Row 2: a grade and a Previous games that are not numbers; left to right, the grade first.
    inputs = read_inputs(
        {
            "Players": [
                ["Name", "Grade", "Previous games", "Previous points"],
                ["Ann Able", "abc", "x", 5],
                ["Bob Best", 130, 3, 2],
            ],
            "Results": [
                ["Date", "Home player", "Result", "Away player"],
                ["2025-10-01", "Ann Able", "0-1", "Bob Best"],
            ],
        }
    )
    season = recalculate(inputs.players, inputs.games, SEASON, inputs.problems)
    lines = [(p.row, p.what, p.why) for p in season.problems if p.sheet == "Players"]
    assert lines == [
        (
            2,
            "bad grade",
            "cell B2 (Grade): 'abc' is not a number: left out; also cell C2 (Previous games): "
            "'x' is not a number: previous season left out",
        )
    ]
    rows = [row for row in season.exceptions_table().rows if row[0] == "Players"]
    assert [row[1] for row in rows] == [2]
    # The player is kept and his game graded: 1 row, 1 graded, none excepted.
    accounting = season.accounting
    assert (accounting.rows, accounting.standard_graded, accounting.excepted) == (1, 1, 0)
