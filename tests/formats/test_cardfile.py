"""``xlgrade card`` on files that are not card files, and the card file's checks: a repeated
key, extra columns, negative and implausible grades are refused with the line quoted; padded
rows, CR line ends and Windows-1252 text are read; the example card is unchanged.

The card file's refusals: each says the line and quotes the text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.paths import ROOT
from xlgrade.cli import main
from xlgrade.errors import FormatError
from xlgrade.formats.cardfile import MAX_GRADE, read_card_bytes, read_card_file

NOT_A_CARD = (
    "not a card file (a CSV of 'key,value' lines for the player, then the line "
    "'result,opponent grade,estimated' and a line per game)"
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the command line: its exit code, standard output and standard error."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(tmp_path: Path, body: bytes) -> Path:
    """A card file holding ``body``."""
    path = tmp_path / "card.csv"
    path.write_bytes(body)
    return path


def test_a_workbook_is_not_a_card_file(capsys: pytest.CaptureFixture[str]) -> None:
    book = ROOT / "workbook" / "example-league.xlsm"
    code, out, err = run(capsys, "card", str(book))
    assert (code, out) == (1, "")
    assert err == f"Error: {book}: {NOT_A_CARD}: line 1 holds binary data (byte 0x03)\n"


def test_binary_data_is_not_a_card_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, b"grade,142\nresult,opponent grade\n1,1\x0020\n")
    code, out, err = run(capsys, "card", str(path))
    assert (code, out) == (1, "")
    assert err == f"Error: {path}: {NOT_A_CARD}: line 3 holds binary data (byte 0x00)\n"


def test_undecodable_text_is_not_a_card_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, b"grade,142\nresult,opponent grade\n1,120\n\x81\n")
    code, out, err = run(capsys, "card", str(path))
    assert (code, out) == (1, "")
    assert err == (
        f"Error: {path}: {NOT_A_CARD}: line 4 is neither UTF-8 nor Windows-1252 text (byte 0x81)\n"
    )


def test_a_csv_the_reader_cannot_split_is_not_a_card_file() -> None:
    huge = "x" * 200_000
    with pytest.raises(FormatError) as error:
        read_card_file(f'name,"{huge}"\n', source="big.csv")
    assert str(error.value) == (
        f"big.csv: {NOT_A_CARD}: line 1: field larger than field limit (131072)"
    )
    with pytest.raises(FormatError) as error:
        read_card_file(f'name,"{huge}"\n')
    assert str(error.value).startswith(f"{NOT_A_CARD}: line 1: ")


def test_windows_1252_and_cr_line_ends_are_read(tmp_path: Path) -> None:
    data = read_card_bytes(b"name,Caf\xe9\rgrade,142\rresult,opponent grade\r1,120\r", "c.csv")
    assert (data.name, data.own_grade, len(data.games)) == ("Café", 142.0, 1)


def test_padded_rows_are_read(tmp_path: Path) -> None:
    text = "name,A,\ngrade,142,\nresult,opponent grade,estimated\n1,156,,\n+,90,,\n"
    data = read_card_file(text)
    assert (data.own_grade, len(data.games), data.skipped) == (
        142.0,
        1,
        ((5, "won by default ('+'): not graded"),),
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "grade,142\nname,X\ngrade,150\nresult,opponent grade\n1,120\n",
            "line 3: 'grade' is given again (first on line 1); give each setting once",
        ),
        (
            "Grade,142\nGRADE,142\nresult,opponent grade\n1,120\n",
            "line 2: 'GRADE' is given again (first on line 1); give each setting once",
        ),
        (
            "grade,142\nresult,opponent grade\n1,156,,extra\n",
            "line 3: '1,156,,extra' has more than 3 columns (quote a value that holds a comma)",
        ),
        (
            "grade,142\nresult,opponent grade\n+,90,,x\n",
            "line 3: '+,90,,x' has more than 3 columns (quote a value that holds a comma)",
        ),
        (
            "name,Smith, J\nresult,opponent grade\n1,120\n",
            "line 1: 'name,Smith, J' has more than 2 columns (quote a value that holds a comma)",
        ),
        ("grade,\nresult,opponent grade\n1,120\n", "line 1: 'grade' has no value"),
        ("grade,-5\nresult,opponent grade\n1,120\n", "line 1: grade '-5' is negative"),
        (
            "grade,142\nresult,opponent grade\n1,-1\n",
            "line 3: opponent grade '-1' is negative",
        ),
        (
            "grade,142\nresult,opponent grade\n1,99999\n",
            "line 3: opponent grade '99999' is above 400, not a grade on the ECF scale",
        ),
        (
            "grade,1850\nresult,opponent grade\n1,120\n",
            "line 1: grade '1850' is above 400, not a grade on the ECF scale",
        ),
    ],
)
def test_unchecked_input_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, message: str
) -> None:
    code, out, err = run(capsys, "card", str(write(tmp_path, body.encode())))
    assert (code, out, err) == (1, "", f"Error: {message}\n")


def test_the_grade_range_ends_are_taken() -> None:
    text = f"grade,0\nresult,opponent grade\n1,{MAX_GRADE:g}\n0,0\n"
    data = read_card_file(text)
    assert data.own_grade == 0.0
    assert [game.opponent_grade for game in data.games] == [MAX_GRADE, 0.0]


def test_cells_are_read_as_every_cell_is() -> None:
    """xlgrade.cells: a grade in brackets (docs/rules.md §6, "[136]"), TRUE/1/no/blank and
    the column's own "est" in *estimated*, thousands with commas in the points."""
    text = (
        'grade,[142]\nprevious games,19\nprevious points,"2,754"\n'
        "result,opponent grade,estimated\n"
        "1,[136],TRUE\n0,120,1\n½,128,no\n1,130,\n0,110,est\n"
    )
    data = read_card_file(text)
    assert data.own_grade == 142.0
    assert data.earlier[0] is not None
    assert (data.earlier[0].games, data.earlier[0].points) == (19, 2754.0)
    assert [(g.score, g.opponent_grade, g.estimated) for g in data.games] == [
        (1.0, 136.0, True),
        (0.0, 120.0, True),
        (0.5, 128.0, False),
        (1.0, 130.0, False),
        (0.0, 110.0, True),
    ]


