# ruff: noqa: E501  (OOXML fixture parts are kept on one line each, as stored)
"""``xlgrade recalc`` on files: the outputs match the engine, nothing else in the book changes,
a failed write leaves the book untouched, and every bad input cell reaches Exceptions."""

from __future__ import annotations

import datetime as dt
import io
import os
import struct
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.league import GAMES, PLAYERS, SETTINGS, build_league, members, rows_by_header
from xlgrade.cli import main
from xlgrade.model import Game, Player
from xlgrade.season import Table, recalculate
from xlgrade.settings import RATING_2020, Settings
from xlgrade.workbook import layout, lite, package
from xlgrade.workbook.build import build_workbook
from xlgrade.workbook.outputs import SheetTable, season_sheets
from xlgrade.workbook.package import read_sheets, write_sheets
from xlgrade.workbook.relationships import sheet_parts


def _outputs(path: Path) -> dict[str, list[dict[str, object]]]:
    raw = read_sheets(path, layout.OUTPUT_SHEETS)
    return {name: rows_by_header(rows) for name, rows in raw.items()}


def _number(value: object) -> object:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else value


def test_recalc_matches_the_engine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = build_league(tmp_path)
    assert main(["recalc", str(book)]) == 0
    out = capsys.readouterr()
    # The hand-typed league: 10 result rows, one of them a default (tests/league.py).
    assert out.out.splitlines()[:2] == [
        "6 players, 10 result rows: 9 graded, 0 rapidplay, 1 not graded (1 default)",
        "1 exception: 1 for the result rows not graded",
    ]
    assert "Grading\n" in out.err
    expected = season_sheets(recalculate(PLAYERS, GAMES, SETTINGS))
    found = _outputs(book)
    for name, table in expected.items():
        rows = found[name]
        assert len(rows) == len(table.rows), name
        for got, want in zip(rows, table.rows, strict=True):
            for header, value in zip(table.headers, want, strict=True):
                # numbers, dates and text read back as the same values: no number as text
                assert _number(got[header]) == _number(value), (name, header, got)


def test_smith_grade_worked_by_hand(tmp_path: Path) -> None:
    # Smith (142) beat Brown (180): 230; beat Black (155): 205; drew Green (120): 120.
    # Borrowing all 20 previous games (2900 points): (555 + 2900) / 23 = 150.2 -> 150.
    book = build_league(tmp_path)
    assert main(["recalc", str(book)]) == 0
    smith = next(r for r in _outputs(book)["Grading List"] if r["Code"] == "123456A")
    assert (smith["Games"], smith["Points"], smith["Grade"]) == (3, 555, 150)


def test_rapid_list_is_cleared_when_no_rapid_game(tmp_path: Path) -> None:
    book = build_league(tmp_path)
    old = Table(("Code", "Grade"), [("999999Z", 200)])
    write_sheets(book, {layout.RAPID_LIST: old})
    assert main(["recalc", str(book)]) == 0
    rapid = read_sheets(book, [layout.RAPID_LIST])[layout.RAPID_LIST]
    assert rapid == [["Note"], ["No rapidplay game was graded this season."]]


def _png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


_DRAWING_NS = (
    'xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
)


