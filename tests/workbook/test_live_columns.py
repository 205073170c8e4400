"""The Results sheet's live points: one SEASON_POINTS formula a column, whatever the number of
rows, written as a dynamic array (Excel 365/2021 spill it and grow it with the table) that is
an array formula over the table's rows elsewhere; every row's answer is the season's (the
points on the player's card, or the reason on the Exceptions sheet), in both routes; opened
without the add-in it says so."""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
import xlgrade_udfs

from tests.league import GAMES, PLAYERS, SETTINGS
from tests.live_points import agreement, live_columns
from tests.paths import ROOT, TRF
from xlgrade.cli import main
from xlgrade.formats.csvfile import write_players_csv, write_results_csv
from xlgrade.generate import FAULT_KINDS, generate_league
from xlgrade.model import Game, Player
from xlgrade.workbook import build, formulas, layout, lite
from xlgrade.workbook.build import build_workbook, members_of, repack
from xlgrade.workbook.excel_calls import classic_call, officejs_call
from xlgrade.workbook.package import read_sheets
from xlgrade.workbook.relationships import sheet_parts

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
WE = "{http://schemas.microsoft.com/office/webextensions/webextension/2010/11}"


def _calls(package: bytes) -> dict[str, list[tuple[str, str, str]]]:
    """Every cell formula calling GRADE_POINTS or SEASON_POINTS, by sheet: (cell, attributes
    of <f>, text)."""
    parts = members_of(package)
    found: dict[str, list[tuple[str, str, str]]] = {}
    for sheet, part in sheet_parts(package).items():
        text = parts[part].decode()
        for cell, attributes, formula in re.findall(
            r'<c r="([A-Z]+\d+)"[^>]*><f([^>]*)>([^<]*(?:GRADE|SEASON)_POINTS[^<]*)</f>', text
        ):
            found.setdefault(sheet, []).append((cell, attributes, formula))
    return found


@pytest.mark.parametrize("route", ["classic", "lite"])
def test_calls_do_not_grow_with_the_rows(route: str) -> None:
    league = generate_league()
    make = build_workbook if route == "classic" else lite.build_lite_workbook
    empty, full = _calls(make()), _calls(make(league.players, league.games, league.settings))
    for calls in (empty, full):
        assert [cell for cell, _, _ in calls["Results"]] == ["M2", "N2"]
        assert [cell for cell, _, _ in calls["Lists"]] == ["E2"]  # the probe
    rows = len(league.games)
    for (_, attributes, _), letter in zip(full["Results"], "MN", strict=True):
        assert f'ref="{letter}2:{letter}{rows + 1}"' in attributes  # the table's data rows
        assert 't="array"' in attributes


def test_each_column_reads_the_whole_tables_and_the_settings() -> None:
    for header, side in (("Home points", "home"), ("Away points", "away")):
        formula = build.points_formula(header, "lite")
        assert formula.count("SEASON_POINTS(") == 1
        assert (
            "SEASON_POINTS(ResultsTable[[#All]],PlayersTable[[#All]],Settings!$A$1:$B$"
            f'{len(layout.SETTING_ROWS) + 1},"{side}")'
        ) in formula


def test_the_settings_range_holds_every_setting_of_the_sheet() -> None:
    settings = read_sheets(build_workbook(), ["Settings"])["Settings"]
    last = int(formulas.SETTINGS_CELLS.rsplit("$", 1)[1])
    assert settings[0][:2] == ["Setting", "Value"]
    assert len(settings) == last  # the header and a row for each setting, none left out


def test_the_formulas_are_dynamic_arrays() -> None:
    package = lite.build_lite_workbook()
    parts = members_of(package)
    results = parts[sheet_parts(package)["Results"]].decode()
    for cell in ("M2", "N2"):
        assert re.search(rf'<c r="{cell}"[^>]* cm="1"><f t="array"', results)
    metadata = ET.fromstring(parts["xl/metadata.xml"])
    (kind,) = metadata.iter(f"{MAIN}metadataType")
    assert kind.attrib["name"] == "XLDAPR"
    dynamic = next(e for e in metadata.iter() if e.tag.endswith("dynamicArrayProperties"))
    assert dynamic.attrib["fDynamic"] == "1"
    (record,) = metadata.iter(f"{MAIN}rc")
    assert record.attrib == {"t": "1", "v": "0"}  # cm="1": the first metadata type's first
    rels = parts["xl/_rels/workbook.xml.rels"].decode()
    assert 'relationships/sheetMetadata" Target="metadata.xml"' in rels
    assert 'PartName="/xl/metadata.xml"' in parts["[Content_Types].xml"].decode()


