"""The sheets as a grader publishes them, read back out of the written files: column widths that
hold what the cells show, numbers stored as numbers, the YCA card on Player Cards, the players
left off the list and why, the player drop-down, coloured problem rows, print areas and titles,
and the Grade History chart."""

from __future__ import annotations

import datetime as dt
import io
import re
import struct
import zipfile
import zlib
from pathlib import Path
from xml.etree import ElementTree

import pytest

from tests.league import GAMES, PLAYERS, SETTINGS, build_league, members
from tests.season.test_counted_grades import NOISE_GAMES, NOISE_PLAYERS
from tests.season.test_counted_grades import SEASON as NOISE_SEASON
from tests.season.test_season import PLAYERS as SEASON_PLAYERS
from tests.season.test_season import yca_league
from tests.worked_examples import YCA_GAMES
from xlgrade.cli import main
from xlgrade.generate import generate_league
from xlgrade.model import Game
from xlgrade.season import recalculate
from xlgrade.settings import Settings
from xlgrade.workbook import layout
from xlgrade.workbook.build import build_workbook
from xlgrade.workbook.container import assemble_package, deflate_chunks, new_part
from xlgrade.workbook.outputs import (
    CARD_SHEET_HEADERS,
    LEFT_OFF,
    LIST_SHEET_HEADERS,
    RAPID_CARDS,
    cards_sheet,
)
from xlgrade.workbook.package import read_sheets
from xlgrade.workbook.relationships import sheet_parts
from xlgrade.workbook.sheetxml import WIDEST, sheet_xml, sheet_xml_chunks
from xlgrade.workbook.styles import STYLES, book_styles

ROOT = Path(__file__).resolve().parents[2]


def _parts(path: Path) -> tuple[dict[str, bytes], dict[str, str]]:
    data = path.read_bytes()
    return members(data), sheet_parts(data)


def _sheet(path: Path, name: str) -> str:
    parts, sheets = _parts(path)
    return parts[sheets[name]].decode("utf-8")


def _widths(sheet: str) -> dict[str, float]:
    """Column letter → width, from the sheet's ``<cols>`` (columns A to Z here)."""
    out: dict[str, float] = {}
    for tag in re.findall(r"<col\b[^>]*>", sheet):
        low, high, width = (re.search(rf'\b{a}="([\d.]+)"', tag) for a in ("min", "max", "width"))
        assert low and high and width, tag  # noqa: PT018
        for index in range(int(low.group(1)), int(high.group(1)) + 1):
            out[chr(64 + index)] = float(width.group(1))
    return out


def _letter(headers: tuple[str, ...], header: str) -> str:
    return chr(65 + headers.index(header))


def _cell(sheet: str, ref: str) -> str:
    found = re.search(rf'<c r="{ref}"[^>]*?(?:/>|>.*?</c>)', sheet)
    assert found, ref
    return found.group(0)


def _number_formats(path: Path) -> list[str | None]:
    """Each cell format's number format code, by index (``None`` for a built-in one)."""
    styles = members(path.read_bytes())["xl/styles.xml"].decode("utf-8")
    codes = {
        number: code.replace("&quot;", '"')
        for number, code in re.findall(r'<numFmt numFmtId="(\d+)" formatCode="([^"]*)"', styles)
    }
    xfs = re.search(r"<cellXfs\b.*?</cellXfs>", styles, re.DOTALL)
    assert xfs
    return [codes.get(n) for n in re.findall(r'<xf numFmtId="(\d+)"', xfs.group(0))]


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    book = build_league(tmp_path_factory.mktemp("league"))
    assert main(["recalc", str(book)]) == 0
    return book