def _graders_book(tmp_path: Path) -> Path:
    """The league with a grader's own sheet holding an image and a dynamic-array formula
    (the template already has a chart and the VBA project)."""
    book = build_league(tmp_path)
    write_sheets(book, {"My notes": Table(("Note",), [("mine",)])})
    data = book.read_bytes()
    part = sheet_parts(data)["My notes"]
    parts = members(data)
    sheet = parts[part].decode()
    sheet = sheet.replace(
        "</sheetData>",
        '<row r="5"><c r="A5" cm="1"><f t="array" ref="A5:A7">_xlfn.SEQUENCE(3)</f><v>1</v></c>'
        "</row></sheetData>",
    ).replace("</worksheet>", '<drawing r:id="rIdPic"/></worksheet>')
    parts[part] = sheet.encode()
    name = part.rsplit("/", 1)[1]
    parts[f"xl/worksheets/_rels/{name}.rels"] = (
        b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        b'<Relationship Id="rIdPic" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing" Target="../drawings/drawing99.xml"/></Relationships>'
    )
    parts["xl/drawings/drawing99.xml"] = (
        f'<?xml version="1.0" encoding="UTF-8"?><xdr:wsDr {_DRAWING_NS}><xdr:oneCellAnchor>'
        "<xdr:from><xdr:col>2</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>2</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>"
        '<xdr:ext cx="952500" cy="952500"/><xdr:pic><xdr:nvPicPr><xdr:cNvPr id="1" name="Logo"/><xdr:cNvPicPr/></xdr:nvPicPr>'
        '<xdr:blipFill><a:blip r:embed="rIdImg"/><a:stretch><a:fillRect/></a:stretch></xdr:blipFill>'
        '<xdr:spPr><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr></xdr:pic><xdr:clientData/></xdr:oneCellAnchor></xdr:wsDr>'
    ).encode()
    parts["xl/drawings/_rels/drawing99.xml.rels"] = (
        b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        b'<Relationship Id="rIdImg" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../media/image1.png"/></Relationships>'
    )
    parts["xl/media/image1.png"] = _png()
    types = (
        parts["[Content_Types].xml"]
        .decode()
        .replace(
            "</Types>",
            '<Default Extension="png" ContentType="image/png"/>'
            '<Override PartName="/xl/drawings/drawing99.xml" ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/></Types>',
        )
    )
    parts["[Content_Types].xml"] = types.encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        for member, content in parts.items():
            out.writestr(member, content)
    book.write_bytes(buffer.getvalue())
    return book


def _raw_members(data: bytes) -> dict[str, tuple[int, int, bytes]]:
    """Each member's CRC, compressed size and compressed bytes, as stored."""
    out = {}
    with zipfile.ZipFile(io.BytesIO(data)) as package_file:
        for info in package_file.infolist():
            start = info.header_offset
            name_len, extra_len = struct.unpack("<HH", data[start + 26 : start + 30])
            begin = start + 30 + name_len + extra_len
            out[info.filename] = (
                info.CRC,
                info.compress_size,
                data[begin : begin + info.compress_size],
            )
    return out


def test_round_trip_keeps_everything_but_the_outputs(tmp_path: Path) -> None:
    book = _graders_book(tmp_path)
    before = book.read_bytes()
    assert main(["recalc", str(book)]) == 0
    after = book.read_bytes()
    outputs = {sheet_parts(before)[name] for name in layout.OUTPUT_SHEETS}
    old, new = _raw_members(before), _raw_members(after)
    assert set(old) == set(new)
    kept = [name for name in old if name not in outputs]
    for name in (
        "xl/vbaProject.bin", "customUI/customUI14.xml", "customUI/customUI.xml",
        "xl/media/image1.png", "xl/charts/chart1.xml", "xl/drawings/drawing99.xml",
        sheet_parts(before)["My notes"], sheet_parts(before)["Results"],
    ):  # fmt: skip
        assert name in kept
    for name in kept:
        assert new[name] == old[name], name
    assert "_xlfn.SEQUENCE(3)" in members(after)[sheet_parts(before)["My notes"]].decode()
    for name in outputs:
        assert new[name] != old[name]


def test_out_leaves_the_original_alone(tmp_path: Path) -> None:
    book = build_league(tmp_path)
    before = book.read_bytes()
    target = tmp_path / "graded.xlsm"
    assert main(["recalc", str(book), "--out", str(target)]) == 0
    assert book.read_bytes() == before
    assert _outputs(target)["Grading List"]


def test_a_fault_while_writing_leaves_the_book_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = build_league(tmp_path)
    before = book.read_bytes()
    real = package.sheet_xml_chunks
    calls = []

    def failing(*args: object, **kwargs: object) -> Iterator[bytes]:
        calls.append(1)
        pieces = real(*args, **kwargs)  # type: ignore[arg-type]
        yield next(pieces)  # the third sheet fails once its writing has begun
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        yield from pieces

    monkeypatch.setattr(package, "sheet_xml_chunks", failing)
    assert main(["recalc", str(book)]) == 1
    assert book.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["league.xlsm"]


