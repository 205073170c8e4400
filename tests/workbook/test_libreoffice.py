"""A real spreadsheet application computes the template's formulas: LibreOffice, headless.

The book is the template filled with the small league and recalculated by ``xlgrade recalc``.
LibreOffice opens it in a throw-away profile whose Basic library holds a ``GRADE_POINTS`` shim;
the shim hands the call through LibreOffice's Python script provider to ``xlwings.server``, its
arguments shaped as Office.js passes them (:mod:`xlgrade.workbook.excel_calls`). LibreOffice
recalculates every formula on load and saves a copy; each computed cell must equal what xlgrade
gives. Skipped only where LibreOffice is absent outside CI.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import re
import zipfile
from pathlib import Path

import pytest

from tests.functions.test_lite_install import assert_lite_book_runs
from tests.league import GAMES, PLAYERS, SETTINGS, build_league, members, rows_by_header
from tests.live_points import engine_column
from xlgrade import ecf
from xlgrade.cli import main
from xlgrade.formats.csvfile import write_results_csv
from xlgrade.model import Game, Player
from xlgrade.season import recalculate
from xlgrade.settings import RATING_2020
from xlgrade.workbook import layout
from xlgrade.workbook.build import build_workbook
from xlgrade.workbook.formulas import OFFICE_TEXT
from xlgrade.workbook.libreoffice import (
    LibreOfficeError,
    calc_copy,
    find_soffice,
    make_profile,
    run_soffice,
)
from xlgrade.workbook.lite import (
    TASKPANES_TYPE,
    LiteDamage,
    book_engine,
    book_ids,
    build_lite_workbook,
    engine_zip,
    lite_damage,
)
from xlgrade.workbook.package import read_sheets
from xlgrade.workbook.relationships import sheet_parts

SOFFICE = find_soffice()

if SOFFICE is None:
    if os.environ.get("CI"):
        pytest.fail("LibreOffice (soffice) is needed in CI; .ci/run installs it", pytrace=False)
    pytest.skip("LibreOffice is not installed", allow_module_level=True)


def _profile(folder: Path) -> str:
    """A fresh LibreOffice profile with the GRADE_POINTS shim (xlgrade.workbook.libreoffice)."""
    assert SOFFICE is not None
    folder.mkdir(parents=True, exist_ok=True)
    return make_profile(SOFFICE, folder, folder.parent / "profile.log")


def _convert(url: str, book: Path, out: Path, log: Path) -> None:
    """Have LibreOffice open ``book``, recalculate it and save an .xlsx copy in ``out``; a
    function name stored as Excel stores an Office.js function is handed over plain."""
    assert SOFFICE is not None
    target = out / (book.stem + ".xlsx")
    book = calc_copy(book, out.parent / "calc")
    arguments = [f"-env:UserInstallation={url}", "--headless", "--convert-to", "xlsx",
                 "--outdir", str(out), str(book)]  # fmt: skip
    try:
        run_soffice(SOFFICE, arguments, log, done=target)
    except LibreOfficeError as error:
        pytest.fail(f"LibreOffice did not convert {book.name}: {error}")
    assert target.exists(), log.read_text()


@pytest.fixture(scope="module")
def computed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, object]]]:
    folder = tmp_path_factory.mktemp("libreoffice")
    book = build_league(folder)
    assert main(["recalc", str(book)]) == 0
    url = _profile(folder / "profile")
    out = folder / "out"
    _convert(url, book, out, folder / "soffice.log")
    raw = read_sheets(out / "league.xlsx", [layout.RESULTS, layout.HISTORY, layout.GRADING_LIST])
    return {name: rows_by_header(rows) for name, rows in raw.items()} | {
        "history": [dict(enumerate(row)) for row in raw[layout.HISTORY]]
    }


def _grade(reference: str) -> float | None:
    for player in PLAYERS:
        if reference in (player.code, player.name):
            return player.grade
    raise AssertionError(reference)


_SCORES = {"1-0": (1.0, 0.0), "½-½": (0.5, 0.5), "0-1": (0.0, 1.0)}


def test_every_results_formula_matches_xlgrade(
    computed: dict[str, list[dict[str, object]]],
) -> None:
    _every_row_computed(computed[layout.RESULTS])


def _every_row_computed(rows: list[dict[str, object]]) -> None:
    """Each Results row has the grades and scores the rules give for its game, and the points
    the season gives its players (their cards'), or the reason it is not graded."""
    assert len(rows) == len(GAMES)
    season = recalculate(PLAYERS, GAMES, SETTINGS)
    points = {h: engine_column(season, h, len(GAMES)) for h in ("Home points", "Away points")}
    for number, (game, row) in enumerate(zip(GAMES, rows, strict=True)):
        home, away = _grade(game.home), _grade(game.away)
        assert row["Home grade"] == home, row
        assert row["Away grade"] == away, row
        scores = _SCORES.get(game.result)
        if scores is None:  # a default: no score, not graded
            assert (row["Home score"], row["Away score"]) == ("def", "def"), row
            assert (row["Home points"], row["Away points"]) == ("not graded: default",) * 2, row
            continue
        assert (row["Home score"], row["Away score"]) == scores
        for column, score in (("Home points", scores[0]), ("Away points", scores[1])):
            other = away if column == "Home points" else home
            own = home if column == "Home points" else away
            want = points[column][number]
            assert row[column] == pytest.approx(want), (column, row)
            if other is not None:  # both graded: the rule itself (docs/rules.md §2)
                rule = ecf.game_points(own, other, score, horizon=40.0).points
                assert row[column] == pytest.approx(rule), (column, row)


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, object]]:
    """The Results rows LibreOffice computes for a book of the league's first six games into
    which the last four were imported (``xlgrade import FILE --into BOOK``)."""
    folder = tmp_path_factory.mktemp("imported")
    book = folder / "league.xlsm"
    book.write_bytes(build_workbook(PLAYERS, GAMES[:6], SETTINGS))
    csv = folder / "more.csv"
    csv.write_text(write_results_csv(GAMES[6:]), encoding="utf-8")
    assert main(["import", str(csv), "--into", str(book)]) == 0
    _convert(_profile(folder / "profile"), book, folder / "out", folder / "soffice.log")
    return rows_by_header(read_sheets(folder / "out" / "league.xlsx", [layout.RESULTS])["Results"])