@pytest.fixture(scope="module")
def yca(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The YCA page's player (graded 142, 19 games for 2754 last season, 24 for 3300 the season
    before) in a book, recalculated."""
    players, games = yca_league(history=True)
    book = tmp_path_factory.mktemp("yca") / "yca.xlsm"
    book.write_bytes(build_workbook(players, games, Settings()))
    assert main(["recalc", str(book)]) == 0
    return book


def test_output_columns_hold_the_widest_name_date_and_header(league: Path) -> None:
    cards = _sheet(league, layout.PLAYER_CARDS)
    widths = _widths(cards)
    # The small league's longest names are "White, Peter" and "Black, Susan": 12 characters.
    widest_name = max(len(p.name) for p in PLAYERS)
    assert widest_name == 12
    assert widths[_letter(CARD_SHEET_HEADERS, "Name")] >= widest_name
    assert widths[_letter(CARD_SHEET_HEADERS, "Opponent")] >= widest_name
    assert widths[_letter(CARD_SHEET_HEADERS, "Date")] >= len("2025-10-01")
    for header in CARD_SHEET_HEADERS:
        assert widths[_letter(CARD_SHEET_HEADERS, header)] >= len(header), header
    listing = _widths(_sheet(league, layout.GRADING_LIST))
    for header in LIST_SHEET_HEADERS:
        assert listing[_letter(LIST_SHEET_HEADERS, header)] >= len(header), header


def test_a_long_reason_wraps_in_a_column_of_bounded_width() -> None:
    book = ROOT / "workbook" / "example-league.xlsm"
    sheet = _sheet(book, layout.EXCEPTIONS)
    widths = _widths(sheet)
    assert max(widths.values()) <= WIDEST
    formats = _xfs_with(book, 'wrapText="1"')
    # The last row is the season's summary, longer than the widest column.
    last = max(int(n) for n in re.findall(r'<row r="(\d+)"', sheet))
    summary = _cell(sheet, f"D{last}")
    assert len(re.sub("<[^>]+>", "", summary)) > WIDEST
    style = re.search(r'\bs="(\d+)"', summary)
    assert style
    assert int(style.group(1)) in formats
    assert re.search(rf'<row r="{last}" ht="\d+\.\d+" customHeight="1">', sheet)


def _xfs_with(path: Path, attribute: str) -> set[int]:
    """The cell formats of the book's styles part that say ``attribute`` (``wrapText="1"``)."""
    styles = members(path.read_bytes())["xl/styles.xml"].decode("utf-8")
    xfs = re.search(r"<cellXfs\b.*?</cellXfs>", styles, re.DOTALL)
    assert xfs
    entries = re.findall(r"<xf\b[^>]*/>|<xf\b[^>]*>.*?</xf>", xfs.group(0), re.DOTALL)
    return {i for i, xf in enumerate(entries) if attribute in xf}


def test_the_example_books_input_columns_hold_their_longest_entries() -> None:
    book = ROOT / "workbook" / "example-league.xlsm"
    season = generate_league()
    headers = layout.RESULTS_HEADERS
    widths = _widths(_sheet(book, layout.RESULTS))
    longest_match = max(len(g.match) for g in season.games)
    longest_player = max(len(str(g.home)) for g in season.games)
    assert widths[_letter(headers, "Match")] >= longest_match
    assert widths[_letter(headers, "Home player")] >= longest_player
    assert widths[_letter(headers, "Date")] >= len("2025-09-01")
    players = _widths(_sheet(book, layout.PLAYERS))
    longest_name = max(len(p.name) for p in season.players)
    assert players[_letter(layout.PLAYERS_HEADERS, "Name")] >= longest_name


