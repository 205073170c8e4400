"""The TRF, ECF file and card file readers on hostile numbers: Unicode digits (``²``, which
``str.isdigit`` takes and ``int`` refuses), numbers of thousands of digits, and counts that
would make the work unbounded (``XXR 20000000``) end in ``line N: …``, within the limits of
docs/limits.md."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from xlgrade.errors import FormatError
from xlgrade.formats.cardfile import MAX_GAMES, read_card_file
from xlgrade.formats.ecffile import read_ecf_file
from xlgrade.formats.folder import read_folder_cells
from xlgrade.formats.tables import read_inputs
from xlgrade.formats.trf import MAX_ENTRIES, MAX_ROUNDS, parse_trf
from xlgrade.season import recalculate


def _player(rank: int, name: str, points: str, block: str) -> str:
    """A 001 line: rank in columns 5-8, name 15-47, points 81-84, one round block from 92
    (TRF-16, counted from 1)."""
    line = [" "] * 91
    line[0:3] = "001"
    line[4:8] = f"{rank:4d}"
    line[14 : 14 + len(name)] = name
    line[80:84] = f"{points:>4}"
    return "".join(line) + block


# Two players who met in round 1: the opponent in columns 92-95, colour 97, result 99.
_ONE = _player(1, "Alpha,Ann", "1.0", "   2 w 1")
_TWO = _player(2, "Beta,Bob", "0.0", "   1 b 0")


def _trf(*header: str) -> str:
    return "\n".join(["012 Test", *header, _ONE, _TWO]) + "\n"


def test_the_two_player_report_reads() -> None:
    tournament = parse_trf(_trf("XXR 1"))
    assert (tournament.rounds, len(tournament.players)) == (1, 2)
    assert [(r.opponent, r.colour, r.code) for r in tournament.players[0].rounds] == [(2, "w", "1")]


@pytest.mark.parametrize("rounds", ["20000000", "1000000", str(MAX_ROUNDS + 1)])
def test_a_number_of_rounds_past_the_limit_is_refused_before_any_work(rounds: str) -> None:
    with pytest.raises(FormatError) as caught:
        parse_trf(_trf(f"XXR {rounds}"))
    assert str(caught.value).startswith(f"line 2: XXR gives {rounds} rounds; with 2 players")
    assert f"more than the {MAX_ROUNDS} rounds or {MAX_ENTRIES:,} entries" in str(caught.value)


def test_the_most_rounds_read() -> None:
    assert parse_trf(_trf(f"XXR {MAX_ROUNDS}")).rounds == MAX_ROUNDS


def test_a_player_line_of_too_many_rounds_is_refused() -> None:
    line = _ONE + " " + "          " * MAX_ROUNDS + "   2 w 1"
    with pytest.raises(FormatError, match=r"^line 2: the player line holds more than 999 rounds"):
        parse_trf("012 Test\n" + line + "\n" + _TWO + "\n")


@pytest.mark.parametrize(
    ("header", "says"),
    [
        ("XXR ²", "line 2: number of rounds '²' is not a whole number"),
        ("XXR " + "9" * 5000, "line 2: number of rounds '9999"),
        ("XXR ١٢", "line 2: number of rounds '١٢' is not a whole number"),
    ],
    ids=["superscript", "5000-digits", "arabic-indic"],
)
def test_unicode_digits_and_long_numbers_in_a_trf(header: str, says: str) -> None:
    with pytest.raises(FormatError) as caught:
        parse_trf(_trf(header))
    assert str(caught.value).startswith(says)


def test_a_unicode_digit_as_an_opponent_is_refused() -> None:
    two = _player(2, "Beta,Bob", "0.0", "   ² b 0")
    with pytest.raises(FormatError, match=r"^line 3: round 1: opponent '²' is not a starting"):
        parse_trf("012 Test\n" + _ONE + "\n" + two + "\n")


def test_a_unicode_digit_in_a_fide_id_is_refused() -> None:
    one = _ONE[:57] + "²" + _ONE[58:]
    with pytest.raises(FormatError, match=r"^line 2: FIDE ID \(columns 58-68\) '²' is not a"):
        parse_trf("012 Test\n" + one + "\n" + _TWO + "\n")


_ECF = """#EVENT DETAILS
#EVENT CODE=ABC
#SUBMISSION INDEX=1
#EVENT NAME=Test
#EVENT DATE=01/09/2025
#FINAL RESULT DATE=01/05/2026
#RESULTS OFFICER=A. Grader
#RESULTS OFFICER ADDRESS=1 Street
#TREASURER=A. Grader
#TREASURER ADDRESS=1 Street
#MINUTES FOR GAME={index}
#SECONDS PER MOVE=30
#ADJUDICATED=N
#PLAYER LIST
#PIN=1#NAME=Alpha, Ann
#PIN=2#NAME=Beta, Bob
#MATCH RESULTS=A v B
#PIN1=1#PIN2=2#SCORE=10#BOARD={board}#COLOUR=WHITE#GAME DATE=01/10/2025
#FINISH#
"""


def test_the_ecf_file_reads() -> None:
    read = read_ecf_file(_ECF.format(index="90", board="1"))
    assert [game.board for game in read.games] == [1]


@pytest.mark.parametrize(
    ("index", "board", "says"),
    [
        ("²", "1", "'²' is not a whole number"),
        ("9" * 5000, "1", "is not a whole number"),
        ("90", "²", "BOARD '²' is not a whole number"),
        ("90", "9" * 400, "BOARD '9999"),
        ("90", "1000", "BOARD '1000' is not a board number: a board is a whole number from 1 to"),
    ],
    ids=["unicode-minutes", "long-minutes", "unicode-board", "long-board", "board-1000"],
)
def test_unicode_digits_and_long_numbers_in_an_ecf_file(index: str, board: str, says: str) -> None:
    with pytest.raises(FormatError) as caught:
        read_ecf_file(_ECF.format(index=index, board=board))
    assert str(caught.value).startswith("line ")
    assert says in str(caught.value)
    assert len(str(caught.value)) < 200


_CARD = "grade,120\n{key},{value}\n{pair}\nresult,opponent grade,estimated\n1,120,\n"


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("previous games", "1e300", f"is more than {MAX_GAMES:,}, the most games"),
        ("previous games", "9" * 5000, "is not a number"),
        ("previous games", "²", "'²' is not a number"),
        ("previous points", "1e300", "is more than"),
        ("horizon", "1e300", "is more than"),
    ],
    ids=["games-1e300", "games-5000-digits", "games-superscript", "points-1e300", "horizon"],
)
def test_hostile_numbers_in_a_card_file(key: str, value: str, says: str) -> None:
    pair = {"previous games": "previous points,1000", "previous points": "previous games,10"}
    with pytest.raises(FormatError) as caught:
        read_card_file(_CARD.format(key=key, value=value, pair=pair.get(key, "")))
    assert str(caught.value).startswith("line 2: ")
    assert says in str(caught.value)
    assert len(str(caught.value)) < 200


def test_a_long_input_is_quoted_shortened_with_its_length(tmp_path: Path) -> None:
    # A Results cell of 30,000 characters naming nobody: its one line quotes its first 58
    # characters and says how long it was, not the whole cell.
    folder = tmp_path / "league"
    folder.mkdir()
    (folder / "players.csv").write_text("Name,Grade\nAble Ann,120\n", encoding="utf-8")
    name = "x" * 30_000
    (folder / "results.csv").write_text(
        f"Date,Home player,Result,Away player\n2025-10-01,{name},1-0,Able Ann\n",
        encoding="utf-8",
    )
    cells = read_folder_cells(folder)
    inputs = read_inputs(cells)
    season = recalculate(inputs.players, inputs.games, inputs.settings, inputs.problems)
    [line] = [p.why for p in season.problems if p.sheet == "Results"]
    assert line.startswith("no player is called '" + "x" * 58 + "…' (30,000 characters)")
    assert len(line) < 200
    # A TRF line past 100 characters is quoted to its 100th and its length.
    long_line = _player(1, "Alpha,Ann", "1.0", "   2 w 1" + " " * 2 + "x" * 300)
    with pytest.raises(FormatError) as caught:
        parse_trf("\n".join(["012 Test", long_line.replace("   2 w 1", "   2 q 1"), _TWO]))
    assert f"{long_line.replace('   2 w 1', '   2 q 1')[:100] + '…'!r} (401 characters)" in str(
        caught.value
    )


# --- CSV files: the header first, a size limit, Excel's rows --------------------------------


def test_a_csv_header_is_checked_before_the_rest_is_read() -> None:
    from xlgrade.formats.detect import read_any

    # Line 3's quote is one the CSV reader refuses: read first, it would be the error.
    text = 'Foo,Bar,Baz\n1,2,3\n"open,4,5\n' + "6,7,8\n" * 1000
    with pytest.raises(FormatError) as refused:
        read_any(text, "bad.csv")
    assert str(refused.value) == (
        "line 1: header 'Foo,Bar,Baz' has neither a 'name' column (players) nor 'home', 'away' "
        "and 'result' columns (results)"
    )


def test_a_csv_of_more_lines_than_an_excel_sheet_has_rows_is_refused() -> None:
    from xlgrade.formats.csvfile import MAX_CSV_LINES, read_csv

    assert MAX_CSV_LINES == 1_048_576  # Excel's last row
    with pytest.raises(
        FormatError,
        match=r"^line 1,048,577: the file has more lines than the 1,048,576 rows of an Excel ",
    ):
        read_csv("Name,Grade\n" + "\n" * (MAX_CSV_LINES - 1) + "Smith J,100", "many.csv")


def test_a_file_to_import_past_the_size_limit_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from xlgrade.cli import main
    from xlgrade.formats import detect

    assert detect.MAX_FILE_BYTES == 100 * 2**20
    monkeypatch.setattr(detect, "MAX_FILE_BYTES", 1000)
    source = tmp_path / "players.csv"
    source.write_text("Name,Grade\n" + "Smith J,100\n" * 100)
    assert main(["import", str(source), "--into", str(tmp_path / "league")]) == 1
    assert capsys.readouterr().err == (
        "Error: players.csv: the file is 1,211 bytes, more than the 1,000 xlgrade imports (see "
        "docs/limits.md)\n"
    )
    assert not (tmp_path / "league").exists()


@pytest.mark.parametrize(
    ("make", "kind"),
    [(lambda path: os.mkfifo(path), "a named pipe"), (lambda path: path.mkdir(), "a folder")],
)
def test_a_file_to_import_that_is_no_file_is_refused_by_name_unopened(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Callable[[Path], None], kind: str
) -> None:
    """A named pipe would wait for a writer for ever, a device such as ``/dev/zero`` never
    ends: each is refused by what it is before it is opened (a pipe opened would hang the
    test), for an import and for the rating list of ``ratings`` and ``reconcile``."""
    from xlgrade.cli import main

    source = tmp_path / "games.csv"
    make(source)
    assert main(["import", str(source), "--into", str(tmp_path / "league")]) == 1
    assert capsys.readouterr().err == (
        f"Error: games.csv: it is {kind}, not a file: xlgrade imports files only\n"
    )
    assert not (tmp_path / "league").exists()
    for args in (
        ["ratings", str(source), "--into", str(tmp_path)],
        ["reconcile", "--month", "2025-08", str(source), str(tmp_path)],
    ):
        assert main(args) == 1
        assert capsys.readouterr().err == (
            f"Error: {source}: it is {kind}, not a file: xlgrade reads files only\n"
        )


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_device_to_import_is_refused_unread(capsys: pytest.CaptureFixture[str]) -> None:
    from xlgrade.cli import main

    assert main(["import", "/dev/zero", "--into", "/nonexistent/league"]) == 1
    assert "zero: it is a character device, not a file" in capsys.readouterr().err


def test_a_rating_list_past_the_size_limit_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from xlgrade.cli import main
    from xlgrade.formats import detect

    monkeypatch.setattr(detect, "MAX_FILE_BYTES", 1000)
    source = tmp_path / "ratings-2025-08.csv"
    source.write_text("ECF_code,full_name,original_standard\n" + "123456A,Smith J,1500\n" * 60)
    assert main(["ratings", str(source), "--into", str(tmp_path)]) == 1
    # 37 bytes of header and 60 rows of 21: 1,297.
    assert capsys.readouterr().err == (
        f"Error: {source}: the file is 1,297 bytes, more than the 1,000 xlgrade reads (see "
        "docs/limits.md)\n"
    )


@pytest.mark.parametrize("length", [32_768, 100_000, 140_000])
def test_a_csv_cell_longer_than_excel_holds_is_refused_naming_file_line_and_cell(
    tmp_path: Path, length: int
) -> None:
    # Excel holds at most 32,767 characters in a cell; Python's CSV reader refuses a field
    # past 131,072 on its own. Either way the line and the file are named.
    folder = tmp_path / "league"
    folder.mkdir()
    (folder / "players.csv").write_text("Name,Grade\nAble Ann,120\n", encoding="utf-8")
    (folder / "results.csv").write_text(
        "Date,Home player,Result,Away player\n2025-10-01,Able Ann,1-0,Bee Bob\n"
        f"2025-10-02,{'x' * length},1-0,Able Ann\n",
        encoding="utf-8",
    )
    with pytest.raises(FormatError) as caught:
        read_folder_cells(folder)
    said = str(caught.value)
    if length <= 131_072:
        assert said == (
            f"results.csv: line 3: cell B3 (Home player) holds '{'x' * 58}…' ({length:,} "
            "characters): more than the 32,767 characters a cell of Excel holds"
        )
    else:
        assert said.startswith(
            "results.csv: line 3: a cell holds more than the 32,767 characters a cell of Excel "
            "holds"
        )
    from xlgrade.formats.csvfile import MAX_CSV_CELL

    assert MAX_CSV_CELL == 32_767


def test_a_csv_cell_of_excel_s_most_characters_is_read() -> None:
    from xlgrade.formats.csvfile import read_csv

    (player,) = read_csv(f"Name,Club\nAble Ann,{'c' * 32_767}\n").players
    assert len(player.club) == 32_767


def test_the_bad_header_of_a_large_csv_is_refused_before_the_rest_is_decoded(
    tmp_path: Path,
) -> None:
    from xlgrade.formats.detect import import_file

    # After the header, 2 MB of rows, then a byte that is not UTF-8 and a quote CSV refuses:
    # neither is reached, so neither is said.
    path = tmp_path / "results.csv"
    path.write_bytes(b"When,Who,Against\n" + b"2025-10-01,a,b\n" * 140_000 + b'M\xfcller,"c\n')
    notes: list[str] = []
    with pytest.raises(FormatError) as refused:
        import_file(path, path.name, notes)
    assert str(refused.value).startswith("line 1: header 'When,Who,Against' has neither")
    assert notes == []


def test_a_csv_whose_header_starts_as_a_trf_line_is_read_as_csv(tmp_path: Path) -> None:
    from xlgrade.formats.detect import import_file

    # "ECF code" starts as a TRF line does (three letters, a blank); no line is a 001 line.
    path = tmp_path / "players.csv"
    path.write_text("ECF code,Name,Grade\n123456A,Smith J,150\n", encoding="utf-8")
    imported = import_file(path, path.name)
    assert imported.kind == "players CSV"
    assert [(p.code, p.name, p.grade) for p in imported.players] == [("123456A", "Smith J", 150)]


def test_a_folder_file_past_the_size_limit_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from xlgrade.cli import main
    from xlgrade.formats import detect

    monkeypatch.setattr(detect, "MAX_FILE_BYTES", 1000)
    folder = tmp_path / "league"
    folder.mkdir()
    (folder / "players.csv").write_text("Name,Grade\n" + "Smith J,100\n" * 100)
    (folder / "results.csv").write_text("Home player,Result,Away player\n")
    assert main(["season", str(folder)]) == 1
    assert capsys.readouterr().err == (
        "Error: players.csv: the file is 1,211 bytes, more than the 1,000 xlgrade reads (see "
        "docs/limits.md)\n"
    )
