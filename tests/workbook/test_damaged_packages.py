"""Damaged and hostile workbook packages end in ``Error: BOOK: …`` naming the file, before any
work and without a traceback: no content types, relationships to a missing part, damaged
deflate data, an encrypted book, an old ``.xls``, an ``.ods``, a zip bomb, a cell far out,
a sheet that does not parse or is cut short, a part whose checksum does not match (none is
copied into a book said to be written); an output sheet stored as UTF-16 (which the format
allows) is rewritten as UTF-8."""

from __future__ import annotations

import codecs
import io
import struct
import warnings
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.league import build_league
from xlgrade.cli import main
from xlgrade.errors import FormatError
from xlgrade.workbook import container
from xlgrade.workbook.container import MAX_PART_BYTES, package_members, read_part
from xlgrade.workbook.package import read_sheets, sheet_extent
from xlgrade.workbook.relationships import sheet_parts

OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def _rewritten(data: bytes, change: Callable[[str, bytes], bytes | None]) -> bytes:
    """The package with each part passed through ``change`` (``None`` drops it)."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as book:
        for info in source.infolist():
            content = change(info.filename, source.read(info))
            if content is not None:
                book.writestr(info.filename, content)
    return out.getvalue()


def _with_cell(data: bytes, sheet: str, cell: str) -> bytes:
    """The package with ``cell`` (XML of a row) added at the end of ``sheet``."""
    part = sheet_parts(data)[sheet]
    return _rewritten(
        data,
        lambda name, content: (
            content.replace(b"</sheetData>", cell.encode() + b"</sheetData>")
            if name == part
            else content
        ),
    )


def _recalc(tmp_path: Path, data: bytes, capsys: pytest.CaptureFixture[str]) -> str:
    """``xlgrade recalc`` of ``data``: its last line of standard error; the book unchanged."""
    book = tmp_path / "league.xlsm"
    book.write_bytes(data)
    assert main(["recalc", str(book)]) == 1
    assert book.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "base") == ["league.xlsm"]
    return capsys.readouterr().err.splitlines()[-1]


@pytest.fixture
def league(tmp_path: Path) -> bytes:
    (tmp_path / "base").mkdir()
    return build_league(tmp_path / "base").read_bytes()


def test_no_content_types_is_refused(
    tmp_path: Path, league: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _rewritten(league, lambda n, c: None if n == "[Content_Types].xml" else c)
    assert _recalc(tmp_path, data, capsys) == (
        f"Error: {tmp_path / 'league.xlsm'}: not a workbook: the package has no "
        "'[Content_Types].xml' (it is damaged; Excel would not open it either)"
    )


def test_a_relationship_to_a_missing_part_is_refused(
    tmp_path: Path, league: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    results = sheet_parts(league)["Results"]
    data = _rewritten(league, lambda n, c: None if n == results else c)
    assert _recalc(tmp_path, data, capsys) == (
        f"Error: {tmp_path / 'league.xlsm'}: the sheet 'Results' has no part {results!r} in "
        "the package"
    )
    data = _rewritten(league, lambda n, c: None if n == "xl/_rels/workbook.xml.rels" else c)
    assert _recalc(tmp_path, data, capsys) == (
        f"Error: {tmp_path / 'league.xlsm'}: the package has no part "
        "'xl/_rels/workbook.xml.rels', though it refers to it"
    )


def test_damaged_deflate_data_is_refused(
    tmp_path: Path, league: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    damaged = bytearray(league)
    at = damaged.find(sheet_parts(league)["Results"].encode()) + 100
    damaged[at : at + 40] = bytes(b ^ 0x55 for b in damaged[at : at + 40])
    err = _recalc(tmp_path, bytes(damaged), capsys)
    assert err.startswith(f"Error: {tmp_path / 'league.xlsm'}: the part 'xl/worksheets/")
    assert "damaged" in err


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (OLE2 + bytes(504), "an Excel 97-2003 workbook (.xls), which xlgrade does not write"),
        (
            OLE2 + bytes(504) + "EncryptedPackage".encode("utf-16-le"),
            "the book is encrypted (it has a password to open)",
        ),
    ],
)
def test_old_and_encrypted_books_are_refused_up_front(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, says: str
) -> None:
    assert _recalc(tmp_path, data, capsys).startswith(f"Error: {tmp_path / 'league.xlsm'}: {says}")


def test_an_ods_is_refused_up_front(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as ods:
        ods.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        ods.writestr("content.xml", "<office:document-content/>")
    assert _recalc(tmp_path, buffer.getvalue(), capsys) == (
        f"Error: {tmp_path / 'league.xlsm'}: an OpenDocument file (.ods), not an Excel "
        "workbook: save it from LibreOffice as .xlsm (or .xlsx)"
    )
    book = tmp_path / "league.xlsm"
    assert main(["import", "tests/data/trf/2020_06.trf", "--into", str(book)]) == 1
    assert "an OpenDocument file (.ods)" in capsys.readouterr().err


def test_a_zip_bomb_is_refused_by_its_declared_size(league: bytes) -> None:
    members, _ = package_members(league)
    results = next(m for m in members if m.name == sheet_parts(league)["Results"])
    record = results.central[:24] + struct.pack("<I", MAX_PART_BYTES + 1) + results.central[28:]
    bomb = container.Member(results.name, results.offset, record)
    with pytest.raises(FormatError, match=r"declares 1,073,741,825 bytes inflated, more than"):
        read_part(league, bomb)


def test_a_part_that_inflates_past_its_claim_stops_there() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bomb:
        bomb.writestr("xl/worksheets/sheet1.xml", bytes(64 * 2**20))  # 64 MiB of zeros
    data = bytearray(buffer.getvalue())
    (member,), _ = package_members(bytes(data))
    record = member.central[:24] + struct.pack("<I", 1000) + member.central[28:]
    lying = container.Member(member.name, member.offset, record)
    with pytest.raises(FormatError, match="holds more than the 1,000 bytes it declares"):
        read_part(bytes(data), lying)


def test_an_output_sheet_in_utf16_is_rewritten_in_utf8(tmp_path: Path, league: bytes) -> None:
    part = sheet_parts(league)["Grading List"]

    def utf16(name: str, content: bytes) -> bytes:
        if name != part:
            return content
        return content.decode().replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16")

    book = tmp_path / "league.xlsm"
    book.write_bytes(_rewritten(league, utf16))
    assert main(["recalc", str(book)]) == 0
    written = zipfile.ZipFile(book).read(part)
    assert not written.startswith(codecs.BOM_UTF16_LE)
    assert "<sheetData>" in written.decode("utf-8")
    assert len(read_sheets(book, ["Grading List"])["Grading List"]) > 1


@pytest.mark.parametrize(
    ("cell", "says"),
    [
        (
            '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>',
            "cell XFD1048576 is past column AMJ, the last xlgrade reads",
        ),
        ('<row r="1048577"><c r="A1048577"><v>1</v></c></row>', "past row 1,048,576, Excel's"),
        (
            '<row r="1048576"><c r="A1048576"><v>1</v></c></row>',
            "its used range, to row 1,048,576 (A1048576) and column",
        ),
        (
            '<row r="300"><c r="B300" s="1"><v>-Infinity</v></c></row>',
            "cell B300 holds '-Infinity', which is no date, grade or count",
        ),
        # A long reference and a long value are quoted shortened, with their lengths.
        (
            f'<row r="1{"0" * 99}"><c r="A1{"0" * 99}"><v>1</v></c></row>',
            f"cell 'A1{'0' * 56}…' (101 characters) is past row 1,048,576, Excel's last",
        ),
        (
            f'<row r="300"><c r="B300" s="1"><v>-{"9" * 99}</v></c></row>',
            f"cell B300 holds '-{'9' * 57}…' (100 characters), which is no date, grade or count",
        ),
    ],
)
def test_a_cell_far_out_is_refused_before_the_grid_is_made(
    tmp_path: Path, league: bytes, capsys: pytest.CaptureFixture[str], cell: str, says: str
) -> None:
    err = _recalc(tmp_path, _with_cell(league, "Results", cell), capsys)
    assert err.startswith(f"Error: {tmp_path / 'league.xlsm'}: sheet 'Results': ")
    assert says in err


def test_an_empty_formatted_cell_far_out_is_no_reason_to_refuse(
    tmp_path: Path, league: bytes
) -> None:
    book = tmp_path / "league.xlsm"
    book.write_bytes(
        _with_cell(league, "Results", '<row r="1048576"><c r="XFD1048576" s="1"/></row>')
    )
    assert main(["recalc", str(book)]) == 0


def test_the_extent_is_read_from_the_cells() -> None:
    xml = b'<dimension ref="A1:XFD1048576"/><sheetData><row r="1"><c r="C120000"><v>1</v></c>'
    # Rows from references of six digits or more; columns from those of two letters or more,
    # else at most Z.
    assert sheet_extent(xml + b'<c r="AB7"><v>1</v></c></row></sheetData>', "S") == (120000, 28)
    assert sheet_extent(b"<sheetData/>", "S") == (0, 26)


def _output_sheet_changed(league: bytes, change: Callable[[bytes], bytes]) -> bytes:
    part = sheet_parts(league)["Player Cards"]
    return _rewritten(league, lambda name, content: change(content) if name == part else content)


def test_an_output_sheet_cut_inside_its_data_is_refused_naming_it(
    tmp_path: Path, league: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _output_sheet_changed(league, lambda xml: xml.replace(b"</sheetData>", b""))
    assert _recalc(tmp_path, data, capsys) == (
        f"Error: {tmp_path / 'league.xlsm'}: sheet 'Player Cards' cannot be rewritten: "
        "worksheet part has no </sheetData>"
    )


def test_a_style_that_is_not_a_number_is_dropped(tmp_path: Path, league: bytes) -> None:
    def garbled(xml: bytes) -> bytes:
        return xml.replace(b"<sheetData>", b'<sheetData><row r="1"><c r="A1" s="6* t="/></row>', 1)

    book = tmp_path / "league.xlsm"
    book.write_bytes(_output_sheet_changed(league, garbled))
    assert main(["recalc", str(book)]) == 0


def test_a_sheet_of_the_grader_s_that_does_not_parse_is_refused_not_copied(
    tmp_path: Path, league: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    part = sheet_parts(league)["How to use"]
    data = _rewritten(league, lambda name, content: content[:-40] if name == part else content)
    err = _recalc(tmp_path, data, capsys)
    assert err.startswith(
        f"Error: {tmp_path / 'league.xlsm'}: the part {part!r} is damaged: it is not "
        "well-formed XML (unclosed token: line 1, column "
    )
    assert err.endswith("open the book in Excel, let it repair the book, and save it again")


def test_an_input_sheet_cut_short_is_refused(
    tmp_path: Path, league: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    part = sheet_parts(league)["Players"]
    data = _rewritten(league, lambda name, content: content[:-20] if name == part else content)
    assert _recalc(tmp_path, data, capsys) == (
        f"Error: {tmp_path / 'league.xlsm'}: the sheet 'Players' is damaged: its part "
        f"{part!r} stops before its end (no </worksheet>)"
    )


def test_a_part_a_relationship_leads_to_that_is_missing_is_refused(
    tmp_path: Path, league: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _rewritten(league, lambda name, content: None if name == "xl/styles.xml" else content)
    assert _recalc(tmp_path, data, capsys) == (
        f"Error: {tmp_path / 'league.xlsm'}: the package has no part 'xl/styles.xml', though "
        "'xl/workbook.xml' refers to it (it is damaged; Excel would repair it, dropping what "
        "it held)"
    )


def test_a_copied_part_whose_checksum_does_not_match_is_refused(
    tmp_path: Path, league: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    # The macros' part is copied as it is into the book written: its damage is found first.
    members, _ = package_members(league)
    vba = next(m for m in members if m.name == "xl/vbaProject.bin")
    at = league.index(vba.central)
    crc = struct.unpack("<I", vba.central[16:20])[0] ^ 1
    data = league[: at + 16] + struct.pack("<I", crc) + league[at + 20 :]
    assert _recalc(tmp_path, data, capsys) == (
        f"Error: {tmp_path / 'league.xlsm'}: the part 'xl/vbaProject.bin' is damaged: its "
        "checksum does not match"
    )


def _bomb(league: bytes, sheet: str, element: bytes, count: int) -> bytes:
    """The package with ``count`` copies of ``element`` added to ``sheet``'s data."""
    part = sheet_parts(league)[sheet]
    return _rewritten(
        league,
        lambda name, content: (
            content.replace(b"</sheetData>", element * count + b"</sheetData>")
            if name == part
            else content
        ),
    )


