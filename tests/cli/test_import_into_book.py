"""``xlgrade import FILE --into BOOK`` and the writer of the input sheets' rows
(:mod:`xlgrade.workbook.inputs`), on copies of the shipped workbooks in a temporary folder.

Reference counts come from the TRF file's own text (FIDE TRF-16 layout: ``001`` player lines,
the name in columns 15-47, one ten-column block a round from column 92 whose first four
columns are the opponent's starting rank, ``0000`` or blank for none).
"""

from __future__ import annotations

import datetime as dt
import io
import re
import shutil
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

import pytest

from tests.league import rows_by_header
from tests.paths import ROOT, TRF
from xlgrade.cli import main
from xlgrade.errors import FormatError
from xlgrade.settings import Settings
from xlgrade.workbook import layout
from xlgrade.workbook.build import RESULTS_COLUMNS, build_workbook, results_formulas
from xlgrade.workbook.inputs import InputRows, book_sheets, input_rows_package, write_input_rows
from xlgrade.workbook.package import read_sheets
from xlgrade.workbook.read import grade_inputs, read_inputs
from xlgrade.workbook.relationships import sheet_parts

EXAMPLE = ROOT / "workbook" / "example-league.xlsm"
TEMPLATE = ROOT / "workbook" / "xlgrade-template.xlsm"
MADRID = TRF / "san_viator_2018.trf"
ROUNDS = 7  # line 132 holds seven round dates
OUTPUTS = {*layout.OUTPUT_SHEETS, "Import notes"}


def _madrid() -> Path:
    if not MADRID.is_file():
        pytest.fail(f"data file {MADRID} is missing: the reports are bundled in tests/data/trf")
    return MADRID


def _trf_reference() -> tuple[list[str], int]:
    """The player names of the TRF and how many round entries name an opponent."""
    lines = _madrid().read_text(encoding="ascii").splitlines()
    players = [line for line in lines if line.startswith("001")]
    with_opponent = 0
    for line in players:
        for block in range(ROUNDS):
            rank = line[91 + 10 * block : 95 + 10 * block].strip()
            with_opponent += bool(rank) and rank != "0000"
    return [line[14:47].strip() for line in players], with_opponent


def _members(path: Path | bytes) -> dict[str, bytes]:
    data = path if isinstance(path, bytes) else path.read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        return {name: package.read(name) for name in package.namelist()}


