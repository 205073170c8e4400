"""Reading a workbook package that is not one, or is damaged: each is refused with a
:class:`~xlgrade.errors.FormatError` saying what is wrong (the zip layout is PKWARE's
APPNOTE: the end-of-central-directory record ``PK\\x05\\x06`` holds the entry count at byte 10,
the directory's size at 12 and its offset at 16; each central record starts ``PK\\x01\\x02``).
"""

import io
import struct
import zipfile

import pytest

from tests.paths import TEMPLATE
from xlgrade.errors import FormatError
from xlgrade.schema import column_letters
from xlgrade.workbook.relationships import sheet_parts
from xlgrade.workbook.sheetxml import column_index

RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="{type}" Target="{target}"/></Relationships>'
)
OFFICE_DOCUMENT = (
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"
)


def end_record(data: bytes) -> int:
    """Where the end-of-central-directory record starts."""
    return data.rindex(b"PK\x05\x06")


def patched(data: bytes, at: int, value: bytes) -> bytes:
    return data[:at] + value + data[at + len(value) :]


def refused(data: bytes) -> str:
    with pytest.raises(FormatError) as error:
        sheet_parts(data)
    return str(error.value)


def package(members: dict[str, str], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def test_the_shipped_template_reads() -> None:
    parts = sheet_parts(TEMPLATE.read_bytes())
    assert {"Settings", "Players", "Results"} <= set(parts)
    assert all(part.startswith("xl/worksheets/") for part in parts.values())


def test_a_file_that_is_not_a_zip() -> None:
    assert refused(b"Name,Grade\nSmith,142\n") == "not a workbook: no zip end-of-directory record"


def test_a_zip64_package_is_not_supported() -> None:
    data = TEMPLATE.read_bytes()
    assert refused(patched(data, end_record(data) + 10, b"\xff\xff")) == (
        "zip64 workbooks are not supported"
    )


def test_a_damaged_central_directory_says_where() -> None:
    data = TEMPLATE.read_bytes()
    (start,) = struct.unpack("<I", data[end_record(data) + 16 : end_record(data) + 20])
    assert refused(patched(data, start, b"XXXX")) == (
        f"damaged zip central directory at byte {start}"
    )


def test_a_central_directory_of_the_wrong_size() -> None:
    data = TEMPLATE.read_bytes()
    at = end_record(data) + 12
    (size,) = struct.unpack("<I", data[at : at + 4])
    assert refused(patched(data, at, struct.pack("<I", size + 1))) == (
        "damaged zip central directory: size mismatch"
    )


def test_a_package_that_names_no_workbook() -> None:
    rels = RELS.format(type="http://example.com/other", target="doc.xml")
    assert refused(package({"_rels/.rels": rels})) == (
        "not a workbook: the package names no main part"
    )


def test_an_unknown_compression_method_is_named() -> None:
    rels = RELS.format(type=OFFICE_DOCUMENT, target="xl/workbook.xml")
    data = package({"_rels/.rels": rels}, zipfile.ZIP_BZIP2)
    assert refused(data) == "zip member '_rels/.rels' uses compression method 12"


def test_stored_members_and_relative_targets_are_read() -> None:
    # A minimal package, stored (method 0), whose workbook names its sheet by a target that
    # climbs out of and back into xl/.
    rels = RELS.format(type=OFFICE_DOCUMENT, target="/xl/workbook.xml")
    workbook_rels = RELS.format(
        type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet",
        target="../xl/./worksheets/sheet1.xml",
    )
    workbook = (
        '<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        '<sheets><sheet name="Players &amp; clubs" sheetId="1" r:id="rId1"/></sheets></workbook>'
    )
    data = package(
        {
            "_rels/.rels": rels,
            "xl/_rels/workbook.xml.rels": workbook_rels,
            "xl/workbook.xml": workbook,
        },
        zipfile.ZIP_STORED,
    )
    assert sheet_parts(data) == {"Players & clubs": "xl/worksheets/sheet1.xml"}


@pytest.mark.parametrize(
    ("letters", "index"),
    [
        ("A", 0),
        ("Z", 25),
        ("AA", 26),  # 1 × 26 + 1, less one
        ("$AB", 27),  # an absolute reference's $ is passed over
        ("XFD", 16_383),  # Excel's last column: 24 × 676 + 6 × 26 + 4, less one
    ],
)
def test_a_column_index_counts_from_a_as_0(letters: str, index: int) -> None:
    assert column_index(letters) == index
    assert column_letters(index) == letters.lstrip("$")
