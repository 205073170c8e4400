"""``xlgrade ratings LIST --into BOOK|FOLDER``, on copies of the example league in a temporary
folder and rating lists written by hand under the ECF's published header (rows made up; check
letters worked out as in tests/formats/test_ratinglist.py)."""

from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

import pytest

from tests.league import CROYDON, ONE_MATCH, write_league
from tests.paths import EXAMPLES, ROOT
from xlgrade.cli import main
from xlgrade.generate import generate_league, generate_rating_list
from xlgrade.model import Game, Player
from xlgrade.settings import Settings
from xlgrade.teams import Division
from xlgrade.workbook.container import assemble_package, package_members, read_part
from xlgrade.workbook.inputs import book_sheets
from xlgrade.workbook.package import read_sheets

EXAMPLE = ROOT / "workbook" / "example-league.xlsm"
HEADER = (ROOT / "tests" / "data" / "ecf" / "rating-list-header-2022-10.csv").read_text(
    encoding="utf-8"
)
"""The ECF's published header (October 2022 layout, with ``title``)."""
NOT_KEPT = (
    "not kept by month: {name} names no month (give --month 2026-01 to keep it in {kept} for "
    "divisions that take a named list or the one in force)"
)
"""What ``xlgrade ratings`` says of a list of no known month."""
BLANK_ONLINE = ',"","","",""' * 3
"""The three online lists' cells of a row, blank."""


def _listed(
    code: str,
    name: str,
    standard: str,
    rapid: str,
    blitz: str = ',"","","",""',
    member: str = "",
) -> str:
    """A row of the list: ``standard``, ``rapid`` and ``blitz`` are each four cells after a
    comma (original, its category, revised, its category); ``member`` the member number."""
    return (
        f'"{code}","{name}",{member},,"M","ENG"{standard}{rapid}{blitz}{BLANK_ONLINE},"ANY1",'
        '"Any",""\n'
    )


def _folder(tmp_path: Path, players: str) -> Path:
    folder = tmp_path / "league"
    folder.mkdir()
    (folder / "players.csv").write_text(players, encoding="utf-8")
    return folder


