"""Text a grader types that starts with "=" is kept as text in a built book, never a formula."""

import datetime as dt
import io
import zipfile

from xlgrade.model import Game, Player
from xlgrade.workbook import build, layout, package, relationships


def test_a_result_typed_as_equals_dash_equals_stays_text() -> None:
    players = [Player("A", grade=100.0), Player("B", grade=100.0)]
    games = [Game("A", "B", "=-=", dt.date(2025, 9, 1)), Game("B", "A", "1-0", dt.date(2025, 9, 8))]
    data = build.build_workbook(players, games)
    header, first, second, *_ = package.read_sheets(data, [layout.RESULTS])[layout.RESULTS]
    assert first[header.index("Result")] == "=-="
    assert second[header.index("Result")] == "1-0"
    with zipfile.ZipFile(io.BytesIO(data)) as book:
        parts = relationships.sheet_parts(data)
        sheet = book.read(parts[layout.RESULTS]).decode("utf-8")
    assert "<f>=-=</f>" not in sheet
    assert "<f>-=</f>" not in sheet


INJECTED = ('=HYPERLINK("http://x","y")', "+44 Club", "-Minus, Ann", "@SUM(A1)", "'Quoted, Bo")
"""Names and matches that Excel would run as a formula if typed, or strip the ``'`` of."""


def _formulas(data: bytes, sheet: str) -> str:
    """The formulas of a sheet's part (``<f>`` elements), joined."""
    import re

    with zipfile.ZipFile(io.BytesIO(data)) as book:
        xml = book.read(relationships.sheet_parts(data)[sheet]).decode("utf-8")
    return " ".join(re.findall(r"<f[^>]*>(.*?)</f>", xml))


def test_names_and_matches_like_formulas_stay_text_in_a_built_and_an_imported_book(
    tmp_path: object,
) -> None:
    from pathlib import Path

    from xlgrade.cli import main
    from xlgrade.formats.csvfile import write_results_csv

    players = [Player(name, grade=100.0 + i) for i, name in enumerate(INJECTED)]
    games = [
        Game(INJECTED[i], INJECTED[i - 1], "1-0", dt.date(2025, 9, 1 + i), match=INJECTED[i])
        for i in range(len(INJECTED))
    ]
    data = build.build_workbook(players, games)
    sheets = package.read_sheets(data, [layout.PLAYERS, layout.RESULTS])
    names = [row[sheets[layout.PLAYERS][0].index("Name")] for row in sheets[layout.PLAYERS]]
    results = sheets[layout.RESULTS]
    matches = [row[results[0].index("Match")] for row in results]
    assert names[1:] == matches[1:] == list(INJECTED)
    for sheet in (layout.PLAYERS, layout.RESULTS):
        assert not any(text in _formulas(data, sheet) for text in INJECTED)
    # The same rows imported into an empty book: the importer's own sheet writer.
    folder = Path(str(tmp_path))
    book = folder / "league.xlsm"
    book.write_bytes(build.build_workbook(players))
    source = folder / "results.csv"
    source.write_text(write_results_csv(games), encoding="utf-8")
    assert main(["import", str(source), "--into", str(book)]) == 0
    imported = book.read_bytes()
    results = package.read_sheets(imported, [layout.RESULTS])[layout.RESULTS]
    assert [row[results[0].index("Match")] for row in results][1:] == list(INJECTED)
    assert not any(text in _formulas(imported, layout.RESULTS) for text in INJECTED)