def test_the_yca_card_holds_numbers_shown_as_the_page_shows_them(yca: Path) -> None:
    rows = read_sheets(yca, [layout.PLAYER_CARDS])[layout.PLAYER_CARDS]
    headers = tuple(rows[0])
    assert headers == CARD_SHEET_HEADERS
    column = {h: i for i, h in enumerate(headers)}
    mine = [row for row in rows[1:] if row[0] == "210988J"]
    # A start row, the page's 17 games, the total, the borrowed season, the new grade, the
    # two marks' meanings.
    assert len(mine) == 1 + 17 + 1 + 1 + 1 + 2
    assert mine[0][column["Opponent"]] == "Start of season"
    assert mine[0][column["Grade"]] == 142
    games = mine[1:18]
    assert [row[column["Game"]] for row in games] == list(range(1, 18))
    assert [row[column["Result"]] for row in games] == [g.score for g in YCA_GAMES]
    assert [row[column["Opponent grade"]] for row in games] == [g.opponent for g in YCA_GAMES]
    assert [row[column["Points"]] for row in games] == [g.points for g in YCA_GAMES]
    total, borrowed, new_grade = mine[18:21]
    # "Total points gained = 2405, Number of games graded = 17"
    assert (total[column["Game"]], total[column["Points"]]) == (17, 2405)
    # 13 games borrowed from the previous season: 2754 × 13 / 19 = 1884.3
    assert (borrowed[column["Game"]], borrowed[column["Points"]]) == (13, 1884.3)
    # "4289 points divided by 30 games gives a grade of 143, and the grade category will be C"
    assert new_grade[column["Opponent"]] == "New grade"
    assert (new_grade[column["Game"]], new_grade[column["Points"]]) == (30, 4289.3)
    assert (new_grade[column["Grade"]], new_grade[column["Category"]]) == (143, "C")
    assert new_grade[column["Note"]] == "New grade = 4289.3 / 30 = 142.98 → 143, category C"


def test_the_yca_cards_marks_are_number_formats(yca: Path) -> None:
    sheet = _sheet(yca, layout.PLAYER_CARDS)
    formats = _number_formats(yca)

    def shown(ref: str) -> tuple[str, str | None]:
        cell = _cell(sheet, ref)
        assert 't="' not in cell, cell  # a number, not text
        value = re.search(r"<v>([^<]*)</v>", cell)
        style = re.search(r'\bs="(\d+)"', cell)
        assert value, cell
        return value.group(1), formats[int(style.group(1))] if style else None

    grade, points, result = (
        _letter(CARD_SHEET_HEADERS, h) for h in ("Opponent grade", "Points", "Result")
    )
    # Game 4 (sheet row 2 + 4): the ungraded opponent's working grade 136, shown [136].
    assert shown(f"{grade}6") == ("136", STYLES["working"].number_format)
    # Game 10 (row 12): 152 points, the horizon applied, shown 152*.
    assert shown(f"{points}12") == ("152", STYLES["horizon"].number_format)
    assert shown(f"{points}11")[1] is None  # game 9, no star
    # Game 1 (row 3) was a draw: 0.5, shown ½.
    assert shown(f"{result}3") == ("0.5", STYLES["score"].number_format)


def test_the_list_ends_with_every_player_left_off_and_why(league: Path) -> None:
    rows = read_sheets(league, [layout.GRADING_LIST])[layout.GRADING_LIST]
    assert tuple(rows[0]) == LIST_SHEET_HEADERS
    names = [row[1] for row in rows[1:]]
    heading = names.index(LEFT_OFF)
    listed, left = rows[1:heading], rows[heading + 2 :]
    # By hand: only Smith (3 games and 20 last season) has the 10 games in three seasons
    # category E needs; the other five played 2 to 4 games with no history: category *.
    assert [row[1] for row in listed if row[1]] == ["Smith, John"]
    assert sorted(row[1] for row in left) == sorted(p.name for p in PLAYERS[1:])
    note = LIST_SHEET_HEADERS.index("Note")
    grey = next(row for row in left if row[1] == "Grey, Tom")
    # Grey beat White and lost to Black; his game with Brown was a default, not graded.
    assert grey[LIST_SHEET_HEADERS.index("Games")] == 2
    assert grey[LIST_SHEET_HEADERS.index("Category")] == "*"
    assert grey[note].startswith("category *: 2 games this season and 0 in the two before")
    assert len(listed) - 1 + len(left) == len(PLAYERS) - 1  # each Players row once (a blank row)