def test_a_fault_just_before_the_rename_leaves_the_book_unchanged(tmp_path: Path) -> None:
    book = build_league(tmp_path)
    before = book.read_bytes()
    seen: list[str] = []

    def crash(temporary: str) -> None:
        seen.append(temporary)
        raise KeyboardInterrupt

    tables = {layout.EXCEPTIONS: Table(("Sheet",), [("x",)])}
    with pytest.raises(KeyboardInterrupt):
        write_sheets(book, tables, before_rename=crash)
    assert book.read_bytes() == before
    assert seen
    assert not os.path.exists(seen[0])
    assert sorted(os.listdir(tmp_path)) == ["league.xlsm"]


def test_missing_book_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["recalc", str(tmp_path / "none.xlsm")]) == 1
    assert "none.xlsm" in capsys.readouterr().err


def test_every_bad_cell_reaches_exceptions(tmp_path: Path) -> None:
    book = build_league(tmp_path)
    players = Table(
        layout.PLAYERS_HEADERS,
        [
            ("123456A", "Smith, John", "Anytown", None, None, 142, None, 20, 2900, None, None),
            ("234567F", "Brown, Alan", "Anytown", None, None, "abc", None, None, None, None, None),
            (
                "345678L",
                "Green, Mary",
                "Beeton",
                "31/02/2010",
                "perhaps",
                120,
                None,
                None,
                None,
                None,
                None,
            ),
            ("456789E", None, "Beeton", None, None, 100, None, None, None, None, None),
            ("567890A", "Black, Susan", "Cuxton", None, None, 155, None, "ten", None, None, None),
            (None, "Grey, Tom", "Cuxton", None, None, 90, None, None, None, None, None),
        ],
    )
    results = Table(
        layout.RESULTS_HEADERS,
        [
            ("2025-10-01", "Division 1", "M1", 1, "123456A", "1-0", "Grey, Tom", "75"),
            ("yesterday", "Division 1", "M1", "first", "123456A", "1-0", "Grey, Tom", "75"),
            ("2025-10-08", "Division 1", "M2", 1, "123456A", None, "Grey, Tom", "75"),
            ("2025-10-08", "Division 1", "M2", 2, "123456A", "2-0", "Grey, Tom", "75"),
        ],
    )
    settings = Table(
        layout.SETTINGS_HEADERS, [("Season name", "2025-26", None), ("Horizon", "forty", None)]
    )
    write_sheets(book, {"Players": players, "Results": results, "Settings": settings})
    assert main(["recalc", str(book)]) == 0
    found = {(r["Sheet"], r["Row"], r["What"], r["Why"]) for r in _outputs(book)["Exceptions"]}

    def has(sheet: str, row: int, *words: str) -> bool:
        return any(
            s == sheet and r == row and all(w in str(what) + " " + str(why) for w in words)
            for s, r, what, why in found
        )

    assert has("Players", 3, "F3", "Grade", "'abc'")
    assert has("Players", 4, "D4", "Date of birth", "'31/02/2010'")
    assert has("Players", 4, "E4", "Junior", "'perhaps'")
    assert has("Players", 5, "B5", "no name")
    assert has("Players", 6, "H6", "Previous games", "'ten'")
    assert has("Results", 3, "A3", "'yesterday'")
    assert has("Results", 3, "D3", "'first'")
    assert has("Results", 4, "F4", "Result")
    assert has("Results", 5, "'2-0'")
    assert has("Settings", 3, "B3", "Value", "'forty'")