def test_a_folders_players_get_their_ratings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 123456A and 111111F are valid (77 → A, 27 → F); 100000H is valid (7 → H) but not listed;
    # 123456B fails its check letter.
    listed = tmp_path / "list.csv"
    listed.write_text(
        HEADER
        + _listed("123456A", "Smith, John", ',1650,"K",1662,"K"', ',1580,"P",1590,"P"')
        + _listed("111111F", "Jones, Ann", ',2005,"A",2005,"A"', ',"","","",""'),
        encoding="utf-8",
    )
    folder = _folder(
        tmp_path,
        "Code;Name;Grade;Notes\r\n"
        "123456A;John Smith;127;keen\r\n"
        "111111F;Jones, Anne;174;\r\n"
        "100000H;White, Eve;90;\r\n"
        "123456B;Black, Ed;;\r\n"
        ";Grey, Fay;;\r\n",
    )
    assert main(["ratings", str(listed), "--into", str(folder)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "list.csv (ECF rating list, October 2022 layout): 2 rows: 2 players, 0 refused",
        f"{folder}: 5 players: 2 filled with the original ratings, 1 not on the list, 1 with a "
        "bad code, 1 without a code",
        "not on the list: players.csv line 4: 100000H 'White, Eve'",
        "bad code: players.csv line 5: 'Black, Ed': ECF code '123456B' fails its check letter "
        "(123456 needs 'A')",
        "no code: players.csv line 6: 'Grey, Fay'",
        "check the name: players.csv line 3: 'Jones, Anne' is 'Jones, Ann' on the list",
        "standard: 1 A, 1 K, 0 P, 0 without a category, 0 with no standard rating",
        "rapid: 0 A, 0 K, 1 P, 0 without a category, 1 with no rapid rating",
        "blitz: no 'ECF blitz rating' and 'ECF blitz category' columns: not filled",
        "ECF member: 0 yes (a member number on the list), 2 no",
        NOT_KEPT.format(name="list.csv", kept="ratings.csv"),
        f"Wrote {folder}",
    ]
    # Neither has a member number on the list: not members; the rows not on it left blank.
    # A name holding another locale's separator (the comma) is quoted, as every CSV cell is.
    assert (folder / "players.csv").read_bytes().decode("utf-8") == (
        "Code;Name;Grade;Notes;ECF rating;ECF category;ECF rapid rating;ECF rapid category;"
        "ECF member\r\n"
        "123456A;John Smith;127;keen;1650;K;1580;P;no\r\n"
        '111111F;"Jones, Anne";174;;2005;A;;;no\r\n'
        '100000H;"White, Eve";90;\r\n'
        '123456B;"Black, Ed";;\r\n'
        ';"Grey, Fay";;\r\n'
    )
    assert main(["ratings", str(listed), "--into", str(folder), "--revised"]) == 0
    lines = (folder / "players.csv").read_text(encoding="utf-8").splitlines()
    assert lines[1] == "123456A;John Smith;127;keen;1662;K;1590;P;no"


def test_a_books_players_get_their_ratings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "league.xlsm"
    shutil.copy(EXAMPLE, book)
    before = read_sheets(book, ["Players"])["Players"]
    made = generate_rating_list(generate_league())  # the example book's league
    listed = tmp_path / "ratings.csv"
    listed.write_text(made.text, encoding="utf-8")
    assert main(["ratings", str(listed), "--into", str(book)]) == 0
    out = capsys.readouterr().out
    assert "not on the list: Players row " in out
    for code in made.left_out:
        assert code in out
    after = read_sheets(book, ["Players"])["Players"]
    header = after[0]
    at = {h: header.index(h) for h in ("Code", "ECF rating", "ECF category", "ECF rapid rating")}
    lines = {row[0]: row for row in csv.reader(made.text.splitlines()[1:])}
    filled = 0
    for old, new in zip(before[1:], after[1:], strict=True):
        code = new[at["Code"]]
        assert new[: at["ECF rating"]] == old[: at["ECF rating"]]  # the grading columns kept
        if code in lines:
            assert new[at["ECF rating"]] == float(lines[code][6])
            assert new[at["ECF category"]] == lines[code][7]
            filled += 1
        else:
            assert new[at["ECF rating"]] is None
    assert filled == len(after) - 1 - len(made.left_out) - sum(
        1 for row in after[1:] if not row[at["Code"]]
    )
    assert main(["recalc", str(book)]) == 0  # the book still grades


def test_a_list_and_a_players_csv_not_in_utf8_are_said_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "Müller" saved by a spreadsheet in Windows-1252: ü is the byte 0xFC, on the list's
    # second line (after its header) and on players.csv's second line.
    listed = tmp_path / "list.csv"
    listed.write_bytes(
        (HEADER + _listed("123456A", "Müller, Jan", ',1650,"K",1662,"K"', ',"","","",""')).encode(
            "cp1252"
        )
    )
    folder = tmp_path / "league"
    folder.mkdir()
    (folder / "players.csv").write_bytes('Code,Name\n123456A,"Müller, Jan"\n'.encode("cp1252"))
    assert main(["ratings", str(listed), "--into", str(folder)]) == 0
    out = capsys.readouterr().out.splitlines()
    read_as = (
        "read as Windows-1252, so check its accented letters; save the file as UTF-8 to be sure"
    )
    assert out[0] == f"note: list.csv: not UTF-8 (byte 0xFC on line 2 is not UTF-8): {read_as}"
    players = folder / "players.csv"
    assert f"note: {players}: not UTF-8 (byte 0xFC on line 2 is not UTF-8): {read_as}" in out
    # Read as Windows-1252, written back as UTF-8 with the rating filled.
    assert (
        players.read_text(encoding="utf-8")
        .splitlines()[1]
        .startswith('123456A,"Müller, Jan",1650,K')
    )


def test_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    listed = tmp_path / "list.csv"
    listed.write_text(HEADER, encoding="utf-8")
    players = EXAMPLES / "league" / "players.csv"
    assert main(["ratings", str(players), "--into", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"Error: {players}: not an ECF rating list (its header has no ECF_code, full_name and "
        "rating columns such as original_standard)\n"
    )
    assert main(["ratings", str(listed), "--into", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"Error: {tmp_path}: no players.csv there, nor a workbook (.xlsm, .xlsx)\n"
    )
    # A book from before the rating columns: refused, the book left as it was.
    old = tmp_path / "old.xlsm"
    data = _patched(EXAMPLE.read_bytes(), "<t>ECF rating</t>", "<t>Standard rating</t>")
    old.write_bytes(data)
    assert main(["ratings", str(listed), "--into", str(old)]) == 1
    assert capsys.readouterr().err == (
        f"Error: {old}: the Players sheet has no column headed 'ECF rating': add them (a book "
        "made from this version's template has them)\n"
    )
    assert old.read_bytes() == data


def _patched(data: bytes, old: str, new: str) -> bytes:
    """The book with ``old`` replaced by ``new`` in its Players sheet's XML."""
    part = book_sheets(data)["Players"]
    members = {m.name: m for m in package_members(data)[0]}
    text = read_part(data, members[part]).decode()
    assert old in text
    return assemble_package(data, {part: text.replace(old, new, 1).encode()}, {}, frozenset())


def test_the_graders_own_columns_stay_on_their_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A value in a column of the grader's own (T2, on the first player's row): the rows are
    # refilled where they stand, so it stays on that player's row and nothing is lost.
    book = tmp_path / "league.xlsm"
    book.write_bytes(
        _patched(
            EXAMPLE.read_bytes(),
            '</row><row r="3">',
            '<c r="T2" t="inlineStr"><is><t>moved</t></is></c></row><row r="3">',
        )
    )
    before = read_sheets(book, ["Players"])["Players"]
    listed = tmp_path / "list.csv"
    listed.write_text(generate_rating_list(generate_league()).text, encoding="utf-8")
    assert main(["ratings", str(listed), "--into", str(book)]) == 0
    after = read_sheets(book, ["Players"])["Players"]
    assert after[1][19] == "moved"
    assert [row[:12] for row in after[1:]] == [row[:12] for row in before[1:]]
    rating = list(after[0]).index("ECF rating")
    assert sum(isinstance(row[rating], int | float) for row in after[1:]) > 0


def test_a_book_that_cannot_be_rewritten_is_left_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A value below the Players table, where rows would go: refused, the book untouched.
    book = tmp_path / "league.xlsm"
    patched = _patched(
        EXAMPLE.read_bytes(),
        "</sheetData>",
        '<row r="9000"><c r="B9000" t="inlineStr"><is><t>stray</t></is></c></row></sheetData>',
    )
    book.write_bytes(patched)
    listed = tmp_path / "list.csv"
    listed.write_text(generate_rating_list(generate_league()).text, encoding="utf-8")
    assert main(["ratings", str(listed), "--into", str(book)]) == 1
    assert "Players cell B9000 ('stray') is below the sheet's table" in capsys.readouterr().err
    assert book.read_bytes() == patched


def _rated_folder(tmp_path: Path) -> Path:
    """A folder of three players rated month by month (the README's worked example)."""
    folder = tmp_path / "rated"
    folder.mkdir()
    (folder / "settings.csv").write_text(
        "Setting,Value\nSeason name,2025-26\nSeason start,2025-09-01\nSeason end,2026-08-31\n"
        "System,ECF rating (2020 rules)\n",
        encoding="utf-8",
    )
    (folder / "players.csv").write_text(
        "Code,Name,ECF rating,ECF category\n"
        '123456A,"Able, Ann",1600,K\n,"Best, Bob",1600,K\n,"Cole, Cy",,\n',
        encoding="utf-8",
    )
    (folder / "results.csv").write_text(
        "Date,Home player,Result,Away player\n"
        '2025-09-10,123456A,1-0,"Best, Bob"\n'
        '2025-09-12,"Cole, Cy",1-0,123456A\n'
        '2025-09-20,"Cole, Cy",½-½,"Best, Bob"\n'
        ',"Cole, Cy",1-0,123456A\n',
        encoding="utf-8",
    )
    return folder


def test_a_folder_rated_month_by_month(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Worked by hand in tests/season/test_rating_season.py: Cy 1792 (P), Ann 1605, Bob 1595
    # (Cy's games counting in full, as the newer help page has it).
    folder = _rated_folder(tmp_path)
    assert main(["season", str(folder)]) == 0
    assert capsys.readouterr().out == (
        "Standard rating list 2025-26\n"
        "Code     Name       Club  Games  Rating  Category  Change  Monthly path\n"
        "         Cole, Cy             2    1792  P                 1792\n"
        "123456A  Able, Ann            2    1605  K              5  1600 → 1605\n"
        "         Best, Bob            2    1595  K             -5  1600 → 1595\n"
        "4 result rows: 3 rated, 0 rapidplay, 1 not rated (1 no date)\n"
    )


def test_the_rating_card_as_a_grader_checks_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Ann: v Bob (D 0) .50, v Cy at his pass-2 figure 1792 (D 192, 189–197) .25, both at k 20:
    # 20 × (1 − (.50 + .25)) = +5.
    # Cy: Ra = (1600 + 1600 + 1800) / 3 = 1666.67, p = (1½ + ½) / 3 = .67, dp +125.
    folder = _rated_folder(tmp_path)
    assert main(["season", str(folder), "--card", "123456A"]) == 0
    assert capsys.readouterr().out == (
        "Able, Ann — ECF rating, standard play\n"
        "Start of the season: 1600, category K\n"
        "\n"
        "2025-09: K method, from 1600, k 20\n"
        "  Game  Date        Opponent                  Res  Opp rating  Exp  Change\n"
        "     1  2025-09-10  Best, Bob                   1        1600  0.50  +10.00\n"
        "     2  2025-09-12  Cole, Cy                    0        1792  0.25  -5.00\n"
        "  W = 1, We = 0.75: 20 × (1 − 0.75) = +5.00 → +5\n"
        "  1600 +5 = 1605, category K\n"
        "\n"
        "Monthly path: 1600 → 1605\n"
        "After the season: 1605, category K\n"
    )
    assert main(["season", str(folder), "--card", "Cole, Cy"]) == 0
    assert capsys.readouterr().out == (
        "Cole, Cy — ECF rating, standard play\n"
        "Start of the season: none\n"
        "\n"
        "2025-09: P method\n"
        "  Game  Date        Opponent                  Res  Opp rating\n"
        "     1  2025-09-12  Able, Ann                   1        1600\n"
        "     2  2025-09-20  Best, Bob                   ½        1600\n"
        "  2 games, and a fictional draw against 1800\n"
        "  Ra = (3200 + 1800) / 3 = 1666.67; p = (1½ + ½) / 3 = 0.67; dp = +125\n"
        "  Ra + dp = 1792 (partial; pass A 1792), category P\n"
        "\n"
        "Monthly path: 1792\n"
        "After the season: 1792, category P\n"
    )


def test_a_p_player_from_the_list_is_rated_by_the_p_method(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 111111F (27 → F) and 210988J (96 → J) as in tests/formats/test_ratinglist.py.
    listed = tmp_path / "list.csv"
    listed.write_text(
        HEADER
        + _listed("123456A", "Able, Ann", ',1600,"K",1600,"K"', ',"","","",""')
        + _listed("210988J", "Best, Bob", ',1600,"K",1600,"K"', ',"","","",""')
        + _listed(
            "111111F", "Cole, Cy", ',1700,"P",1700,"P"', ',"","","",""', ',1500,"P",1500,"P"'
        ),
        encoding="utf-8",
    )
    folder = _rated_folder(tmp_path)
    (folder / "players.csv").write_text(
        "Code,Name,ECF blitz rating,ECF blitz category\n"
        '123456A,"Able, Ann",,\n210988J,"Best, Bob",,\n111111F,"Cole, Cy",,\n',
        encoding="utf-8",
    )
    (folder / "results.csv").write_text(
        "Date,Home player,Result,Away player\n"
        "2025-09-10,123456A,1-0,210988J\n"
        "2025-09-12,111111F,1-0,123456A\n"
        "2025-09-20,111111F,½-½,210988J\n",
        encoding="utf-8",
    )
    assert main(["ratings", str(listed), "--into", str(folder)]) == 0
    assert capsys.readouterr().out.splitlines()[-6:] == [
        "standard: 0 A, 2 K, 1 P, 0 without a category, 0 with no standard rating",
        "rapid: 0 A, 0 K, 0 P, 0 without a category, 3 with no rapid rating",
        "blitz: 0 A, 0 K, 1 P, 0 without a category, 2 with no blitz rating",
        "ECF member: 0 yes (a member number on the list), 3 no",
        NOT_KEPT.format(name=listed.name, kept="ratings.csv"),
        f"Wrote {folder}",
    ]
    assert (folder / "players.csv").read_text(encoding="utf-8").splitlines() == [
        "Code,Name,ECF blitz rating,ECF blitz category,ECF rating,ECF category,"
        "ECF rapid rating,ECF rapid category,ECF member",
        '123456A,"Able, Ann",,,1600,K,,,no',
        '210988J,"Best, Bob",,,1600,K,,,no',
        '111111F,"Cole, Cy",1500,P,1700,P,,,no',
    ]
    # Cy is P on the list, on earlier games the list does not count: the setting P games not
    # given (5) stands for them, at his 1700 scoring 2½ (docs/rules.md §12). With this month's
    # two games and the fictional draw: Ra = (5 × 1700 + 1600 + 1600 + 1800) / 8 = 1687.5,
    # p = (2½ + 1½ + ½) / 8 = .5625 → .56, dp +43 (table 8.1a) → 1730.5 → 1731, partial on 7.
    assert main(["season", str(folder), "--card", "111111F"]) == 0
    assert capsys.readouterr().out == (
        "Cole, Cy — ECF rating, standard play\n"
        "Start of the season: 1700, category P, on 5 earlier games (opposition 1700, score 2½)\n"
        "\n"
        "2025-09: P method\n"
        "  Game  Date        Opponent                  Res  Opp rating\n"
        "     1  2025-09-12  Able, Ann                   1        1600\n"
        "     2  2025-09-20  Best, Bob                   ½        1600\n"
        "  7 games, 5 of them before this month (opponents 8500, score 2½), and a fictional "
        "draw against 1800\n"
        "  Ra = (11700 + 1800) / 8 = 1687.50; p = (4 + ½) / 8 = 0.56; dp = +43\n"
        "  Ra + dp = 1731 (partial; pass A 1731), category P\n"
        "\n"
        "Monthly path: 1700 → 1731\n"
        "After the season: 1731, category P\n"
    )
    # Ann is K: the K method from her 1600, Cy at his pass-2 figure 1731 (D 131, We .32; Bob
    # .50), both games at k 20: 20 × (1 − .82) = +3.6 → +4.
    assert main(["season", str(folder), "--card", "123456A"]) == 0
    card = capsys.readouterr().out
    assert "2025-09: K method, from 1600, k 20\n" in card
    assert "  W = 1, We = 0.82: 20 × (1 − 0.82) = +3.60 → +4\n" in card


def test_columns_of_neither_layout_are_named_and_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = tmp_path / "list.csv"
    row = _listed("123456A", "Smith, John", ',1650,"K",1662,"K"', ',"","","",""')
    listed.write_text(HEADER.strip() + ',"region"\n' + row.strip() + ',"North"\n', encoding="utf-8")
    folder = _folder(tmp_path, 'Code,Name\n123456A,"Smith, John"\n')
    assert main(["ratings", str(listed), "--into", str(folder)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == [
        "list.csv (ECF rating list, October 2022 layout): 1 rows: 1 players, 0 refused",
        "columns not read: region",
    ]
    assert (folder / "players.csv").read_text(encoding="utf-8").splitlines()[1] == (
        '123456A,"Smith, John",1650,K,,,no'
    )


# Croydon: "September ratings for eligibility, the live rating for board order". Codes worked
# out above, and 222222: 54 → 10 → L; 200000: 14 → 3 → D.
CROYDON_PLAYERS = [
    Player("Ash, Ann", code="123456A", row=2),
    Player("Graham, Amelia", code="111111F", row=3),
    Player("Kay, Malcolm", code="222222L", row=4),
    Player("Elm, Eve", code="210988J", row=5),
    Player("Fir, Fay", code="200000D", row=6),
    Player("Oak, Olly", code="100000H", ecf_member=True, row=7),  # on neither list
]
SEPTEMBER = (
    HEADER
    + _listed("123456A", "Ash, Ann", ',1800,"K",1800,"K"', ',"","","",""', member="1001")
    + _listed("111111F", "Graham, Amelia", ',1700,"K",1700,"K"', ',"","","",""')
    + _listed("222222L", "Kay, Malcolm", ',1740,"K",1740,"K"', ',"","","",""', member="1003")
    + _listed("210988J", "Elm, Eve", ',1500,"K",1500,"K"', ',"","","",""', member="1004")
    + _listed("200000D", "Fir, Fay", ',1550,"P",1550,"P"', ',"","","",""')
)
JANUARY = (
    HEADER
    + _listed("123456A", "Ash, Ann", ',1800,"K",1800,"K"', ',"","","",""', member="1001")
    + _listed("111111F", "Graham, Amelia", ',1640,"K",1640,"K"', ',"","","",""', member="1002")
    + _listed("222222L", "Kay, Malcolm", ',1760,"K",1760,"K"', ',"","","",""', member="1003")
    + _listed("210988J", "Elm, Eve", ',1500,"K",1500,"K"', ',"","","",""', member="1004")
    + _listed("200000D", "Fir, Fay", ',1560,"K",1560,"K"', ',"","","",""')
)


def _players_table(where: Path) -> dict[str, dict[str, object]]:
    """Each player's cells by heading, from the book's Players sheet or the players.csv."""
    if where.suffix == ".xlsm":
        rows = [
            ["" if v is None else v for v in r] for r in read_sheets(where, ["Players"])["Players"]
        ]
    else:
        rows = list(csv.reader((where / "players.csv").read_text(encoding="utf-8").splitlines()))
    header = [str(h) for h in rows[0]]
    return {str(r[header.index("Name")]): dict(zip(header, r, strict=False)) for r in rows[1:]}


def _number(value: object) -> float | None:
    return None if value in ("", None) else float(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["book", "folder"])
def test_a_fixed_list_then_the_latest_for_board_order(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = Settings(season_start=dt.date(2025, 6, 1), season_end=dt.date(2026, 5, 31))
    where = write_league(tmp_path, kind, CROYDON_PLAYERS, ONE_MATCH, settings, [CROYDON])
    september, january = tmp_path / "ratings-2025-09.csv", tmp_path / "ratings-2026-01.csv"
    september.write_text(SEPTEMBER, encoding="utf-8")
    january.write_text(JANUARY, encoding="utf-8")

    assert main(["ratings", str(september), "--into", str(where)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "standard: 0 A, 4 K, 1 P, 0 without a category, 0 with no standard rating" in out
    assert "ECF member: 3 yes (a member number on the list), 2 no" in out
    table = _players_table(where)
    assert {name: _number(row["ECF rating"]) for name, row in table.items()} == {
        "Ash, Ann": 1800, "Graham, Amelia": 1700, "Kay, Malcolm": 1740, "Elm, Eve": 1500,
        "Fir, Fay": 1550, "Oak, Olly": None,
    }  # fmt: skip
    assert {
        name: _number(row["Latest ECF rating"]) for name, row in table.items()
    } == dict.fromkeys(table)
    # A member number on the list: yes; none: no; Oak is not on it and keeps his yes.
    assert {name: row["ECF member"] for name, row in table.items()} == {
        "Ash, Ann": "yes", "Graham, Amelia": "no", "Kay, Malcolm": "yes", "Elm, Eve": "yes",
        "Fir, Fay": "no", "Oak, Olly": "yes",
    }  # fmt: skip
    assert main(["eligibility", str(where)]) == 0
    whys = [line.split("  ")[-1].strip() for line in capsys.readouterr().out.splitlines()[1:-1]]
    # No latest rating yet: board order has no figure to compare.
    assert whys == ["board 1, Ash, Ann (1800) is over the maximum rating 1790; by the ECF rating"]

    assert main(["ratings", str(january), "--into", str(where), "--latest"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert (
        f"{where}: 6 players: 5 filled with the original ratings as the latest, 1 not on the "
        "list, 0 with a bad code, 0 without a code"
    ) in out
    assert (
        "standard (latest): 0 A, 5 K, 0 P, 0 without a category, 0 with no standard rating" in out
    )
    assert "ECF member: 4 yes (a member number on the list), 1 no" in out
    table = _players_table(where)
    # The fixed figures are September's still; the latest are January's.
    assert _number(table["Graham, Amelia"]["ECF rating"]) == 1700
    assert table["Fir, Fay"]["ECF category"] == "P"
    assert {name: _number(row["Latest ECF rating"]) for name, row in table.items()} == {
        "Ash, Ann": 1800, "Graham, Amelia": 1640, "Kay, Malcolm": 1760, "Elm, Eve": 1500,
        "Fir, Fay": 1560, "Oak, Olly": None,
    }  # fmt: skip
    assert table["Graham, Amelia"]["ECF member"] == "yes"  # January gives him a number
    assert main(["eligibility", str(where)]) == 0
    whys = [line.split("  ")[-1].strip() for line in capsys.readouterr().out.splitlines()[1:-1]]
    assert whys == [
        # Eligibility by September's list: Ash 1800 > 1790. Board order by the latest: Kay
        # 1760 − Graham 1640 = 120 > 100 (by September's, 1740 − 1700 = 40). Hull: Fir 1560 −
        # Elm 1500 = 60.
        "board 1, Ash, Ann (1800) is over the maximum rating 1790; by the ECF rating",
        "board 3, Kay, Malcolm (1760) is more than 100 above Graham, Amelia (1640) on board 2; "
        "by the latest ECF rating",
    ]


def _two_months(x: tuple[int, int], y: tuple[int, int]) -> tuple[str, str]:
    """September's and January's lists giving Ash (X) and Graham (Y) these standard ratings
    (September's, January's); Elm and Fir 1500 and 1550 on both."""
    lists = []
    for month in (0, 1):
        lists.append(
            HEADER
            + _listed("123456A", "Ash, Ann", f',{x[month]},"K",{x[month]},"K"', ',"","","",""')
            + _listed(
                "111111F", "Graham, Amelia", f',{y[month]},"K",{y[month]},"K"', ',"","","",""'
            )
            + _listed("210988J", "Elm, Eve", ',1500,"K",1500,"K"', ',"","","",""')
            + _listed("200000D", "Fir, Fay", ',1550,"K",1550,"K"', ',"","","",""')
        )
    return lists[0], lists[1]


def _ratings_table(where: Path) -> list[dict[str, object]]:
    if where.suffix == ".xlsm":
        rows = [
            ["" if v is None else v for v in r] for r in read_sheets(where, ["Ratings"])["Ratings"]
        ]
    else:
        rows = list(csv.reader((where / "ratings.csv").read_text(encoding="utf-8").splitlines()))
    header = [str(h) for h in rows[0]]
    return [dict(zip(header, r, strict=False)) for r in rows[1:]]


@pytest.mark.parametrize("kind", ["book", "folder"])
def test_each_match_judged_by_the_list_its_division_names(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # X (Ash) 1850 above Y (Graham) 1750 on 20 September is in order by September's list;
    # January's list has Y 1900 and X 1780. Croydon: the limits by "the September list", board
    # order by "the live monthly rating"; Devon: board order by "the ones most recently
    # published before the match".
    division = Division(
        "Division 1",
        max_grade=1800,
        board_order_tolerance=100,
        eligibility_figure="rating",
        rating_list="September 2025",
        board_order_list="match date",
    )
    games = [
        Game(home, away, "1-0", day, "Division 1", match, board)
        for day, match in (
            (dt.date(2025, 9, 20), "Redmire A v Hull A"),
            (dt.date(2026, 1, 20), "Hull A v Redmire A"),
        )
        for board, home, away in (
            ((1, "Ash, Ann", "Elm, Eve"), (2, "Graham, Amelia", "Fir, Fay"))
            if match.startswith("Redmire")
            else ((1, "Elm, Eve", "Ash, Ann"), (2, "Fir, Fay", "Graham, Amelia"))
        )
    ]
    settings = Settings(season_start=dt.date(2025, 6, 1), season_end=dt.date(2026, 5, 31))
    where = write_league(tmp_path, kind, CROYDON_PLAYERS, games, settings, [division])
    september, january = _two_months((1850, 1780), (1750, 1900))
    (tmp_path / "ratings-2025-09.csv").write_text(september, encoding="utf-8")
    (tmp_path / "ecf-list.csv").write_text(january, encoding="utf-8")

    assert main(["ratings", str(tmp_path / "ratings-2025-09.csv"), "--into", str(where)]) == 0
    out = capsys.readouterr().out
    assert "as the September 2025 list: 4 players" in out
    # A list whose name gives no month is filled, not kept, and said so; --month keeps it.
    january_list = tmp_path / "ecf-list.csv"
    assert main(["ratings", str(january_list), "--into", str(where)]) == 0
    assert "not kept by month: ecf-list.csv names no month" in capsys.readouterr().out
    assert main(["ratings", str(january_list), "--into", str(where), "--month", "2026-01"]) == 0
    assert "as the January 2026 list: 4 players" in capsys.readouterr().out
    kept = {(row["Code"], row["List"]): _number(row["ECF rating"]) for row in _ratings_table(where)}
    assert kept == {
        ("123456A", "2025-09"): 1850, ("111111F", "2025-09"): 1750, ("210988J", "2025-09"): 1500,
        ("200000D", "2025-09"): 1550, ("123456A", "2026-01"): 1780, ("111111F", "2026-01"): 1900,
        ("210988J", "2026-01"): 1500, ("200000D", "2026-01"): 1550,
    }  # fmt: skip
    # The Players' ECF rating is January's now (the last list loaded); the division's lists
    # are not: the September match is in order, and no maximum is broken by January's 1900.
    assert _number(_players_table(where)["Graham, Amelia"]["ECF rating"]) == 1900
    assert main(["eligibility", str(where)]) == 0
    whys = [line.split("  ")[-1].strip() for line in capsys.readouterr().out.splitlines()[1:-1]]
    assert whys == [
        # September's list, both matches: Ash 1850 > 1800.
        "board 1, Ash, Ann (1850) is over the maximum rating 1800; by the ECF rating of the "
        "September 2025 list",
        "board 1, Ash, Ann (1850) is over the maximum rating 1800; by the ECF rating of the "
        "September 2025 list",
        # January's list on 20 January: Graham 1900 − Ash 1780 = 120 > 100.
        "board 2, Graham, Amelia (1900) is more than 100 above Ash, Ann (1780) on board 1; by "
        "the ECF rating of the January 2026 list",
    ]
    # Loading September again replaces its rows only.
    assert main(["ratings", str(tmp_path / "ratings-2025-09.csv"), "--into", str(where)]) == 0
    assert len(_ratings_table(where)) == 8