# The example book's time controls, read by hand (docs/rules.md §11): blank is the Settings'
# default, standard play; "rapid" names rapidplay (README, "Time controls"); 25 minutes + 10 s
# a move is 25 + 60 × 10 / 60 = 35 minutes over 60 moves, from 15 to under 60: rapidplay;
# 3 minutes + 2 s is 5 minutes, lightning, not graded (that row is on Exceptions).
_LISTS = {None: "standard", "rapid": "rapid", "25+10": "rapid", "3+2": "not graded"}
_CARD_LABELS = {"Start of season", "Total points gained", "New grade"}


def test_every_graded_game_is_on_its_list_and_both_players_cards(tmp_path: Path) -> None:
    book = tmp_path / "example.xlsm"
    assert main(["recalc", str(ROOT / "workbook" / "example-league.xlsm"), "--out", str(book)]) == 0
    names = (layout.RESULTS, layout.EXCEPTIONS, layout.GRADING_LIST, layout.RAPID_LIST)
    sheets = read_sheets(book, [*names, layout.PLAYER_CARDS])
    results = sheets[layout.RESULTS]
    column = {h: i for i, h in enumerate(results[0])}
    excepted = {row[1] for row in sheets[layout.EXCEPTIONS][1:] if row[0] == layout.RESULTS}
    # From the input rows: each graded game's date, by list, once for each of its players.
    expected: dict[str, list[str]] = {"standard": [], "rapid": []}
    for number, row in enumerate(results[1:], start=2):
        if row[column["Home player"]] is None or number in excepted:
            continue
        kind = _LISTS[row[column["Time control"]]]
        assert kind != "not graded", number
        expected[kind] += [str(row[column["Date"]])[:10]] * 2
    assert len(expected["rapid"]) == 2 * 2  # the example's two rapidplay games
    # The cards: the standard ones, then the rapidplay ones under their heading.
    cards = sheets[layout.PLAYER_CARDS][1:]
    at = {h: i for i, h in enumerate(CARD_SHEET_HEADERS)}
    split = [row[at["Name"]] for row in cards].index(RAPID_CARDS)
    for kind, block in (("standard", cards[:split]), ("rapid", cards[split + 1 :])):
        games = [
            row
            for row in block
            if row[at["Game"]] is not None
            and row[at["Opponent"]] not in _CARD_LABELS
            and not str(row[at["Opponent"]]).startswith("Borrowed")
        ]
        assert sorted(str(row[at["Date"]])[:10] for row in games) == sorted(expected[kind])
        # Both players' cards: each (player, opponent, date) has its mirror, the scores adding
        # up to one game.
        sides = {(r[at["Name"]], r[at["Opponent"]], r[at["Date"]]): r[at["Result"]] for r in games}
        assert len(sides) == len(games)
        for (player, opponent, day), score in sides.items():
            assert score + sides[(opponent, player, day)] == 1
    # Each list's Games column, over the published players and those left off, counts each
    # game once for each player.
    for kind, sheet in (("standard", layout.GRADING_LIST), ("rapid", layout.RAPID_LIST)):
        rows = sheets[sheet][1:]
        games = LIST_SHEET_HEADERS.index("Games")
        assert sum(int(row[games]) for row in rows if row[games] is not None) == len(expected[kind])