def test_lite_books_store_the_calls_as_excel_stores_an_add_ins_functions() -> None:
    # Excel saves a call of an Office.js add-in's function as _xldudf_ + namespace + name
    # (xlwings Lite's have no namespace) and lists the names in the web-extension part.
    for route, make in (("lite", lite.build_lite_workbook), ("classic", build_workbook)):
        package = make()
        calls = [text for found in _calls(package).values() for _, _, text in found]
        assert len(calls) == 3
        for text in calls:
            name = "SEASON_POINTS(" if "SEASON_POINTS(" in text else "GRADE_POINTS("
            stored = f"_xldudf_{name}" if route == "lite" else name
            assert text.count(name) == text.count(stored) == 1
    for header in formulas.POINTS_HEADERS:
        typed = formulas.points_formula(header, "lite", stored=False)
        assert formulas.points_formula(header, "lite") == typed.replace(
            "SEASON_POINTS(", "_xldudf_SEASON_POINTS("
        )
        assert formulas.points_formula(header, "classic") == typed
    part = members_of(lite.build_lite_workbook())["xl/webextensions/webextension1.xml"]
    extension = ET.fromstring(part)
    contains = next(e for e in extension.iter() if e.tag == f"{WE}containsCustomFunctions")
    assert contains.attrib == {"val": "1"}
    ids = [e.text for e in extension.iter() if e.tag == f"{WE}customFunctionIds"]
    # Every function of the add-in, used or not, as the Excel-saved xlwings book lists them.
    assert ids == [f"_xldudf_{name}" for name in xlgrade_udfs.FUNCTIONS]
    assert "_xldudf_GRADE_POINTS" in ids
    assert "_xldudf_SEASON_POINTS" in ids


def test_only_the_first_row_says_why_there_are_no_points() -> None:
    for route in ("classic", "lite"):
        formula = build.points_formula("Home points", route)  # type: ignore[arg-type]
        assert formula.startswith(f'=IF({build.FUNCTIONS_MISSING}<>"",IF(ROW(')
        assert "IFERROR" not in formula  # a row's own error shows as it is
        assert "ISERROR" not in formula


@pytest.fixture(scope="module")
def messages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, list[list[object]]]]:
    """The small league's books as LibreOffice computes them where GRADE_POINTS is unknown,
    as built and with the Lists sheet's probe or system test changed to stand for the other
    cases: Excel (INFO("system") "pcdos"), xlgrade there but not answering (the probe #N/A)."""
    from xlgrade.workbook.libreoffice import find_soffice, make_profile, run_soffice
    from xlgrade.workbook.package import read_sheets

    soffice = find_soffice()
    if soffice is None:
        pytest.skip("LibreOffice is not installed")
    folder = tmp_path_factory.mktemp("messages")
    url = make_profile(soffice, folder / "profile", folder / "profile.log")
    module = folder / "profile" / "user" / "basic" / "Standard" / "Module1.xba"
    module.write_text(module.read_text().replace("GRADE_POINTS", "SOMETHING_ELSE"))
    books = []
    for route, make in (("lite", lite.build_lite_workbook), ("classic", build_workbook)):
        package = make(PLAYERS, GAMES, SETTINGS)
        for case, old, new in (
            ("office", "", ""),
            ("excel", 'INFO("system")', '"pcdos"'),
            ("silent", formulas.probe_formula(route)[1:], "NA()"),  # type: ignore[arg-type]
        ):
            members = members_of(package)
            part = sheet_parts(package)["Lists"]
            text = members[part].decode()
            for before, after in ((old, new), (escape(old), escape(new))):
                text = text.replace(before, after) if before else text
            members[part] = text.encode()
            path = folder / f"{route}-{case}.xlsx"
            path.write_bytes(repack(members))
            books.append(path)
    out = folder / "out"
    arguments = [f"-env:UserInstallation={url}", "--headless", "--convert-to", "xlsx",
                 "--outdir", str(out), *map(str, books)]  # fmt: skip
    run_soffice(soffice, arguments, folder / "soffice.log", done=out / books[-1].name)
    return {path.stem: read_sheets(out / path.name, ["Results", "Lists"]) for path in books}