def test_imported_rows_get_their_points_where_arrays_do_not_spill(
    imported: list[dict[str, object]],
) -> None:
    # LibreOffice computes the points columns' array formulas over their fixed range, as
    # Excel 2019 does: the import grew it over rows 8 to 11.
    _every_row_computed(imported)


def test_points_by_hand(computed: dict[str, list[dict[str, object]]]) -> None:
    # Row 2: Smith (142) beat Brown (180): 180 + 50 = 230; Brown gets 142 - 50 = 92.
    first = computed[layout.RESULTS][0]
    assert (first["Home points"], first["Away points"]) == (230, 92)
    # Row 5: Grey (ungraded) beat White (100): no horizon for Grey, 150; White's points are
    # those of his card: Grey's estimate 90 (his working grade, docs/rules.md §6) - 50 = 40,
    # 10 below White's 100, inside his horizon.
    fourth = computed[layout.RESULTS][3]
    assert (fourth["Home points"], fourth["Away points"]) == (150, 40)


def test_grade_history_chart_data(computed: dict[str, list[dict[str, object]]]) -> None:
    history = computed["history"]
    # A new book shows the first player by name; the sheet finds his code.
    assert [row[1] for row in history[:3]] == ["Smith, John", "Smith, John", "123456A"]
    values = {row[0]: row[1] for row in history[4:7]}
    smith = next(r for r in computed[layout.GRADING_LIST] if r["Code"] == "123456A")
    assert values == {"Start of season": 142, "Estimate": None, "This season": smith["Grade"]}


@pytest.fixture(scope="module")
def without_functions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[list[object]]]:
    """The league book computed where GRADE_POINTS is unknown (no add-in): the shim renamed."""
    folder = tmp_path_factory.mktemp("no-functions")
    book = build_league(folder)
    url = _profile(folder / "profile")
    module = folder / "profile" / "user" / "basic" / "Standard" / "Module1.xba"
    module.write_text(module.read_text().replace("GRADE_POINTS", "SOMETHING_ELSE"))
    _convert(url, book, folder / "out", folder / "soffice.log")
    return read_sheets(folder / "out" / "league.xlsx", [layout.RESULTS, layout.LISTS])


def test_without_the_add_in_the_points_say_what_to_install(
    without_functions: dict[str, list[list[object]]],
) -> None:
    results = rows_by_header(without_functions[layout.RESULTS])
    # One formula a column: its first row says what is needed, in place of #NAME?; in
    # LibreOffice, that the columns need Excel (tests/workbook/test_live_columns.py: the rest).
    needs = OFFICE_TEXT
    assert (results[0]["Home points"], results[0]["Away points"]) == (needs, needs)
    assert [row["Home grade"] for row in results[:3]] == [142, 120, 155]  # the rest computes
    assert without_functions[layout.LISTS][1][5] == needs