def test_results_player_columns_offer_the_players_names() -> None:
    data = build_workbook(PLAYERS, GAMES, SETTINGS)
    parts, sheets = members(data), sheet_parts(data)
    results = parts[sheets[layout.RESULTS]].decode("utf-8")
    home = _letter(layout.RESULTS_HEADERS, "Home player")
    away = _letter(layout.RESULTS_HEADERS, "Away player")
    found = re.search(
        rf'<dataValidation sqref="{home}2:{home}20000 {away}2:{away}20000"[^>]*type="list">'
        r"<formula1>([^<]*)</formula1>",
        results,
    )
    assert found
    assert found.group(1) == "PlayerList"
    workbook = parts["xl/workbook.xml"].decode("utf-8")
    name = re.search(r'<definedName name="PlayerList">([^<]*)</definedName>', workbook)
    # The Players sheet's Name column (B) from row 2 down to the last name.
    assert name
    assert name.group(1) == "OFFSET('Players'!$B$2,0,0,MAX(1,COUNTA('Players'!$B:$B)-1),1)"


def test_rows_listed_on_exceptions_are_coloured() -> None:
    data = build_workbook()
    parts, sheets = members(data), sheet_parts(data)
    results = parts[sheets[layout.RESULTS]].decode("utf-8")
    rules = re.findall(r"<formula>([^<]*)</formula>", results)
    assert rules == [
        'COUNTIFS(ExceptionSheets,"Results",ExceptionRows,ROW(),ExceptionWhat,"default")&gt;0',
        'COUNTIFS(ExceptionSheets,"Results",ExceptionRows,ROW())&gt;0',
    ]
    workbook = parts["xl/workbook.xml"].decode("utf-8")
    for name, column in (("ExceptionSheets", "A"), ("ExceptionRows", "B"), ("ExceptionWhat", "C")):
        assert (
            f"<definedName name=\"{name}\">'Exceptions'!${column}:${column}</definedName>"
            in workbook
        )


def test_each_sheet_prints_its_table_with_the_header_on_every_page() -> None:
    workbook = members(build_workbook())["xl/workbook.xml"].decode("utf-8")
    sheets = re.findall(r'<sheet [^>]*name="([^"]+)"', workbook)
    areas = {
        sheets[int(i)]: area
        for i, area in re.findall(
            r'<definedName name="_xlnm.Print_Area" localSheetId="(\d+)">([^<]*)</definedName>',
            workbook,
        )
    }
    titles = {
        sheets[int(i)]: area
        for i, area in re.findall(
            r'<definedName name="_xlnm.Print_Titles" localSheetId="(\d+)">([^<]*)</definedName>',
            workbook,
        )
    }
    # The tables' last columns: Settings C (Meaning), Players Q (Last rated month), Results N
    # (Away points), the lists M (Note), the cards K (Note), Exceptions D (Why), Divisions M
    # (One team per division), Violations H (Why).
    assert areas == {
        "How to use": "'How to use'!$A:$A",
        "Settings": "'Settings'!$A:$C",
        "Players": "'Players'!$A:$AF",
        "Results": "'Results'!$A:$N",
        "Grading List": "'Grading List'!$A:$M",
        "Rapid List": "'Rapid List'!$A:$M",
        "Player Cards": "'Player Cards'!$A:$K",
        "Exceptions": "'Exceptions'!$A:$D",
        "Divisions": "'Divisions'!$A:$AM",
        "Violations": "'Violations'!$A:$H",
        "Grade History": "'Grade History'!$A$1:$K$18",
    }
    for sheet in (layout.SETTINGS, layout.PLAYERS, layout.RESULTS, *layout.OUTPUT_SHEETS):
        assert titles[sheet] == f"'{sheet}'!$1:$1"


def test_the_grade_history_chart_starts_at_zero_and_reads_the_grades() -> None:
    chart = members(build_workbook())["xl/charts/chart1.xml"].decode("utf-8")
    value_axis = re.search(r"<valAx>.*?</valAx>", chart, re.DOTALL)
    assert value_axis
    assert '<min val="0"' in value_axis.group(0)
    assert "<legend>" not in chart  # one series: its name is the axis title
    assert "'Grade History'!$B$5:$B$7" in chart  # start of season, estimate, this season
    assert "'Grade History'!$A$5:$A$7" in chart
    labels = re.search(r"<dLbls>.*?</dLbls>", chart, re.DOTALL)
    assert labels
    assert '<showVal val="1"' in labels.group(0)
    assert '<showSerName val="0"' in labels.group(0)