@pytest.mark.parametrize("route", ["lite", "classic"])
@pytest.mark.parametrize("case", ["office", "excel", "silent"])
def test_the_points_say_what_is_missing_in_terms_of_what_the_grader_has(
    route: str, case: str, messages: dict[str, dict[str, list[list[object]]]]
) -> None:
    want = {
        "office": formulas.OFFICE_TEXT,
        "excel": formulas.MISSING_TEXT[route],  # type: ignore[index]
        "silent": formulas.NOT_ANSWERING_TEXT[route],  # type: ignore[index]
    }[case]
    sheets = messages[f"{route}-{case}"]
    results = sheets["Results"]
    home, away = (results[0].index(h) for h in formulas.POINTS_HEADERS)
    assert (results[1][home], results[1][away]) == (want, want)
    assert {row[c] for row in results[2 : len(GAMES) + 1] for c in (home, away)} == {None}
    grade = results[0].index("Home grade")
    assert [row[grade] for row in results[1:4]] == [142, 120, 155]  # the rest computes
    assert sheets["Lists"][1][5] == want


def test_the_messages_name_what_the_grader_can_do() -> None:
    assert "xlgrade recalc" in formulas.OFFICE_TEXT
    assert "Excel" in formulas.OFFICE_TEXT
    assert "pane's output" in formulas.MISSING_TEXT["lite"]
    assert "Recalculate season" in formulas.MISSING_TEXT["lite"]
    assert "pane's output" in formulas.NOT_ANSWERING_TEXT["lite"]
    for text in (formulas.OFFICE_TEXT, *formulas.MISSING_TEXT.values(),
                 *formulas.NOT_ANSWERING_TEXT.values()):  # fmt: skip
        assert '"' not in text
        assert len(text) < 255  # a formula's text constant


BOOKS = sorted([*ROOT.glob("workbook/*.xlsx"), *ROOT.glob("workbook/*.xlsm")])


def _agree(path: Path, route: str) -> None:
    found = agreement(path, route)
    assert sorted(found) == sorted(formulas.POINTS_HEADERS)
    for header, (same, rows, differ) in found.items():
        assert differ == [], f"{path.name} {route} {header}"
        assert same == rows


@pytest.mark.parametrize("route", ["classic", "lite"])
@pytest.mark.parametrize("book", BOOKS, ids=[b.name for b in BOOKS])
def test_every_row_of_a_shipped_book_is_the_seasons(book: Path, route: str) -> None:
    # Called as Excel calls the stored formula, with the book's own cells: every Results row
    # equals the season's points on the player's card, or says the Exceptions line's reason.
    assert BOOKS
    _agree(book, route)