def test_a_quoted_name_with_a_comma_is_one_value() -> None:
    assert read_card_file('name,"Smith, J"\nresult,opponent grade\n1,120\n').name == "Smith, J"


def test_the_example_card_is_read_as_before() -> None:
    path = ROOT / "examples" / "yca-player.csv"
    data = read_card_bytes(path.read_bytes(), str(path))
    assert (data.name, data.own_grade, len(data.games), data.skipped) == (
        "YCA example player",
        142.0,
        17,
        (),
    )


def test_help_shows_upper_case_metavars(capsys: pytest.CaptureFixture[str]) -> None:
    for command, usage in (
        ("card", "usage: xlgrade card [-h] FILE\n"),
        ("recalc", "usage: xlgrade recalc [-h] [--out FILE] [--force] BOOK\n"),
        ("new-season", "usage: xlgrade new-season [-h] [--force] [--new-engine] BOOK OUT\n"),
    ):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert capsys.readouterr().out.startswith(usage)


GAMES = "result,opponent grade,estimated\n1,120,\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("grade,nan\n" + GAMES, "line 1: grade 'nan' is not a number"),
        ("name,X\ngrade,inf\n" + GAMES, "line 2: grade 'inf' is not a number"),
        (
            "previous games,19.5\nprevious points,2754\n" + GAMES,
            "line 1: previous games '19.5' is not a whole number of games",
        ),
        (
            "earlier games,-3\nearlier points,300\n" + GAMES,
            "line 1: earlier games '-3' is not a whole number of games",
        ),
        (
            "name,A. Player\ngrade,142\n",
            "line 1: no games: the file needs a line 'result,opponent grade,estimated'",
        ),
    ],
)
def test_a_bad_card_file_is_refused_with_its_line(text: str, message: str) -> None:
    with pytest.raises(FormatError) as error:
        read_card_file(text)
    assert str(error.value) == message