def _asking_for(book: Path, reference: str, target: Path) -> Path:
    """A copy of ``book`` whose Grade History asks for ``reference`` (a name or a code)."""
    data = book.read_bytes()
    part = sheet_parts(data)[layout.HISTORY]
    with zipfile.ZipFile(book) as source, zipfile.ZipFile(target, "w") as copy:
        for item in source.infolist():
            content = source.read(item)
            if item.filename == part:
                cell = f'<c r="B1" t="inlineStr"><is><t>{reference}</t></is></c>'
                content = re.sub(rb'<c r="B1"[^>]*?(/>|>.*?</c>)', cell.encode(), content)
            copy.writestr(item, content)
    return target


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[list[object]]]:
    """The Grade History as LibreOffice computes it, asked for Brown by his code and for Grey
    (no code, not on the list) by his name."""
    folder = tmp_path_factory.mktemp("history")
    book = build_league(folder)
    assert main(["recalc", str(book)]) == 0
    url = _profile(folder / "profile")
    out: dict[str, list[list[object]]] = {}
    for stem, reference in (("brown", "234567F"), ("grey", "Grey, Tom")):
        copy = _asking_for(book, reference, folder / f"{stem}.xlsm")
        _convert(url, copy, folder / "out", folder / f"{stem}.log")
        found = read_sheets(folder / "out" / f"{stem}.xlsx", [layout.HISTORY, layout.GRADING_LIST])
        out[reference] = found[layout.HISTORY]
        out["list"] = found[layout.GRADING_LIST]
    return out


def test_grade_history_takes_a_code(asked: dict[str, list[list[object]]]) -> None:
    history = asked["234567F"]
    assert [row[1] for row in history[:3]] == ["234567F", "Brown, Alan", "234567F"]
    brown = next(r for r in rows_by_header(asked["list"]) if r["Code"] == "234567F")
    # Brown started on 180 (the Players table) and has no estimate.
    assert [row[1] for row in history[4:7]] == [180, None, brown["Grade"]]
    # No ECF rating on Players, and a graded season's list has none: both blank.
    assert [row[1] for row in history[9:11]] == [None, None]


def test_grade_history_gives_the_ecf_rating_of_a_rated_season(tmp_path: Path) -> None:
    # A rated book (docs/rules.md §12), the README's worked September: Ann (1600) beats Bob
    # (1600), loses to Cy (new, his "B" 1792, expected .25) and Cy draws Bob. Ann, both games
    # at k 20: 20 × (1 − .50) + 20 × (0 − .25) = +5 → 1605.
    players = (
        Player("Able, Ann", "123456A", rating=1600, rating_category="K"),
        Player("Best, Bob", rating=1600),
        Player("Cole, Cy"),
    )
    september = dt.date(2025, 9, 10)
    games = (
        Game("123456A", "Best, Bob", "1-0", september),
        Game("Cole, Cy", "123456A", "1-0", september),
        Game("Cole, Cy", "Best, Bob", "½-½", september),
    )
    rated = dataclasses.replace(SETTINGS, system=RATING_2020)
    book = tmp_path / "rated.xlsm"
    book.write_bytes(build_workbook(players, games, rated))
    assert main(["recalc", str(book)]) == 0
    copy = _asking_for(book, "123456A", tmp_path / "ann.xlsm")
    _convert(_profile(tmp_path / "profile"), copy, tmp_path / "out", tmp_path / "ann.log")
    history = read_sheets(tmp_path / "out" / "ann.xlsx", [layout.HISTORY])[layout.HISTORY]
    assert [row[:2] for row in history[8:11]] == [
        [None, "ECF rating"], ["Start of season", 1600], ["This season", 1605],
    ]  # fmt: skip


def test_grade_history_takes_a_name_without_a_code(asked: dict[str, list[list[object]]]) -> None:
    history = asked["Grey, Tom"]
    # Grey has no code and no grade, an estimate of 90, and 3 games this season: category *,
    # not on the list, so no grade this season.
    assert [row[1] for row in history[:3]] == ["Grey, Tom", "Grey, Tom", None]
    assert [row[1] for row in history[4:7]] == [None, 90, None]


# A Lite book a grader opened in LibreOffice and saved: LibreOffice drops the add-in's part
# (main.py, the engine, the ids), leaves the task pane pointing at nothing, drops the
# dynamic-array marks and writes the functions' names in lower case. Each command names what
# was lost; those that write the book put it back from this xlgrade.