@pytest.fixture(scope="module")
def league_books(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A generated league with every kind of mistake (xlgrade.generate.FAULT_KINDS), as a
    classic and a Lite book, and the classic one with the horizon off."""
    league = generate_league()
    assert {fault.kind for fault in league.injected} == set(FAULT_KINDS)
    folder = tmp_path_factory.mktemp("league")
    made = {
        "classic": build_workbook(league.players, league.games, league.settings),
        "lite": lite.build_lite_workbook(league.players, league.games, league.settings),
        "no horizon": build_workbook(
            league.players, league.games, replace(league.settings, horizon=None)
        ),
    }
    paths = {name: folder / f"{name}.xlsx" for name in made}
    for name, package in made.items():
        paths[name].write_bytes(package)
    return paths


@pytest.mark.parametrize("route", ["classic", "lite"])
@pytest.mark.parametrize("book", ["classic", "lite", "no horizon"])
def test_every_row_of_a_league_with_every_mistake_is_the_seasons(
    league_books: dict[str, Path], book: str, route: str
) -> None:
    _agree(league_books[book], route)


def test_the_league_s_rows_not_graded_say_why() -> None:
    league = generate_league()
    package = build_workbook(league.players, league.games, league.settings)
    raw = read_sheets(package, ["Settings", "Players", "Results"])
    results = [row[:12] for row in raw["Results"]]
    settings_cells = [row[:2] for row in raw["Settings"]]
    answer = classic_call("SEASON_POINTS", results, raw["Players"], settings_cells, "home")
    shown = {row[0].split(": ", 1)[1] for row in answer if isinstance(row[0], str) and row[0]}
    # The season's reasons for the kinds injected (docs/rules.md §11b, the checks' names).
    assert {"unknown player", "self pairing", "default", "duplicate game"} <= shown
    assert all(isinstance(row[0], float) or row[0].startswith("not graded: ") for row in answer)


# A hand-made season: the Players table names players "Last, First"; the Results rows type
# them "First Last" and their results in the other forms the season reads.
_PLAYERS = [["Code", "Name", "Grade"], [None, "Smith, John", 150.0], [None, "Brown, Ann", 130.0]]
_SETTINGS = [["Setting", "Value"], ["Season start", "2025-06-01"], ["Season end", "2026-05-31"]]
_HEADER = ["Date", "Home player", "Result", "Away player"]


@pytest.mark.parametrize(
    ("result", "home", "away"),
    [
        # 1997 rules (docs/rules.md §2): the opponent's grade, 50 more for a win, 50 less for
        # a loss; 20 points apart is inside the 40-point horizon.
        ("1:0", 130 + 50, 150 - 50),
        ("1/2-1/2", 130, 150),
        ("=-=", 130, 150),
        ("0-1", 130 - 50, 150 + 50),
    ],
)
@pytest.mark.parametrize("route", ["classic", "lite"])
def test_names_in_another_form_and_results_as_the_season_reads_them(
    result: str, home: float, away: float, route: str
) -> None:
    call = classic_call if route == "classic" else officejs_call
    results = [_HEADER, [dt.date(2025, 10, 1), "John Smith", result, "Ann Brown"]]
    for side, want in (("home", home), ("away", away)):
        answer = call("SEASON_POINTS", results, _PLAYERS, _SETTINGS, side)
        assert answer == [[want]]


@pytest.mark.parametrize("route", ["classic", "lite"])
def test_a_row_not_graded_says_the_exceptions_reason_and_a_blank_row_is_blank(route: str) -> None:
    call = classic_call if route == "classic" else officejs_call
    results = [
        _HEADER,
        [dt.date(2025, 10, 1), "John Smith", "1-0 def", "Ann Brown"],
        [dt.date(2025, 10, 1), "Joan Smith", "1-0", "Ann Brown"],
        [None, None, None, None],
        [dt.date(2024, 10, 1), "John Smith", "1-0", "Ann Brown"],
    ]
    answer = call("SEASON_POINTS", results, _PLAYERS, _SETTINGS, "away")
    assert answer == [
        ["not graded: default"],
        ["not graded: unknown player"],
        [""],
        ["not graded: date outside season"],
    ]


def test_a_header_that_stops_the_season_is_the_answer() -> None:
    results = [["Date", "Home", "Result", "Away player"], [None, "John Smith", "1-0", "Ann Brown"]]
    answer = classic_call("SEASON_POINTS", results, _PLAYERS, _SETTINGS, "home")
    assert isinstance(answer, str)
    assert answer.startswith("#VALUE! Results: ")
    assert "'Home'" in answer


def test_the_side_is_home_or_away() -> None:
    results = [_HEADER, [dt.date(2025, 10, 1), "John Smith", "1-0", "Ann Brown"]]
    answer = classic_call("SEASON_POINTS", results, _PLAYERS, _SETTINGS, "white")
    assert answer == "#VALUE! side 'white' is not home or away"


# ---------------------------------------------------------------------------------------------
# Every step of a book's life keeps the live columns: the template, imports of each kind of
# file (the first into the template's blank row), a recalculation, the next season's book and
# an import into it, through the command line, the xlwings Lite buttons and the classic ribbon.


def _chain_files(folder: Path) -> dict[str, Path]:
    """A file of each kind a grader imports: a TRF (TRF-16, its byes and absences), an ECF
    results file (written by ``xlgrade export --ecf`` from another TRF), a players CSV and a
    results CSV of games between players of the first, and a TRF for next season."""
    league = folder / "madrid"
    assert main(["import", str(TRF / "san_viator_2018.trf"), "--into", str(league)]) == 0
    ecf = folder / "madrid.txt"
    details = [
        "--event-code", "MAD2018", "--event-name", "San Viator B", "--results-officer", "A",
        "--results-officer-address", "B", "--treasurer", "C", "--treasurer-address", "D",
        "--minutes-for-game", "90", "--seconds-per-move", "30",
    ]  # fmt: skip
    assert main(["export", str(league), "--ecf", str(ecf), *details]) == 0
    players = folder / "new-players.csv"
    players.write_text(
        write_players_csv([Player("Newman, Ann", grade=101.0), Player("Oldham, Bob")]),
        encoding="utf-8",
    )
    results = folder / "friendlies.csv"
    games = [
        Game("Ann Newman", "Bob Oldham", "1:0", dt.date(2020, 6, 20)),
        Game("Oldham, Bob", "Newman, Ann", "1/2-1/2", dt.date(2020, 6, 27)),
    ]
    results.write_text(write_results_csv(games), encoding="utf-8")
    return {
        "trf": TRF / "2020_06.trf",
        "ecf": ecf,
        "players": players,
        "results": results,
        "next": TRF / "example1.trf",
    }


def _assert_live(path: Path) -> None:
    """The book's two points formulas are there, at the first Results row, over every row of
    the Results table (and so every row holding a game), stored as Excel stores a spilling
    custom function of the book's route, and every row's answer is the season's."""
    data = path.read_bytes()
    parts = members_of(data)
    route: formulas.Route = (
        formulas.LITE if "xl/webextensions/webextension1.xml" in parts else formulas.CLASSIC
    )
    columns = live_columns(path)
    assert [c.header for c in columns] == list(formulas.POINTS_HEADERS), path.name
    results = read_sheets(data, [layout.RESULTS])[layout.RESULTS]
    player = results[0].index("Home player")
    filled = max(n for n, row in enumerate(results, start=1) if row[player] is not None)
    for column in columns:
        letter = column.cell.rstrip("0123456789")
        assert column.cell == f"{letter}2"
        assert column.ref == f"{letter}2:{letter}{column.rows + 1}", path.name
        assert column.rows + 1 >= filled  # every row holding a game
        assert 't="array"' in column.attributes
        assert 'cm="1"' in column.attributes
        assert column.formula == formulas.points_formula(column.header, route)[1:]
    metadata = parts["xl/metadata.xml"].decode()
    assert 'name="XLDAPR"' in metadata
    assert 'fDynamic="1"' in metadata
    assert 'Target="metadata.xml"' in parts["xl/_rels/workbook.xml.rels"].decode()
    assert 'PartName="/xl/metadata.xml"' in parts["[Content_Types].xml"].decode()
    if route == formulas.LITE:
        extension = parts["xl/webextensions/webextension1.xml"].decode()
        assert "<we:customFunctionIds>_xldudf_SEASON_POINTS<" in extension
    _agree(path, "classic")


@pytest.mark.parametrize("ending", [".xlsx", ".xlsm"])
def test_every_command_keeps_the_live_columns(ending: str, tmp_path: Path) -> None:
    files = _chain_files(tmp_path)
    book = tmp_path / f"league{ending}"
    assert main(["template", str(book)]) == 0
    _assert_live(book)
    for kind in ("trf", "ecf", "players", "results"):
        assert main(["import", str(files[kind]), "--into", str(book)]) == 0, kind
        _assert_live(book)
    games = len(read_sheets(book, [layout.RESULTS])[layout.RESULTS]) - 1
    assert games > 400  # 56 + 396 + 2 games, each on its row
    assert main(["recalc", str(book)]) == 0
    _assert_live(book)
    after = tmp_path / f"next{ending}"
    assert main(["new-season", str(book), str(after)]) == 0
    _assert_live(after)
    assert main(["import", str(files["next"]), "--into", str(after)]) == 0
    _assert_live(after)


@pytest.mark.parametrize("route", ["classic", "lite"])
def test_an_import_writes_lost_points_formulas_again(route: str, tmp_path: Path) -> None:
    # A book whose points formulas an earlier import dropped (and with them the only dynamic
    # array, so its cell metadata too): the next import writes them again.
    make = build_workbook if route == "classic" else lite.build_lite_workbook
    members = members_of(make())
    part = sheet_parts(make())["Results"]
    text = members[part].decode()
    text, dropped = re.subn(r'<c r="[MN]2"[^>]*>.*?</c>', "", text)
    assert dropped == 2
    members[part] = text.encode()
    del members["xl/metadata.xml"]
    rels = members["xl/_rels/workbook.xml.rels"].decode()
    members["xl/_rels/workbook.xml.rels"] = re.sub(
        r'<Relationship [^>]*Target="metadata.xml"/>', "", rels
    ).encode()
    types = members["[Content_Types].xml"].decode()
    members["[Content_Types].xml"] = re.sub(
        r'<Override PartName="/xl/metadata.xml"[^>]*/>', "", types
    ).encode()
    book = tmp_path / ("league.xlsm" if route == "classic" else "league.xlsx")
    book.write_bytes(repack(members))
    assert live_columns(book) == []
    assert main(["import", str(TRF / "2020_06.trf"), "--into", str(book)]) == 0
    _assert_live(book)