def test_a_second_recalculation_adds_no_cell_format(league: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.xlsm"
    assert main(["recalc", str(league), "--out", str(again)]) == 0
    before = members(league.read_bytes())["xl/styles.xml"]
    assert members(again.read_bytes())["xl/styles.xml"] == before
    template = members(build_workbook())["xl/styles.xml"]
    assert before == template  # the template carries them already


def test_a_books_own_styles_gain_the_formats_once() -> None:
    plain = (
        '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        '<fonts count="1"><font><sz val="10"/><name val="Arial"/></font></fonts>'
        '<fills count="2"><fill><patternFill patternType="none"/></fill>'
        '<fill><patternFill patternType="gray125"/></fill></fills>'
        '<borders count="1"><border/></borders>'
        '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
        "</cellXfs>"
        "</styleSheet>"
    )
    once, indexes = book_styles(plain)
    assert set(indexes) == set(STYLES)
    assert all(index >= 1 for index in indexes.values())  # the book's own format 0 is kept
    assert book_styles(once) == (once, indexes)
    # The bold font is the book's own (Arial 10), made bold.
    assert '<font><b val="1"/><sz val="10"/><name val="Arial"/></font>' in once
    count = re.search(r'<cellXfs count="(\d+)">', once)
    assert count
    assert int(count.group(1)) == len(re.findall(r"<xf\b", once.split("<cellXfs")[1]))


def _style(sheet: str, ref: str) -> int:
    found = re.search(r'\bs="(\d+)"', _cell(sheet, ref)[: _cell(sheet, ref).index(">")])
    return int(found.group(1)) if found else 0


def test_numbers_beside_a_longer_header_are_centred() -> None:
    # Printed at the right of its column, a number reads as the next column's (a board as part
    # of the player's name beside it, a junior's 10 as part of his Elo).
    book = ROOT / "workbook" / "example-league.xlsm"
    centred = _xfs_with(book, 'horizontal="center"')
    divisions = _sheet(book, layout.DIVISIONS)
    for header in ("Boards", "Max total", "Board order tolerance", "One team per division"):
        assert _style(divisions, f"{_letter(layout.DIVISIONS_HEADERS, header)}2") in centred
    violations = _sheet(book, layout.VIOLATIONS)
    assert _style(violations, f"{_letter(layout.VIOLATIONS_HEADERS, 'Board')}2") in centred
    listed = _sheet(book, layout.GRADING_LIST)
    for header in ("Category", "Junior", "Borrowed games"):
        assert _style(listed, f"{_letter(LIST_SHEET_HEADERS, header)}2") in centred
    assert _style(listed, f"{_letter(LIST_SHEET_HEADERS, 'Grade')}2") not in centred


def test_every_font_the_sheets_set_is_named() -> None:
    # A font without a name is printed by LibreOffice in its serif (the input sheets' headers).
    for name in ("example-league.xlsm", "example-league.xlsx"):
        styles = members((ROOT / "workbook" / name).read_bytes())["xl/styles.xml"].decode()
        fonts = re.search(r"<fonts\b.*?</fonts>", styles, re.DOTALL)
        assert fonts
        for font in re.findall(r"<font>.*?</font>|<font\b[^>]*/>", fonts.group(0), re.DOTALL):
            assert '<name val="Calibri"' in font, (name, font)


_AT = {h: i for i, h in enumerate(CARD_SHEET_HEADERS)}


def test_a_working_grade_with_binary_noise_is_a_whole_bracketed_grade_with_no_star() -> None:
    """README: a difference of exactly 40 is not "more than 40". Ned's working grade solved as
    146.00000000000003 and Pat's as 145.99999999999997 are both 146 on the card."""
    sheet = cards_sheet(recalculate(NOISE_PLAYERS, NOISE_GAMES, NOISE_SEASON))
    for name in ("Ann Able", "Bob Best"):
        r = next(r for r, row in enumerate(sheet.rows) if row[1] == name and row[_AT["Game"]] == 1)
        # Ann: opponent [146], a win 146 + 50 = 196, no horizon; Bob: 186 − 146 = 40 exactly.
        assert (sheet.rows[r][_AT["Opponent grade"]], sheet.rows[r][_AT["Points"]]) == (146, 196)
        assert sheet.styles[(r, _AT["Opponent grade"])] == "working"
        assert (r, _AT["Points"]) not in sheet.styles  # no star


def test_rapidplay_cards_follow_the_standard_ones_under_their_heading() -> None:
    """Smith beat Brown (graded 110) at rapidplay: 110 + 50 = 160 points; Brown lost to Smith
    (120): 120 − 50 = 70. His standard game, a draw with Green, is on the cards above."""
    day = dt.date(2025, 9, 1)
    games = [
        Game("210988J", "Ann Brown", "1-0", day, time_control="25+10", row=9),
        Game("210988J", "Tom Green", "½-½", day, time_control="60+30", row=10),
    ]
    rows = cards_sheet(recalculate(SEASON_PLAYERS, games)).rows
    split = [row[1] for row in rows].index(RAPID_CARDS)

    def played(block: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
        return [
            (row[1], row[_AT["Opponent"]], row[_AT["Result"]], row[_AT["Points"]])
            for row in block
            if row[_AT["Date"]] is not None
        ]

    assert played(rows[split + 1 :]) == [
        ("Smith, John", "Brown, Ann", 1.0, 160),
        ("Brown, Ann", "Smith, John", 0.0, 70),
    ]
    assert [r[:2] for r in played(rows[:split])] == [
        ("Smith, John", "Green, Tom"),
        ("Green, Tom", "Smith, John"),
    ]


def test_each_cell_is_written_as_its_kind_in_its_format() -> None:
    # ECMA-376 Part 1 § 18.3.1.4 (c), § 18.3.1.96 (v): a number is its value, a date its
    # serial from 1899-12-30 in a date format (2025-01-01 is 45658, so 2025-09-01 is
    # 45658 + 243 = 45901, and noon adds 0.5), a boolean t="b", text inline and escaped,
    # with xml:space="preserve" where it has spaces to keep (XML 1.0 § 2.10); a blank cell
    # is left out unless it has a format. A column of one kind and a column of several are
    # written alike; a format named for a cell past the end of its row is not a cell.
    rows = [
        ("Ann Smith", 1, 0.5, dt.date(2025, 9, 1), None),
        (True, float("nan"), dt.datetime(2025, 9, 1, 12), "a<b", 3),
        (" Ann",),
        ("Ann  Smith", None, None, "two\nlines"),
    ]
    marks = {(0, 2): "score", (0, 4): "label", (1, 4): "centre", (2, 3): "label"}
    formats = {"score": 7, "label": 8, "centre": 9, "date": 5}

    def text(ref: str, value: str, space: str = "") -> str:
        return f'<c r="{ref}" t="inlineStr"><is><t{space}>{value}</t></is></c>'

    kept = ' xml:space="preserve"'
    expected = (
        '<row r="2">'
        + text("A2", "Ann Smith")
        + '<c r="B2"><v>1</v></c><c r="C2" s="7"><v>0.5</v></c>'
        + '<c r="D2" s="5"><v>45901</v></c><c r="E2" s="8"/></row>'
        + '<row r="3"><c r="A3" t="b"><v>1</v></c>'
        + text("B3", "nan")
        + '<c r="C3" s="5"><v>45901.5</v></c>'
        + text("D3", "a&lt;b")
        + '<c r="E3" s="9"><v>3</v></c></row>'
        + '<row r="4">'
        + text("A4", " Ann", kept)
        + '</row><row r="5">'
        + text("A5", "Ann  Smith", kept)
        + text("D5", "two\nlines", kept)
        + "</row>"
    )
    written = sheet_xml(None, ("A", "B", "C", "D", "E"), rows, styles=formats, cell_styles=marks)
    data = re.search(r'<row r="1">.*?</row>(.*)</sheetData>', written.decode(), re.DOTALL)
    assert data
    assert data.group(1) == expected
    for block in (1, 2, 4096):  # written a few rows at a time, the part is the same
        pieces = sheet_xml_chunks(
            None, ("A", "B", "C", "D", "E"), rows, styles=formats, cell_styles=marks, block=block
        )
        assert b"".join(pieces) == written


def test_a_part_deflated_piece_by_piece_is_the_part() -> None:
    # RFC 1951 raw deflate, the zip member's CRC-32 and size (APPNOTE 4.4.7-4.4.9).
    content = [b"<row>" * 50_000, b"", "½ é".encode() * 1000, b"</sheetData>"]
    packed = deflate_chunks(iter(content))
    whole = b"".join(content)
    assert zlib.decompress(packed.packed, -15) == whole
    assert packed.crc == zlib.crc32(whole)
    assert packed.size == len(whole)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.xml", b"<a/>")
    local, record = new_part("b.xml", packed, 0)
    assert local[:4] == b"PK\x03\x04"
    assert struct.unpack("<III", record[16:28]) == (packed.crc, len(packed.packed), len(whole))
    book = assemble_package(buffer.getvalue(), {}, {"b.xml": packed})
    with zipfile.ZipFile(io.BytesIO(book)) as archive:
        assert archive.testzip() is None
        assert archive.read("b.xml") == whole
        assert archive.read("a.xml") == b"<a/>"


def test_a_rewritten_sheet_keeps_all_but_its_rows_however_it_was_stored() -> None:
    # ECMA-376 Part 1 § 18.3.1.99: a worksheet's rows are its <sheetData>; what comes before
    # (views, columns) and after it (merged cells, print settings) stays. Stored as UTF-8 or
    # UTF-16 (XML 1.0 § 4.3.3), its elements with a namespace prefix or without, the part is
    # rewritten the same.
    ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    plain = (
        f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{ns}"><sheetViews/>'
        '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Old ½</t></is></c></row>'
        '</sheetData><mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells>'
        "<pageSetup/></worksheet>"
    )
    prefixed = plain.replace("<", "<x:").replace("<x:/", "</x:").replace("<x:?", "<?")
    prefixed = prefixed.replace(f'xmlns="{ns}"', f'xmlns:x="{ns}"')
    for old in (plain, prefixed):
        x = "x:" if old is prefixed else ""
        expected = sheet_xml(old, ("Name",), [("New",)], styles={"header": 3})
        for stored in (old.encode(), old.replace("UTF-8", "UTF-16").encode("utf-16")):
            assert sheet_xml(stored, ("Name",), [("New",)], styles={"header": 3}) == expected
        text = expected.decode()
        assert "Old" not in text
        assert f'<{x}row r="2">' in text
        assert f"<{x}t>New</{x}t>" in text
        # Every row and cell is in the spreadsheet namespace, prefix or none (§ 18.3.1.4).
        root = ElementTree.fromstring(expected)
        cells = root.findall(f"{{{ns}}}sheetData/{{{ns}}}row/{{{ns}}}c")
        assert [c.get("r") for c in cells] == ["A1", "A2"]
        assert [c.findtext(f"{{{ns}}}is/{{{ns}}}t") for c in cells] == ["Name", "New"]
        assert text.endswith(
            f'</{x}sheetData><{x}mergeCells count="1"><{x}mergeCell ref="A1:B1"/></{x}mergeCells>'
            f"<{x}pageSetup/></{x}worksheet>"
        )