def test_unreadable_settings_and_players_cells_are_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = build_league(tmp_path)
    players = Table(
        layout.PLAYERS_HEADERS,
        [
            ("123456A", "Smith, John", "Anytown", None, None, 142, None, None, None, None, None),
            ("234567F", "Brown, Alan", "Anytown", None, None, "abc", None, None, None, None, None),
        ],
    )
    results = Table(
        layout.RESULTS_HEADERS,
        [
            ("2025-10-01", "Division 1", "M1", 1, "123456A", "1-0", "234567F", "75"),
            ("yesterday", "Division 1", "M1", 2, "123456A", "1-0", "234567F", "75"),
        ],
    )
    settings = Table(layout.SETTINGS_HEADERS, [("Horizon", "forty", None)])
    write_sheets(book, {"Players": players, "Results": results, "Settings": settings})
    assert main(["recalc", str(book)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "2 players, 2 result rows: 1 graded, 0 rapidplay, 1 not graded (1 bad date)",
        "4 exceptions: 1 for the result rows not graded, 2 on Settings, 1 on Players",
        "2 cells of Settings and Players could not be read, each value left out and the rest "
        "of its row kept (the Exceptions sheet lists them all):",
        "  Settings row 2: cell B2 (Value): 'forty' is not a number: the default is used",
        "  Players row 3: cell F3 (Grade): 'abc' is not a number: left out",
        # The Settings sheet written here has no season dates: the games' season is used.
        "note: Settings: no season start or end is given: the 2025-26 season (2025-06-01 to "
        "2026-05-31), the one the games were played in",
        f"Wrote {book}",
    ]


RATED_SETTINGS = Settings(
    season_name="2025-26",
    season_start=dt.date(2025, 9, 1),
    season_end=dt.date(2026, 8, 31),
    system=RATING_2020,
)
RATED_PLAYERS = (
    Player("Able, Ann", "123456A", rating=1600, rating_category="K", row=2),
    Player("Best, Bob", rating=1600, row=3),
    Player("Cole, Cy", row=4),
    Player("Dean, Dot", rating=1700, last_rated_month=dt.date(2021, 1, 1), row=5),
)
RATED_GAMES = (
    Game("123456A", "Best, Bob", "1-0", dt.date(2025, 9, 10), row=2),
    Game("Cole, Cy", "123456A", "1-0", dt.date(2025, 9, 12), row=3),
    Game("Cole, Cy", "Best, Bob", "½-½", dt.date(2025, 9, 20), row=4),
    Game("Cole, Cy", "123456A", "1-0", None, row=5),
)


@pytest.mark.parametrize("suffix", [".xlsm", ".xlsx"])
def test_a_rated_book_shows_ratings_cards_and_every_row(
    tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # The classic and the Lite book alike. Worked by hand (tests/season/test_rating_season.py):
    # September, Cy new: (1600 + 1600 + 1800) / 3 = 1666.67, p .67, dp +125 → 1792 (P);
    # Ann v Bob .50, v Cy at 1792 .25, Cy's game counting in full: 20 × .50 + 20 × (0 − .25)
    # = +5 → 1605; Bob 20 × (0 − .50) + 20 × (½ − .25) = −5 → 1595.
    path = tmp_path / f"rated{suffix}"
    builder = lite.build_lite_workbook if suffix == ".xlsx" else build_workbook
    path.write_bytes(builder(RATED_PLAYERS, RATED_GAMES, RATED_SETTINGS))
    assert main(["recalc", str(path)]) == 0
    said = capsys.readouterr()
    assert said.out.splitlines()[:2] == [
        "4 players, 4 result rows: 3 rated, 0 rapidplay, 1 not rated (1 no date)",
        "1 exception: 1 for the result rows not rated",
    ]
    # The progress lines in the system's words.
    assert said.err.splitlines()[:2] == [f"Reading {path}", "Rating month by month"]
    raw = read_sheets(path, layout.OUTPUT_SHEETS)
    assert tuple(raw[layout.GRADING_LIST][0]) == layout.RATING_LIST_SHEET_HEADERS
    listed = rows_by_header(raw[layout.GRADING_LIST])
    assert [(r["Name"], r["Rating"], r["Category"], r["Monthly path"]) for r in listed[:3]] == [
        ("Cole, Cy", 1792, "P", "1792"),
        ("Able, Ann", 1605, "K", "1600 → 1605"),
        ("Best, Bob", 1595, "K", "1600 → 1595"),
    ]
    # Every Players row is on the sheet: Dot, last rated in January 2021, is unrated.
    dot = next(r for r in listed if r["Name"] == "Dean, Dot")
    assert "36 months" in str(dot["Note"])
    assert tuple(raw[layout.PLAYER_CARDS][0]) == layout.RATING_CARD_SHEET_HEADERS
    cards = rows_by_header(raw[layout.PLAYER_CARDS])
    ann = [r for r in cards if r["Name"] == "Able, Ann" and r["Game"] is not None]
    assert [
        (r["Opponent"], r["Opponent rating"], r["Expected"], r["k"], r["Change"]) for r in ann
    ] == [
        ("Best, Bob", 1600, 0.5, 20, 10),
        ("Cole, Cy", 1792, 0.25, 20, -5),
    ]
    exceptions = rows_by_header(raw[layout.EXCEPTIONS])
    assert [(r["Row"], r["What"]) for r in exceptions[:-1]] == [(5, "no date")]
    assert exceptions[-1]["Why"] == "4 result rows: 3 rated, 0 rapidplay, 1 not rated (1 no date)"


def test_a_rated_books_rapidplay_cards_follow_the_standard_ones() -> None:
    # Ann (rapid 1500) draws Cy (no rapid rating: nominal 1800 − 100 = 1700) at 30 minutes:
    # Cy (1500 + 1700) / 2 = 1600, p .50 → 1600, partial; Ann v 1600 (D 100, 98–106) .36, in
    # full: 20 × (½ − .36) = 2.8.
    from xlgrade.workbook.outputs import RAPID_CARDS

    players = (Player("Able, Ann", rating=1600, rapid_rating=1500), Player("Cole, Cy"))
    games = (
        Game("Able, Ann", "Cole, Cy", "1-0", dt.date(2025, 9, 3)),
        Game("Cole, Cy", "Able, Ann", "½-½", dt.date(2025, 9, 4), time_control="30 min"),
    )
    sheet = season_sheets(recalculate(players, games, RATED_SETTINGS))[layout.PLAYER_CARDS]
    names = [row[1] for row in sheet.rows]
    rapid = sheet.rows[names.index(RAPID_CARDS) + 1 :]
    at = {h: i for i, h in enumerate(sheet.headers)}
    ann = [r for r in rapid if r[1] == "Able, Ann" and r[at["Game"]] is not None]
    assert [(r[at["Opponent rating"]], r[at["Expected"]], r[at["Change"]]) for r in ann] == [
        (1600, 0.36, 2.8)
    ]


def test_a_rated_books_categories_and_changes_are_centred() -> None:
    # At the right of its column a start rating reads as part of the start category beside it
    # ("1600K"), a change as part of the monthly path ("5 1600 → 1605"), a card's rating as
    # part of its category: those columns are centred, the ratings are not.
    sheets = season_sheets(recalculate(RATED_PLAYERS, RATED_GAMES, RATED_SETTINGS))
    listed = sheets[layout.GRADING_LIST]
    assert isinstance(listed, SheetTable)
    at = {h: i for i, h in enumerate(listed.headers)}
    ann = [r[1] for r in listed.rows].index("Able, Ann")
    for header in ("Start category", "Category", "Change"):
        assert listed.styles[(ann, at[header])] == "centre", header
    assert (ann, at["Rating"]) not in listed.styles
    cards = sheets[layout.PLAYER_CARDS]
    assert isinstance(cards, SheetTable)
    at = {h: i for i, h in enumerate(cards.headers)}
    start = next(r for r, row in enumerate(cards.rows) if row[at["Category"]] == "K")
    assert cards.styles[(start, at["Category"])] == "centre"
    assert (start, at["Rating"]) not in cards.styles


def test_a_rated_book_without_grades_has_its_rapid_list() -> None:
    # Nobody has a grade (a book kept by ratings alone): nothing could be graded by the 1997
    # rules, but every row is rated. Ann (rapid 1500) draws Cy (nominal 1700): Cy 1600, partial,
    # and Ann 20 × (½ − .36) = 2.8 → 1503 (worked in tests/season/test_rating_season.py).
    players = (Player("Able, Ann", rapid_rating=1500), Player("Cole, Cy"))
    games = (Game("Cole, Cy", "Able, Ann", "½-½", dt.date(2025, 9, 4), time_control="30 min"),)
    season = recalculate(players, games, RATED_SETTINGS)
    assert season.accounting.summary() == "1 result rows: 0 rated, 1 rapidplay, 0 not rated"
    rapid = season_sheets(season)[layout.RAPID_LIST]
    assert [(r[1], r[6]) for r in rapid.rows] == [("Cole, Cy", 1600), ("Able, Ann", 1503)]