@pytest.mark.parametrize(
    ("sheet", "element", "says"),
    [
        ("Results", b"<row/>", "more than 1,048,576 rows (<row> elements), Excel's most"),
        ("Players", b'<row r="9"/>', "more than 1,048,576 rows (<row> elements), Excel's most"),
        ("Results", b"<c/>" * 64, "more than 6,000,000 cells (<c> elements), the most xlgrade"),
        # An output sheet is rewritten, so its old rows are not read: but not inflated whole.
        ("Player Cards", b"<row/>", "more than 1,048,576 rows (<row> elements), Excel's most"),
    ],
)
def test_an_empty_row_or_cell_bomb_is_refused_by_count_while_inflated(
    tmp_path: Path,
    league: bytes,
    capsys: pytest.CaptureFixture[str],
    sheet: str,
    element: bytes,
    says: str,
) -> None:
    import tracemalloc

    data = _bomb(league, sheet, element, 50_000_000 // len(element))  # 50 MB inflated
    assert len(data) < 1_000_000
    tracemalloc.start()
    try:
        err = _recalc(tmp_path, data, capsys)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert err == f"Error: {tmp_path / 'league.xlsm'}: sheet {sheet!r}: {says}" + (
        " reads (see docs/limits.md): the part is damaged or made to exhaust memory"
        if "cells" in says
        else ": the part is damaged or made to exhaust memory"
    )
    # The memory target, 20 times the file, and what finding the limit takes: that many rows
    # (or cells) of the bomb's XML, held twice at most.
    limit = 1_048_576 * len(element) if "rows" in says else 6_000_000 * len(b"<c/>")
    assert peak < 20 * len(data) + 2 * limit


@pytest.mark.parametrize("sheet", ["Players", "How to use"])
def test_a_cell_longer_than_excel_holds_is_refused_naming_it(
    tmp_path: Path, league: bytes, capsys: pytest.CaptureFixture[str], sheet: str
) -> None:
    text = "x" * 32_768  # one more than Excel's 32,767
    cell = f'<row r="300"><c r="C300" t="inlineStr"><is><t>{text}</t></is></c></row>'
    err = _recalc(tmp_path, _with_cell(league, sheet, cell), capsys)
    assert err == (
        f"Error: {tmp_path / 'league.xlsm'}: sheet {sheet!r}: cell C300 holds "
        f"'{'x' * 58}…' (32,768 characters): more than the 32,767 characters a cell of Excel "
        "holds"
    )
    # Escaped, each "&amp;" is one character: 32,767 of them are as many as a cell holds.
    most = f'<row r="300"><c r="C300" t="inlineStr"><is><t>{"&amp;" * 32_767}</t></is></c></row>'
    book = tmp_path / "most.xlsm"
    book.write_bytes(_with_cell(league, "Players", most))
    assert main(["recalc", str(book)]) == 0


def _one_part(
    content: bytes, name: str = "xl/worksheets/sheet1.xml"
) -> tuple[bytes, container.Member]:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as book:
        book.writestr(name, content)
    data = buffer.getvalue()
    (member,), _ = package_members(data)
    return data, member


def test_a_part_that_deflates_far_but_keeps_the_limits_is_read_whole() -> None:
    # 200,000 empty rows deflate a thousand times: counted first, then read.
    xml = b"<worksheet><sheetData>" + b"<row/>" * 200_000 + b"</sheetData></worksheet>"
    data, member = _one_part(xml)
    scan = container.Scan("S", member)
    assert scan.counting
    assert read_part(data, member, scan=scan) == xml


def test_a_text_longer_than_a_cell_across_pieces_is_refused() -> None:
    # 200,000 bytes with no "<": more than any cell's XML, refused before its end is seen.
    scan = container.Scan("S")
    scan(b'<worksheet><sheetData><row r="1"><c r="B1" t="inlineStr"><is><t>')
    scan(b"x" * 100_000)
    with pytest.raises(FormatError, match=r"^sheet 'S': cell B1 holds 'xxx.*…' \(200,000 "):
        scan(b"x" * 100_000)
    # A text of 20,000 three-byte characters is 60,000 bytes and fits a cell.
    fits = container.Scan("S")
    fits(b'<c r="A1" t="inlineStr"><is><t>' + "€".encode() * 20_000 + b"</t></is></c>")
    # The shared strings name no cell: the string is quoted.
    strings = container.Scan("")
    with pytest.raises(FormatError, match=r"^the shared strings: a string 'yyy"):
        strings(b"<sst><si><t>" + b"y" * 40_000 + b"</t></si></sst>")


@pytest.mark.parametrize("twin", ["xl/worksheets/sheet1.xml", "XL/Worksheets/Sheet1.xml"])
def test_a_part_listed_twice_is_refused(
    tmp_path: Path, league: bytes, capsys: pytest.CaptureFixture[str], twin: str
) -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(league)) as source, zipfile.ZipFile(out, "w") as book:
        for info in source.infolist():
            book.writestr(info.filename, source.read(info))
        with warnings.catch_warnings():  # zipfile warns of the same name, not of the case
            warnings.simplefilter("ignore")
            book.writestr(twin, b"<worksheet/>")
    message = _recalc(tmp_path, out.getvalue(), capsys)
    assert "the package holds two parts named 'xl/worksheets/sheet1.xml'" in message