def _patched(data: bytes, changes: dict[str, str | None]) -> bytes:
    """The package with members replaced (text) or left out (``None``)."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(data)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for name in source.namelist():
            if name in changes:
                text = changes[name]
                if text is not None:
                    target.writestr(name, text)
            else:
                target.writestr(name, source.read(name))
        for name, text in changes.items():
            if name not in source.namelist() and text is not None:
                target.writestr(name, text)
    return out.getvalue()


def _text(data: bytes, name: str) -> str:
    return _members(data)[name].decode("utf-8")


def _part(data: bytes, sheet: str) -> str:
    return sheet_parts(data)[sheet]


def _copy(tmp_path: Path, source: Path = EXAMPLE, name: str = "league.xlsm") -> Path:
    book = tmp_path / name
    shutil.copyfile(source, book)
    return book


@pytest.fixture(scope="module")
def madrid_book(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[str]]:
    """The example league with the Madrid report imported: (before, after, printed lines)."""
    folder = tmp_path_factory.mktemp("madrid")
    before = _copy(folder, name="before.xlsm")
    after = _copy(folder, name="after.xlsm")
    capture = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(capture):
        assert main(["import", str(_madrid()), "--into", str(after)]) == 0
    return before, after, capture.getvalue().splitlines()


def test_madrid_rows_are_added(madrid_book: tuple[Path, Path, list[str]]) -> None:
    before, after, _ = madrid_book
    names, with_opponent = _trf_reference()
    old = read_sheets(before, layout.INPUT_SHEETS)
    new = read_sheets(after, layout.INPUT_SHEETS)
    assert len(names) == 137
    assert len(new["Players"]) == len(old["Players"]) + 137
    assert new["Players"][: len(old["Players"])] == old["Players"]
    assert sorted(str(row[1]) for row in new["Players"][len(old["Players"]) :]) == sorted(names)
    games = with_opponent // 2  # each pairing is written on both players' lines
    assert len(new["Results"]) == len(old["Results"]) + games
    assert new["Results"][: len(old["Results"])] == old["Results"]
    added = new["Results"][len(old["Results"]) :]
    assert all(row[1] == "XXX Torneo San Viator - Memorial Pepe Domaica (B)" for row in added)
    assert all(row[7] == "90+30" for row in added)
    assert {row[2] for row in added} == {f"Round {n}" for n in range(1, ROUNDS + 1)}
    assert all(isinstance(row[0], dt.date) and row[0].year == 2018 for row in added)
    assert new["Settings"] == old["Settings"]


def test_madrid_formulas_and_tables(madrid_book: tuple[Path, Path, list[str]]) -> None:
    _, after, _ = madrid_book
    _, with_opponent = _trf_reference()
    first, last = 302, 301 + with_opponent // 2  # the example has 300 games under its header
    data = after.read_bytes()
    results = _text(data, _part(data, "Results"))
    letters = {h: chr(ord("A") + i) for i, h in enumerate(RESULTS_COLUMNS)}
    for row in (first, first + 1, last):
        for header, formula in results_formulas(row, letters).items():
            cell = f'<c r="{letters[header]}{row}" s="7"><f>{escape(formula[1:])}</f></c>'
            assert cell in results, (header, row)
    assert f'<c r="F{first}" s="6" t="inlineStr">' in results  # the Result column's text style
    assert f'<c r="A{first}" s="4">' in results  # the date style, centred
    assert f'<dimension ref="A1:N{last}" />' in results
    members = _members(data)
    # The table ends at Away score; the points spill beside it (one formula a column).
    assert f'ref="A1:L{last}"' in members["xl/tables/table2.xml"].decode()
    assert f'<autoFilter ref="A1:L{last}" />' in members["xl/tables/table2.xml"].decode()
    assert '<autoFilter ref="A1:AF178" />' in members["xl/tables/table1.xml"].decode()
    assert 'sqref="F2:F20000"' in results  # fixed-length validation left alone
    # Each points column's one formula covers the new rows too, in its array form (what Excel
    # 2019 and older and LibreOffice compute): it ran over the example's rows 2 to 301.
    for letter in "MN":
        assert re.search(rf'<c r="{letter}2"[^>]*><f t="array" ref="{letter}2:{letter}{last}">',
                         results), letter  # fmt: skip
    assert 'ref="M2:M301"' not in results


def test_madrid_every_other_member_is_kept(madrid_book: tuple[Path, Path, list[str]]) -> None:
    before, after, _ = madrid_book
    old_data, new_data = before.read_bytes(), after.read_bytes()
    old, new = _members(old_data), _members(new_data)
    parts = sheet_parts(old_data)
    changed = {parts[s] for s in ("Players", "Results", *layout.OUTPUT_SHEETS)}
    changed |= {"xl/tables/table1.xml", "xl/tables/table2.xml", "[Content_Types].xml"}
    changed |= {"xl/workbook.xml", "xl/_rels/workbook.xml.rels"}
    for name, content in old.items():
        if name not in changed:
            assert new[name] == content, name
    assert {"xl/vbaProject.bin", "customUI/customUI.xml", "customUI/customUI14.xml"} - changed
    with zipfile.ZipFile(before) as a, zipfile.ZipFile(after) as b:
        raw = {i.filename: (i.CRC, i.compress_size) for i in a.infolist()}
        vba = b.getinfo("xl/vbaProject.bin")
        assert raw["xl/vbaProject.bin"] == (vba.CRC, vba.compress_size)
    added = set(new) - set(old)
    assert added == {sheet_parts(new_data)["Import notes"]}
    workbook = new["xl/workbook.xml"].decode()
    assert (
        re.sub(r'<sheet name="Import notes"[^>]*/>', "", workbook)
        == old["xl/workbook.xml"].decode()
    )


def test_madrid_outputs_grade_or_except_every_game(
    madrid_book: tuple[Path, Path, list[str]],
) -> None:
    _, after, _ = madrid_book
    _, with_opponent = _trf_reference()
    rows = range(302, 302 + with_opponent // 2)
    sheets = read_sheets(after, [*layout.INPUT_SHEETS, "Exceptions", "Import notes"])
    excepted = [r for r in sheets["Exceptions"][1:] if r[0] == "Results" and r[1] in rows]
    # The example season is 2025-26: every 2018 game is excepted, each with its reason.
    assert len({r[1] for r in excepted}) == len(rows)
    assert all(r[2] == "date outside season" and "2018-" in str(r[3]) for r in excepted)
    summary = sheets["Exceptions"][-1]
    assert summary[2] == "summary"
    result = grade_inputs(read_inputs(sheets))
    assert result.accounting.balanced
    assert result.accounting.rows == 300 + len(rows)
    assert summary[3] == result.accounting.summary()
    notes = sheets["Import notes"]
    assert notes[0] == ["File", "Line", "What", "Why"]
    assert len(notes) - 1 == 137 * ROUNDS - with_opponent  # every entry that is not a game
    assert {r[2] for r in notes[1:]} == {"bye", "absent"}
    assert notes[1][0] == "san_viator_2018.trf"


def test_madrid_summary_text(madrid_book: tuple[Path, Path, list[str]]) -> None:
    _, after, printed = madrid_book
    result = grade_inputs(read_inputs(read_sheets(after, layout.INPUT_SHEETS)))
    accounting = result.accounting
    # The example's 300 rows and the 411 games; its two Players lines (one name twice).
    assert accounting.rows == 300 + 411
    assert len(result.problems) == accounting.excepted + 2
    assert printed == [
        "san_viator_2018.trf (TRF): 959 round entries = 2 x 411 games + 137 not graded",
        f"{after}: 137 players added, 0 already there; 411 games added on Results rows 302 to 712",
        "137 entries not games, listed on the Import notes sheet: bye 107, absent 30",
        f"Recalculated: 177 players, {accounting.summary()}",
        f"{len(result.problems)} exceptions: {accounting.excepted} for the result rows not "
        "graded, 2 on Players",
        "Imported games: 0 graded, 411 on Exceptions (date outside season 411)",
        "check: the games are dated 2018-04-08 to 2018-05-27, the season on Settings runs "
        "2025-06-01 to 2026-05-31",
        "note: none of the 137 players added has a grade or an estimate; type them on Players "
        "(--grades-from-fide turns FIDE ratings into estimates), or their games cannot be "
        "graded",
        # The book's own likely duplicates (two 'Harrison, Andrew') are not this import's.
        f"Wrote {after}",
    ]


def test_madrid_graded_in_a_2018_season(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = tmp_path / "madrid.xlsm"
    season = Settings(
        season_start=dt.date(2018, 1, 1), season_end=dt.date(2018, 12, 31), list_star=True
    )
    book.write_bytes(build_workbook(settings=season))
    assert main(["import", str(_madrid()), "--into", str(book), "--grades-from-fide"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert (
        out[1]
        == f"{book}: 137 players added, 0 already there; 411 games added on Results rows 2 to 412"
    )
    # 182 + 141 + 73 played games and 8 + 7 forfeits, counted from the file's result codes.
    assert out[5] == "Imported games: 396 graded, 15 on Exceptions (default 15)"
    # FIDE ratings (columns 49-52 of the 001 lines) below 1250 get no estimate: the ECF's
    # formula, (Elo - 1250) / 5, would put them below 0.
    lines = _madrid().read_text(encoding="ascii").splitlines()
    rated = {
        line[14:47].strip(): int(line[48:52])
        for line in lines
        if line.startswith("001") and line[48:52].strip() not in ("", "0")
    }
    low = [(name, rating) for name, rating in rated.items() if rating < 1250]
    assert len(low) == 13
    assert out[6] == (
        "note: 13 rated players have no estimated grade: the ECF's formula puts their FIDE "
        "rating off the ECF scale (0 to 400; below FIDE 1250 it gives less than 0): "
        + ", ".join(f"{name!r} ({rating})" for name, rating in low)
    )
    sheets = read_sheets(book, [*layout.INPUT_SHEETS, "Grading List", "Exceptions"])
    estimates = {r["Name"]: r["Estimated grade"] for r in rows_by_header(sheets["Players"])}
    for name, rating in rated.items():
        assert estimates[name] == (None if rating < 1250 else (rating - 1250) / 5), name
    assert not [r for r in sheets["Exceptions"][1:] if r[0] == "Players"]
    result = grade_inputs(read_inputs(sheets))
    assert result.accounting.balanced
    assert result.accounting.standard_graded > 300
    listed = {row[1] for row in sheets["Grading List"][1:]}
    assert "Sarabia Utrilla, Joaquin" in listed
    defaults = [r for r in sheets["Exceptions"][1:] if r[2] == "default"]
    assert len(defaults) == 15  # 8 + 7 forfeits, counted from the file's codes
    assert all("by default" in str(r[3]) for r in defaults)


def test_importing_twice_matches_every_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = _copy(tmp_path)
    assert main(["import", str(_madrid()), "--into", str(book)]) == 0
    players = len(read_sheets(book, ["Players"])["Players"])
    capsys.readouterr()
    assert main(["import", str(_madrid()), "--into", str(book), "--again"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == (
        f"{book}: 0 players added, 137 already there; 411 games added on Results rows 713 to 1123"
    )
    assert (
        "note: 411 of the 411 games imported were already there (the same players and date, "
        "or event and round); added again as --again asks"
    ) in out
    assert len(read_sheets(book, ["Players"])["Players"]) == players
    notes = read_sheets(book, ["Import notes"])["Import notes"]
    assert len(notes) == 1 + 2 * 137
    assert notes[1] == notes[138]
    assert notes[1][1] == 14


def test_out_leaves_the_book_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = _copy(tmp_path)
    out = tmp_path / "out.xlsm"
    assert main(["import", str(_madrid()), "--into", str(book), "--out", str(out)]) == 0
    assert book.read_bytes() == EXAMPLE.read_bytes()
    assert capsys.readouterr().out.splitlines()[-1] == f"Wrote {out}"
    assert len(read_sheets(out, ["Results"])["Results"]) == 712


def test_out_is_refused_for_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "league"
    argv = ["import", str(_madrid()), "--into", str(folder), "--out", str(tmp_path / "x.xlsm")]
    assert main(argv) == 1
    assert capsys.readouterr().err == (
        f"Error: --out is for a workbook TARGET (.xlsm, .xlsx), not {folder}\n"
    )
    assert not folder.exists()


def test_a_corrupt_book_is_refused_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "league.xlsm"
    book.write_bytes(b"Name,Grade\nSmith,142\n")
    assert main(["import", str(_madrid()), "--into", str(book)]) == 1
    assert capsys.readouterr().err == (
        f"Error: {book}: not a workbook: no zip end-of-directory record\n"
    )
    assert book.read_bytes() == b"Name,Grade\nSmith,142\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["league.xlsm"]


def test_a_book_that_cannot_be_read_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = EXAMPLE.read_bytes()
    broken = _patched(data, {_part(data, "Players"): "<worksheet><sheetData><row"})
    book = tmp_path / "league.xlsm"
    book.write_bytes(broken)
    assert main(["import", str(_madrid()), "--into", str(book)]) == 1
    assert capsys.readouterr().err.startswith(f"Error: {book}: the book cannot be read: ")
    assert book.read_bytes() == broken
    with pytest.raises(FormatError, match=r"^the book cannot be read: "):
        input_rows_package(broken, {"Players": InputRows()})
    lacking = _patched(data, {"_rels/.rels": None})
    with pytest.raises(FormatError, match=r"package has no part '_rels/\.rels'"):
        book_sheets(lacking)


def test_a_missing_book_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", str(_madrid()), "--into", str(tmp_path / "none.xlsx")]) == 1
    assert capsys.readouterr().err.startswith("Error: No such file or directory: ")


def test_failure_after_the_rows_leaves_the_book(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = _copy(tmp_path)

    def fail(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("xlgrade.workbook.package.os.fsync", fail)
    assert main(["import", str(_madrid()), "--into", str(book)]) == 1
    assert book.read_bytes() == EXAMPLE.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["league.xlsm"]


def test_csv_players_into_a_book(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = _copy(tmp_path, TEMPLATE)
    players = tmp_path / "players.csv"
    players.write_text(
        "name,code,club,grade,date of birth\nSmith J,,Anytown,142,2001-02-03\n=Jones,,Beeton,,\n",
        encoding="utf-8",
    )
    assert main(["import", str(players), "--into", str(book)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == f"{book}: 2 players added, 0 already there; no games added"
    assert not any(line.startswith("Imported games") for line in out)
    sheets = read_sheets(book, ["Players", "Import notes"])
    assert "Import notes" not in sheets
    rows = sheets["Players"]
    assert rows[1][:6] == [None, "Smith J", "Anytown", dt.date(2001, 2, 3), None, 142]
    assert rows[2][1] == "=Jones"  # text, never a formula
    data = book.read_bytes()
    assert 'ref="A1:AF3"' in _text(data, "xl/tables/table1.xml")


@pytest.mark.parametrize(
    ("board", "quoted"),
    [
        ("9" * 300, "'" + "9" * 58 + "…' (300 characters)"),  # a float, 1e300: no board
        ("9" * 400, "'" + "9" * 58 + "…' (400 characters)"),  # past the largest float
        ("1.5", "'1.5'"),
        ("1000", "'1000'"),
    ],
    ids=["300-digits", "400-digits", "a-half", "past-999"],
)
def test_a_csv_board_no_match_has_is_refused_naming_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], board: str, quoted: str
) -> None:
    book = _copy(tmp_path, TEMPLATE)
    before = book.read_bytes()
    results = tmp_path / "big.csv"
    results.write_text(
        "Date,Division,Match,Board,Home player,Result,Away player\n"
        f"2025-10-01,Division 1,A v B,{board},Smith J,1-0,Jones A\n",
        encoding="utf-8",
    )
    assert main(["import", str(results), "--into", str(book)]) == 1
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error == (
        f"Error: big.csv: line 2: cell D2 (Board): {quoted} is not a board number: a board is "
        "a whole number from 1 to 999"
    )
    assert book.read_bytes() == before


# The writer on its own ------------------------------------------------------------------------


def _template() -> bytes:
    return TEMPLATE.read_bytes()


def _sheet_text(data: bytes, sheet: str) -> str:
    return _text(data, _part(data, sheet))


def _with_sheet(data: bytes, sheet: str, old: str, new: str) -> bytes:
    text = _sheet_text(data, sheet)
    assert old in text
    return _patched(data, {_part(data, sheet): text.replace(old, new, 1)})


def test_append_over_a_spare_row_keeps_the_graders_formula() -> None:
    data = _with_sheet(
        _template(),
        "Players",
        '<c r="AF1" t="inlineStr"><is><t>League registered</t></is></c></row>'
        '<row r="2"><c r="D2" s="4" t="n" /></row>',
        '<c r="AF1" t="inlineStr"><is><t>League registered</t></is></c>'
        '<c r="AG1" t="inlineStr"><is><t>Notes</t></is></c>'
        '<c r="AH1" t="inlineStr"><is><t>Name</t></is></c></row>'
        '<row r="2"><c r="D2" s="4" t="n" /><c r="AG2"><f>B2&amp;"!"</f></c></row>'
        '<row r="9"><c r="B9" s="4"/></row>',
    )
    package, first = input_rows_package(
        data, {"Players": InputRows([{"Name": "Smith, John", "junior": "yes"}, {"name": "Brown"}])}
    )
    assert first == {"Players": 2}
    text = _sheet_text(package, "Players")
    assert '<c r="AG2"><f>B2&amp;"!"</f></c>' in text
    assert '<row r="3"><c r="B3" t="inlineStr">' in text
    assert '<c r="E2" t="inlineStr"><is><t>yes</t>' in text
    assert '<c r="D3" s="4"/>' in text  # the column's date style on a blank cell
    assert '<row r="9"><c r="B9" s="4"/></row>' in text  # blank, below the table: kept
    assert '<dimension ref="A1:AH9" />' in text
    assert 'ref="A1:AF3"' in _text(package, "xl/tables/table1.xml")


def test_replace_every_row_and_ranges_in_step() -> None:
    data = _template()
    results = _part(data, "Results")
    text = _sheet_text(data, "Results").replace(
        "</sheetData>",
        '</sheetData><conditionalFormatting sqref="A2:N2 P9"><cfRule type="expression" '
        'priority="1"><formula>TRUE</formula></cfRule></conditionalFormatting>'
        '<dataValidations count="1"><dataValidation sqref="E2:E2" type="list">'
        "<formula1>PlayerNames</formula1></dataValidation></dataValidations>",
    )
    table = _text(data, "xl/tables/table2.xml").replace(
        '<autoFilter ref="A1:L2" />',
        '<autoFilter ref="A1:L2"><sortState ref="A2:L2"><sortCondition ref="A2:A2"/>'
        "</sortState></autoFilter>",
    )
    data = _patched(data, {results: text, "xl/tables/table2.xml": table})
    games = [
        {
            "Home player": f"P{n}",
            "Result": "1-0",
            "Away player": f"Q{n}",
            "Date": dt.date(2025, 9, n),
        }
        for n in range(1, 4)
    ]
    package, _ = input_rows_package(data, {"Results": InputRows(games)})
    again, first = input_rows_package(package, {"Results": InputRows(games[:1], keep=0)})
    assert first == {"Results": 2}
    grown = _sheet_text(package, "Results")
    assert 'sqref="A2:N4 P9"' in grown
    assert 'sqref="E2:E4"' in grown
    assert '<sortState ref="A2:L4">' in _text(package, "xl/tables/table2.xml")
    assert 'ref="A1:L4"' in _text(package, "xl/tables/table2.xml")
    rows = read_sheets(again, ["Results"])["Results"]
    assert [row[4] for row in rows] == ["Home player", "P1"]
    shrunk = _sheet_text(again, "Results")
    assert 'sqref="A2:N2 P9"' in shrunk
    assert 'ref="A1:L2"' in _text(again, "xl/tables/table2.xml")


def test_calc_chain_is_dropped() -> None:
    data = _template()
    types = _text(data, "[Content_Types].xml").replace(
        "</Types>",
        '<Override PartName="/xl/calcChain.xml" ContentType="application/vnd.openxmlformats-'
        'officedocument.spreadsheetml.calcChain+xml"/></Types>',
    )
    rels = _text(data, "xl/_rels/workbook.xml.rels").replace(
        "</Relationships>",
        '<Relationship Id="rIdC" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/calcChain" Target="calcChain.xml"/></Relationships>',
    )
    chain = '<calcChain xmlns="x"><c r="I2" i="4"/></calcChain>'
    data = _patched(
        data,
        {
            "[Content_Types].xml": types,
            "xl/_rels/workbook.xml.rels": rels,
            "xl/calcChain.xml": chain,
        },
    )
    package, _ = input_rows_package(data, {"Results": InputRows([])})
    members = _members(package)
    assert "xl/calcChain.xml" not in members
    assert b"calcChain" not in members["[Content_Types].xml"]
    assert b"calcChain" not in members["xl/_rels/workbook.xml.rels"]


def test_write_input_rows_to_out(tmp_path: Path) -> None:
    book = _copy(tmp_path, TEMPLATE)
    out = tmp_path / "out.xlsm"
    write_input_rows(book, {"Players": InputRows([{"Name": "Smith, John"}])}, out)
    assert book.read_bytes() == TEMPLATE.read_bytes()
    assert read_sheets(out, ["Players"])["Players"][1][1] == "Smith, John"
    write_input_rows(book, {"Players": InputRows([{"Name": "Brown, Alan"}])})
    assert read_sheets(book, ["Players"])["Players"][1][1] == "Brown, Alan"


@pytest.mark.parametrize("rels", ["left out", "no table"])
def test_a_sheet_without_a_table(rels: str) -> None:
    data = _template()
    players = _part(data, "Players")
    rels_part = players.replace("worksheets/", "worksheets/_rels/") + ".rels"
    text = re.sub(r"<tableParts.*?</tableParts>", "", _sheet_text(data, "Players"))
    # Rows and cells may leave out their r attribute: they follow the one before.
    text = text.replace(
        '<row r="2"><c r="D2" s="4" t="n" /></row>',
        '<row><c t="inlineStr"><is><t>X1</t></is></c><c t="inlineStr"><is><t>Old</t></is></c>'
        "</row>",
    )
    other = _text(data, rels_part).replace("relationships/table", "relationships/drawing")
    data = _patched(data, {players: text, rels_part: None if rels == "left out" else other})
    package, first = input_rows_package(data, {"Players": InputRows([{"Name": "A"}])})
    assert first == {"Players": 3}
    again, first = input_rows_package(package, {"Players": InputRows([{"Name": "B"}])})
    assert first == {"Players": 4}
    assert [r[1] for r in read_sheets(again, ["Players"])["Players"]] == ["Name", "Old", "A", "B"]


def test_a_live_column_missing_leaves_out_the_formulas_reading_it() -> None:
    data = _with_sheet(_template(), "Results", "<t>Home grade</t>", "<t>Seed</t>")
    game = {"Home player": "A", "Result": "1-0", "Away player": "B"}
    package, _ = input_rows_package(data, {"Results": InputRows([game, game])})
    text = _sheet_text(package, "Results")
    assert '<c r="J2" s="7"><f>IFERROR(IF(ISNUMBER(INDEX(PlayerGrades,IFERROR(MATCH(G2,' in text
    assert '<c r="I3"' not in text  # a column of the grader's now
    assert '<c r="J3" s="7"><f>' in text
    assert (
        '<c r="K3" s="7"><f>IFERROR(INDEX(ResultHome,MATCH(F3,ResultCodes,0)),"")</f></c>' in text
    )
    # The points are one formula a column, in row 2: the import writes none of them.
    assert '<c r="M3"' not in text
    assert '<c r="N3"' not in text


def test_players_matched_by_code_and_initials(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = _copy(tmp_path)
    players = tmp_path / "players.csv"
    players.write_text(
        "name,code,club\n"
        "Jarvis R,470892B,Whinmoor Chess Club\n"
        "Howarth A,,\n"
        '"Newman, Kim",123456Z,Anytown\n',
        encoding="utf-8",
    )
    assert main(["import", str(players), "--into", str(book)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == f"{book}: 1 players added, 2 already there; no games added"
    assert "check: 'Howarth A' taken to be 'Howarth, Anna C' (initials)" in out
    assert (
        "check: 'Newman, Kim': ECF code '123456Z' is not valid (check letter); matched by name"
    ) in out


def _refusal(data: bytes, changes: dict[str, InputRows]) -> str:
    with pytest.raises(FormatError) as error:
        input_rows_package(data, changes)
    return str(error.value)


def test_refusals_name_the_cell() -> None:
    example = EXAMPLE.read_bytes()
    with_note = _with_sheet(
        example,
        "Players",
        '</row><row r="6">',
        '<c r="AG5" t="inlineStr"><is><t>moved away</t></is></c></row><row r="6">',
    )
    with_note = _with_sheet(
        with_note,
        "Players",
        '<c r="AF1" t="inlineStr"><is><t>League registered</t></is></c>',
        '<c r="AF1" t="inlineStr"><is><t>League registered</t></is></c>'
        '<c r="AG1" t="inlineStr"><is><t>Notes</t></is></c>',
    )
    assert _refusal(with_note, {"Players": InputRows([], keep=0)}) == (
        "Players cell AG5 ('moved away') is in a column of your own on a row that would be "
        "replaced; rows can only be replaced where your columns are blank"
    )
    below = _with_sheet(
        example,
        "Players",
        "</sheetData>",
        '<row r="45"><c r="B45" t="inlineStr"><is><t>Total</t></is></c></row></sheetData>',
    )
    assert _refusal(below, {"Players": InputRows([{"Name": "X"}])}) == (
        "Players cell B45 ('Total') is below the sheet's table, which ends on row 41; the new "
        "rows would go there: move it and import again"
    )
    no_name = _with_sheet(example, "Players", "<t>Name</t>", "<t>Nom</t>")
    assert _refusal(no_name, {"Players": InputRows([])}) == (
        "the Players sheet has no column headed 'Name' in row 1"
    )
    assert _refusal(example, {"Players": InputRows([{"Name": "X", "Rating": 1500}])}) == (
        "the Players sheet has no column headed 'Rating' for the value 1500 of new row 1; add "
        "the column and import again"
    )
    renamed = _patched(
        example,
        {"xl/workbook.xml": _text(example, "xl/workbook.xml").replace('"Results"', '"Uitslagen"')},
    )
    assert _refusal(renamed, {"Results": InputRows([])}) == (
        "the book has no sheet named 'Results'"
    )
    with pytest.raises(ValueError, match="only the Players and Results sheets take rows"):
        input_rows_package(example, {"Settings": InputRows([])})


def test_refusals_of_tables_and_shared_formulas() -> None:
    data = _template()
    rels = "xl/worksheets/_rels/sheet3.xml.rels"
    two = _text(data, rels).replace(
        "</Relationships>",
        '<Relationship Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/table" Target="/xl/tables/table2.xml" Id="rId2" /></Relationships>',
    )
    assert _refusal(_patched(data, {rels: two}), {"Players": InputRows([])}) == (
        "the Players sheet has 2 Excel tables; rows can be added to a sheet with one table only"
    )
    totals = _text(data, "xl/tables/table1.xml").replace(
        'headerRowCount="1"', 'headerRowCount="1" totalsRowCount="1"'
    )
    assert _refusal(
        _patched(data, {"xl/tables/table1.xml": totals}), {"Players": InputRows([])}
    ) == (
        "the Players sheet's table 'PlayersTable' has a totals row; turn it off "
        "(Table Design ▸ Total Row) before adding rows"
    )
    no_ref = re.sub(r' ref="[^"]*"', "", _text(data, "xl/tables/table1.xml"), count=1)
    assert _refusal(
        _patched(data, {"xl/tables/table1.xml": no_ref}), {"Players": InputRows([])}
    ) == ("the Players sheet's table xl/tables/table1.xml has no range (ref) to read")
    shared = _with_sheet(
        data,
        "Results",
        '<c r="K2" s="7"><f>',
        '<c r="K2" s="5"><f t="shared" ref="K2:K3" si="0">',
    )
    game = {"Home player": "A", "Result": "1-0", "Away player": "B"}
    assert _refusal(shared, {"Results": InputRows([game])}) == (
        "Results cell K2 starts a shared formula on a row that would be replaced; clear the "
        "row's formulas and import again"
    )


def test_import_into_a_linked_book_updates_the_book_and_keeps_its_permissions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "league.xlsm"
    shutil.copyfile(EXAMPLE, book)
    book.chmod(0o640)
    link = tmp_path / "link.xlsm"
    link.symlink_to(book.name)
    before = book.read_bytes()
    assert main(["import", str(MADRID), "--into", str(link)]) == 0
    assert link.is_symlink()
    assert book.read_bytes() != before
    assert book.stat().st_mode & 0o777 == 0o640
    assert capsys.readouterr().out.splitlines()[-1] == f"Wrote {link}"


def test_import_into_a_read_only_book_is_refused_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "league.xlsm"
    shutil.copyfile(EXAMPLE, book)
    book.chmod(0o444)
    before = book.read_bytes()
    assert main(["import", str(MADRID), "--into", str(book)]) == 1
    assert capsys.readouterr().err == (
        f"Error: the file is read-only, so it was not replaced: {book}\n"
    )
    assert book.read_bytes() == before
    assert list(tmp_path.iterdir()) == [book]


def test_importing_a_file_twice_is_refused_unless_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "league.xlsm"
    shutil.copy(EXAMPLE, book)
    assert main(["import", str(MADRID), "--into", str(book)]) == 0
    assert not any("already there (" in line for line in capsys.readouterr().out.splitlines())
    once = book.read_bytes()
    assert main(["import", str(MADRID), "--into", str(book)]) == 1
    assert capsys.readouterr().err == (
        f"Error: {book}: 411 of the 411 games to import have the same players and date (or "
        "event and round) as a game already there: was this file imported before? Nothing was "
        "added; --again adds the games all the same\n"
    )
    assert book.read_bytes() == once
    assert sorted(p.name for p in tmp_path.iterdir()) == ["league.xlsm"]