@pytest.fixture(scope="module")
def saved_by_libreoffice(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The small league's Lite book, opened and saved as .xlsx by LibreOffice headless."""
    assert SOFFICE is not None
    folder = tmp_path_factory.mktemp("lite-saved")
    book = folder / "in" / "league.xlsx"
    book.parent.mkdir()
    book.write_bytes(build_lite_workbook(PLAYERS, GAMES[:6], SETTINGS))
    out = folder / "out"
    arguments = [f"-env:UserInstallation={(folder / 'profile').as_uri()}", "--headless",
                 "--convert-to", "xlsx", "--outdir", str(out), str(book)]  # fmt: skip
    run_soffice(SOFFICE, arguments, folder / "soffice.log", done=out / "league.xlsx")
    return (out / "league.xlsx").read_bytes()


def _live_cells(package: bytes) -> list[str]:
    results = members(package)[sheet_parts(package)[layout.RESULTS]].decode()
    return re.findall(r'<c r="[MN]2"[^>]*>.*?</c>', results)


def test_libreoffice_drops_the_lite_parts(saved_by_libreoffice: bytes) -> None:
    # What a LibreOffice save loses, seen in the file it writes: the reason for the mending.
    saved = members(saved_by_libreoffice)
    assert "xl/webextensions/webextension1.xml" not in saved
    assert "xl/metadata.xml" not in saved
    assert "xl/webextensions/taskpanes.xml" in saved  # pointing at nothing
    assert "xl/webextensions/_rels/taskpanes.xml.rels" not in saved
    assert all("cm=" not in cell and "_xldudf_season_points(" in cell
               for cell in _live_cells(saved_by_libreoffice))  # fmt: skip
    assert lite_damage(saved_by_libreoffice) == LiteDamage(True, True, True, True)


def _whole_lite_book(package: bytes) -> None:
    """The book has the add-in's part with this xlgrade's engine, ids, the task pane, and its
    live columns stored as Excel stores a spilling custom function."""
    assert lite_damage(package) is None
    assert book_engine(package) == engine_zip()
    assert book_ids(package) is not None
    parts = members(package)
    pane = parts["xl/webextensions/_rels/taskpanes.xml.rels"]
    assert b'Target="webextension1.xml"' in pane
    types = parts["[Content_Types].xml"].decode()
    assert f'PartName="/xl/webextensions/taskpanes.xml" ContentType="{TASKPANES_TYPE}"' in types
    assert "xl/metadata.xml" in parts
    assert b"metadata.xml" in parts["xl/_rels/workbook.xml.rels"]
    cells = _live_cells(package)
    assert len(cells) == 2
    assert all('cm="1"' in cell and "_xldudf_SEASON_POINTS(" in cell for cell in cells)


def test_recalc_puts_back_what_libreoffice_dropped(
    saved_by_libreoffice: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book, fixed = tmp_path / "league.xlsx", tmp_path / "fixed.xlsx"
    book.write_bytes(saved_by_libreoffice)
    assert main(["recalc", str(book), "--out", str(fixed)]) == 0
    printed = capsys.readouterr().out
    (note,) = [line for line in printed.splitlines() if "has lost" in line]
    assert note.startswith(f"note: {book} has lost its xlwings Lite part (webextension1.xml: ")
    assert "its live columns' dynamic-array marks" in note
    assert "put back from this xlgrade: main.py carrying this xlgrade's engine" in note
    assert "new ids (xlwings Lite asks once to trust the book again)" in note
    _whole_lite_book(fixed.read_bytes())
    assert book.read_bytes() == saved_by_libreoffice  # --out: the book itself left alone
    graded = rows_by_header(read_sheets(fixed, [layout.GRADING_LIST])[layout.GRADING_LIST])
    assert graded  # and recalculated
    # A second run finds nothing lost, and the book runs as xlwings Lite runs it.
    assert main(["recalc", str(fixed)]) == 0
    assert "has lost" not in capsys.readouterr().out
    run = tmp_path / "lite"
    run.mkdir()
    assert_lite_book_runs(fixed.read_bytes(), run)


def test_import_and_new_season_put_back_what_libreoffice_dropped(
    saved_by_libreoffice: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "league.xlsx"
    book.write_bytes(saved_by_libreoffice)
    csv = tmp_path / "more.csv"
    csv.write_text(write_results_csv(GAMES[6:]), encoding="utf-8")
    assert main(["import", str(csv), "--into", str(book)]) == 0
    assert f"note: {book} has lost its xlwings Lite part" in capsys.readouterr().out
    _whole_lite_book(book.read_bytes())
    book.write_bytes(saved_by_libreoffice)
    assert main(["new-season", str(book), str(tmp_path / "next.xlsx")]) == 0
    printed = capsys.readouterr().out
    assert f"note: {book} has lost its xlwings Lite part" in printed
    assert f"next season's {tmp_path / 'next.xlsx'} is whole, with this xlgrade's engine" in printed
    assert lite_damage((tmp_path / "next.xlsx").read_bytes()) is None


def test_the_reading_commands_name_what_libreoffice_dropped(
    saved_by_libreoffice: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "league.xlsx"
    book.write_bytes(saved_by_libreoffice)
    assert main(["season", str(book)]) == 0
    printed = capsys.readouterr().out
    assert f"note: {book} has lost its xlwings Lite part" in printed
    assert f"`xlgrade recalc {book}` puts it back from this xlgrade" in printed
    assert book.read_bytes() == saved_by_libreoffice  # read, not written