@pytest.mark.parametrize("encoding", ["x-unknown", "UTF-32", "Shift_JIS", "ISO-8859-1"])
@pytest.mark.parametrize("part", ["xl/styles.xml", "xl/worksheets/sheet4.xml"])
def test_a_part_declaring_an_encoding_not_read_is_refused_naming_it(
    tmp_path: Path, league: bytes, capsys: pytest.CaptureFixture[str], encoding: str, part: str
) -> None:
    """Excel writes UTF-8; a part that says it is in another encoding (unknown, several
    bytes a character, or one whose letters past ASCII are not UTF-8's) is refused by name in
    the input sheets (Results is sheet4) and the parts copied alike."""
    assert sheet_parts(league)["Results"] == "xl/worksheets/sheet4.xml"
    declared = f'<?xml version="1.0" encoding="{encoding}"?>'.encode()

    def declare(name: str, content: bytes) -> bytes:
        if name != part:
            return content
        return (
            declared + content[content.index(b"?>") + 2 :]
            if content[:5] == b"<?xml"
            else (declared + content)
        )

    message = _recalc(tmp_path, _rewritten(league, declare), capsys)
    assert message.endswith(
        f"the part {part!r} declares its text in the encoding {encoding!r}, which xlgrade "
        "does not read (Excel writes UTF-8): open the book in Excel and save it again"
    )


