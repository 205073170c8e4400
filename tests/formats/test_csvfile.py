"""CSV players and results: round trips, formula neutralising, malformed input, fuzzing."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlgrade.errors import FormatError
from xlgrade.formats.csvfile import (
    neutralise,
    read_csv,
    restore,
    write_players_csv,
    write_results_csv,
)
from xlgrade.model import EarlierSeason, Game, Player

GAMES = (
    Game("Smith, John", "Brown, Ann", "1-0", dt.date(2025, 9, 10), "Division 1",
         "Anytown A v Beeton B", 1, "30/75, 15"),
    Game("210988J", "=HYPERLINK(\"x\")", "-", None, "@SUM(A1)", "+1", None, ""),
)  # fmt: skip
PLAYERS = (
    Player("Smith, John", "210988J", "Anytown", dt.date(2012, 3, 4), True, 123.0, None, 130.5,
           EarlierSeason(12, 1234.5), EarlierSeason(3, 0.1 + 0.2)),
    Player("-Brown", None, "", None, False, None, 99.0),
)  # fmt: skip


def _rowless(values: tuple[object, ...]) -> list[object]:
    return [dataclasses.replace(v, row=None) for v in values]  # type: ignore[type-var]


def test_results_round_trip() -> None:
    table = read_csv(write_results_csv(GAMES))
    assert table.kind == "results"
    assert _rowless(table.games) == list(GAMES)
    assert [g.row for g in table.games] == [2, 3]


def test_players_round_trip() -> None:
    table = read_csv(write_players_csv(PLAYERS))
    assert table.kind == "players"
    assert _rowless(table.players) == list(PLAYERS)


def test_formula_cells_are_neutralised() -> None:
    text = write_results_csv(GAMES)
    lines = text.splitlines()
    assert lines[2] == ',\'@SUM(A1),\'+1,,210988J,\'-,"\'=HYPERLINK(""x"")",'
    # Text that already looks neutralised gets one more mark, so that reading gives it back.
    assert [neutralise(c) for c in ("=1", "+1", "-1", "@x", "\tx", "ok", "'=x")] == [
        "'=1", "'+1", "'-1", "'@x", "'\tx", "ok", "''=x",
    ]  # fmt: skip
    assert [restore(neutralise(c)) for c in ("'=x", "''=x", "'x", "'")] == [
        "'=x",
        "''=x",
        "'x",
        "'",
    ]


def test_other_headers_and_separators() -> None:
    text = "\ufeffWhite;Black;Score;Game date;Round\nSmith J;Brown A;½-½;10/09/2025;3\n"
    (game,) = read_csv(text).games
    assert (game.home, game.away, game.result, game.date, game.match) == (
        "Smith J", "Brown A", "½-½", dt.date(2025, 9, 10), "3",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "line 1: the CSV file is empty"),
        (
            "a,b\n1,2\n",
            "line 1: header 'a,b' has neither a 'name' column (players) nor "
            "'home', 'away' and 'result' columns (results)",
        ),
        (
            "home,away,result\nA,B,1-0,extra\n",
            "line 2: 4 cells where the header has 3: 'A,B,1-0,extra'",
        ),
        ("home,away,result\nA,,1-0\n", "line 2: cell B2 (Away player) is blank"),
        (
            "home,away,result,date\nA,B,1-0,31/02/2025\n",
            "line 2: cell D2 (Date): '31/02/2025' is not a date",
        ),
        (
            "home,away,result,board\nA,B,1-0,1.5\n",
            "line 2: cell D2 (Board): '1.5' is not a board number: a board is a whole number "
            "from 1 to 999",
        ),
        ("name,grade\nSmith,abc\n", "line 2: cell B2 (Grade): 'abc' is not a number"),
        ("name,grade\nSmith,nan\n", "line 2: cell B2 (Grade): 'nan' is not a finite number"),
        ("name,junior\nSmith,maybe\n", "line 2: cell B2 (Junior): 'maybe' is not yes or no"),
        (
            "name,previous_games\nSmith,3\n",
            "line 2: cell A2 (Previous points) is blank but previous season's other total is given",
        ),
        ("name,code\n,210988J\n", "line 2: cell A2 (Name) is blank"),
        (
            "name,grading\nSmith,150\n",
            "line 1: column 'grading' of the Players header is not "
            "known: did you mean 'Grade'? (read as it is, the column would be left out)",
        ),
        ('name\n"Smith\n', "line 2: not readable as CSV: unexpected end of data"),
    ],
)
def test_malformed_input_message(text: str, message: str) -> None:
    with pytest.raises(FormatError) as error:
        read_csv(text)
    assert str(error.value) == message


_cells = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\x00"),
    max_size=12,
).map(lambda text: " ".join(text.split()))  # spaces are read as a workbook's cells are


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(_cells.filter(bool), _cells.filter(bool), _cells.filter(bool),
                          _cells, _cells), max_size=6))  # fmt: skip
def test_fuzz_results_round_trip(rows: list[tuple[str, str, str, str, str]]) -> None:
    games = tuple(Game(h, a, r, event=e, match=m) for h, a, r, e, m in rows)
    assert _rowless(read_csv(write_results_csv(games)).games) == list(games)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("name,homeawayresult;\t\"'=1-0\n x")), max_size=200))
def test_fuzz_random_text(text: str) -> None:
    try:
        read_csv(text)
    except FormatError as error:
        assert str(error).startswith("line ")  # noqa: PT017


def test_empty_cells_past_the_header_are_nothing() -> None:
    (player,) = read_csv('name,grade\n"Smith, J",150,,\n').players
    assert (player.name, player.grade) == ("Smith, J", 150)
    with pytest.raises(FormatError, match=r"^line 2: 4 cells where the header has 2: "):
        read_csv('name,grade\n"Smith, J",150,,x\n')


@pytest.mark.parametrize(
    "cell", ["10/09/2025 00:00", "2025-09-10 00:00:00", "2025-09-10T19:30:00", "10/09/2025 19:30"]
)
def test_a_date_written_with_a_time_of_day_is_its_day(cell: str) -> None:
    (game,) = read_csv(f"home,away,result,date\nSmith,Brown,1-0,{cell}\n").games
    assert game.date == dt.date(2025, 9, 10)


def test_a_time_alone_is_not_a_date() -> None:
    with pytest.raises(FormatError, match=r"\(Date\): '19:30' is not a date"):
        read_csv("home,away,result,date\nSmith,Brown,1-0,19:30\n")


@pytest.mark.parametrize(
    ("value", "handed"),
    [
        ("=1+1", "'=1+1"), ("+44", "'+44"), ("-Minus", "'-Minus"), ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"), ("\r-2", "'\r-2"), ("'Bo", "''Bo"),  # Excel strips one "'"
        ("Smith, John", "Smith, John"), ("1-0", "1-0"), (142.0, 142.0), (None, None),
    ],
)  # fmt: skip
def test_text_excel_would_run_or_strip_is_handed_over_with_the_prefix(
    value: object, handed: object
) -> None:
    from xlgrade.formats.csvfile import typed_text

    assert typed_text(value) == handed


def test_the_header_is_checked_before_any_other_line_is_taken() -> None:
    from xlgrade.formats.csvfile import read_csv_lines

    def lines() -> Iterator[str]:
        yield "\n"
        yield "When,Who,Against\n"
        pytest.fail("a line after the header was read")

    with pytest.raises(FormatError) as refused:
        read_csv_lines(lines(), "bad.csv")
    assert str(refused.value) == (
        "line 2: header 'When,Who,Against' has neither a 'name' column (players) nor 'home', "
        "'away' and 'result' columns (results)"
    )


def test_the_rows_are_read_as_the_table_takes_them() -> None:
    # The table reader takes the rows in blocks that grow from a few: a bad row far down is
    # refused when its block is reached, and the lines past twice its own are never taken.
    from xlgrade.formats.csvfile import read_csv_lines

    taken: list[int] = []

    def lines() -> Iterator[str]:
        yield "Name,Grade\n"
        for number in range(2, 10_000):
            taken.append(number)
            yield f"Player {number},{'abc' if number == 50 else 100}\n"

    with pytest.raises(FormatError, match=r"^line 50: cell B50 \(Grade\): 'abc' is not a number"):
        read_csv_lines(lines(), "players.csv")
    assert taken[-1] < 2 * 50 + 10  # the reader's look-ahead aside


def test_a_csv_file_is_read_as_its_text_is(tmp_path: Path) -> None:
    from xlgrade.formats.csvfile import read_csv_file

    text = 'Name,Grade,Club\n\n"Müller, K",120,"Linz\nNord"\r\nSmith J,,\n'
    path = tmp_path / "players.csv"
    path.write_bytes(text.encode("cp1252"))
    notes: list[str] = []
    from_file = read_csv_file(path, "players.csv", notes=notes)
    assert from_file == read_csv(text, "players.csv")
    assert [(p.name, p.grade, p.club, p.row) for p in from_file.players] == [
        ("Müller, K", 120, "Linz Nord", 3),  # the line break in a cell made one space
        ("Smith J", None, "", 4),
    ]
    assert notes == [
        "not UTF-8 (byte 0xFC on line 3 is not UTF-8): read as Windows-1252, so check its "
        "accented letters; save the file as UTF-8 to be sure"
    ]


def test_text_lines_are_split_as_a_file_opened_for_csv_splits_them() -> None:
    import io

    from xlgrade.formats.csvfile import text_lines

    for text in ("", "a", "a\n", "a\r\nb\rc\n\nd", "\r\r\n\n", "x\x0cy\u2028z\n"):
        assert list(text_lines(text)) == list(io.StringIO(text, newline=""))