@pytest.mark.parametrize("tag", ['<c r="A1" ', '<c r="A1" t="e" ', '<mergeCell ref="', "<c>"])
def test_a_tag_left_open_many_times_is_refused_in_one_pass(
    tmp_path: Path, league: bytes, capsys: pytest.CaptureFixture[str], tag: str
) -> None:
    """20,000 start tags never closed (300 KB): each pattern of a tag looks no further than the
    next ``<``, so the part is looked through once; the cell patterns looked through the rest
    of the part from each ``<c`` and each ``r=``, and 100 KB took minutes."""
    cell = tag * 20_000
    message = _recalc(tmp_path, _with_cell(league, "Results", cell), capsys)
    assert message.startswith("Error: ")
    assert "internal error" not in message


def test_a_sheet_padded_by_any_element_is_refused_by_count_while_inflated(
    tmp_path: Path,
    league: bytes,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``<x/>`` repeated is neither a row nor a cell: counted as elements all the same, and
    refused at the limit (made 100,000 here, for a 4 MB bomb) before the part is inflated
    whole."""
    monkeypatch.setattr(container, "MAX_SHEET_ELEMENTS", 100_000)
    pieces: list[int] = []
    inflated = container.inflated_pieces

    def counted(data: bytes, member: container.Member, **kwargs: int) -> Iterator[bytes]:
        for piece in inflated(data, member, **kwargs):
            if member.name == "xl/worksheets/sheet4.xml":  # Results
                pieces.append(len(piece))
            yield piece

    monkeypatch.setattr(container, "inflated_pieces", counted)
    data = _bomb(league, "Results", b"<x/>", 1_000_000)
    err = _recalc(tmp_path, data, capsys)
    assert err == (
        f"Error: {tmp_path / 'league.xlsm'}: sheet 'Results': more than 100,000 elements, the "
        "most xlgrade reads (see docs/limits.md): the part is damaged or made to exhaust memory"
    )
    # 100,000 elements of four bytes are in the first MiB piece or the second, of the four
    # the part holds: the rest is never inflated.
    assert 0 < sum(pieces) <= 2 * 2**20


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # 40,000 ampersands, each written as the five bytes of "&amp;": 40,000 characters.
        ("&amp;" * 40_000, "'" + "&" * 58 + "…' (40,000 characters):"),
        # 3,000,000 characters, refused once more than a cell's most bytes are inflated: the
        # count is of those, and says there are more.
        ("x" * 3_000_000, "characters) and more:"),
    ],
)
def test_a_giant_cell_is_quoted_as_it_reads_and_counted_honestly(
    tmp_path: Path, league: bytes, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    cell = f'<row r="90"><c r="A90" t="inlineStr"><is><t>{text}</t></is></c></row>'
    message = _recalc(tmp_path, _with_cell(league, "Players", cell), capsys)
    assert "sheet 'Players': cell A90 holds " in message
    assert said in message
    assert message.endswith("more than the 32,767 characters a cell of Excel holds")


@pytest.mark.parametrize(
    ("cell", "said"),
    [
        ('<c r="A90" t="n"><v>1e999x</v></c>', "'1e999x' where its type says a number"),
        ('<c r="A90" t="b"><v>7</v></c>', "'7' where its type says a true or false value"),
        ('<c r="A90" t="s"><v>x9</v></c>', "'x9' where its type says the number of a shared"),
    ],
)
def test_a_value_not_of_its_cell_s_type_is_refused_naming_the_cell(
    tmp_path: Path, league: bytes, capsys: pytest.CaptureFixture[str], cell: str, said: str
) -> None:
    message = _recalc(tmp_path, _with_cell(league, "Players", f'<row r="90">{cell}</row>'), capsys)
    assert f"sheet 'Players': cell A90 holds {said}" in message
