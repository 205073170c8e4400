"""The zip container of a workbook package: its members listed from the central directory, each
inflated with the zip bomb refused before it is in memory, and a new package put together from
the old members and new ones.

:func:`package_members` lists the parts from the central directory, :func:`read_part` inflates
one (:func:`inflated_pieces` a piece at a time, a :class:`Scan` looking at each as it comes),
:func:`new_part` deflates a new one and :func:`assemble_package` puts a package together: every
member not replaced is copied as raw compressed bytes (its local header, data and descriptor
verbatim). :func:`workbook_members` refuses, before anything is read, the files that are not a
zip package at all (an old ``.xls``, an encrypted book, an ``.ods``).
"""

from __future__ import annotations

import html
import itertools
import re
import struct
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Final

from xlgrade.cells import EXCEL_CELL_CHARACTERS, EXCEL_ROWS, quote
from xlgrade.errors import FormatError
from xlgrade.workbook.xmltext import xml_text

__all__ = [
    "MAX_CELL_CHARACTERS",
    "MAX_COLUMNS",
    "MAX_PACKAGE_BYTES",
    "MAX_PART_BYTES",
    "MAX_ROWS",
    "MAX_SHEET_CELLS",
    "MAX_SHEET_ELEMENTS",
    "Deflated",
    "Member",
    "Scan",
    "assemble_package",
    "deflate_chunks",
    "inflated_pieces",
    "inflated_size",
    "new_part",
    "package_members",
    "part_text",
    "read_part",
    "said_reference",
    "workbook_members",
]

_EOCD_SIG: Final = b"PK\x05\x06"
_LOCAL_SIG: Final = b"PK\x03\x04"
_CENTRAL_SIG: Final = b"PK\x01\x02"
_OLE2_SIG: Final = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_REFERENCE: Final = re.compile(r"[A-Z]{1,4}[0-9]{1,9}")
"""A cell reference short enough to name as it is (past Excel's limits or not)."""
_BOMB_RATIO: Final = 100
"""A part whose inflated size is more than this many times its deflated size has its elements
counted as it is inflated (:class:`Scan`); a book's sheets deflate 7 to 13 times."""

MAX_PART_BYTES: Final = 1024 * 2**20
"""The largest part of a workbook package read, inflated (1 GiB; a national season's Results
sheet of 200,000 rows with their live formulas is 290 MB)."""
MAX_PACKAGE_BYTES: Final = 2048 * 2**20
"""The largest sum of the inflated sizes a workbook package declares (2 GiB)."""
MAX_ROWS: Final = EXCEL_ROWS
"""The last row of a sheet read: Excel's own last row (:data:`xlgrade.cells.EXCEL_ROWS`)."""
MAX_COLUMNS: Final = 1_024
"""The last column of a sheet read (AMJ): the template's sheets use about twenty."""
MAX_SHEET_CELLS: Final = 6_000_000
"""The largest used range of a sheet read, rows × columns (500,000 rows of twelve columns)."""
MAX_SHEET_ELEMENTS: Final = 5 * MAX_SHEET_CELLS + MAX_ROWS
"""The most tags (start, end or empty) of a worksheet or shared strings part counted as a
bomb (:class:`Scan`): five a cell (``<c>``, ``<f>``, ``<v>`` and their ends) and one a row,
so that padding by an element that is neither (``<x/>`` repeated) is refused as it inflates."""


@dataclass(frozen=True)
class Member:
    """A part of a package as its zip central directory lists it.

    Attributes:
        name: the part's name (``xl/workbook.xml``).
        offset: where its local header starts.
        central: its central directory record, as found.
    """

    name: str
    offset: int
    central: bytes


def package_members(data: bytes) -> tuple[list[Member], int]:
    """The parts of the package ``data`` in central-directory order, and where the central
    directory starts (the zip format's end-of-central-directory record, APPNOTE 4.3.16).

    A name listed twice (ignoring case, as part names are compared: ECMA-376 part 2 § 9.1.1.1.2)
    is refused: a reader that takes the last copy and a writer that copies both would read one
    part and carry another.

    Raises:
        FormatError: the bytes are not a zip, its directory is damaged or zip64, or it lists
            a part twice.
    """
    end = data.rfind(_EOCD_SIG, max(0, len(data) - 65_557))
    if end < 0 or len(data) < end + 22:
        raise FormatError("not a workbook: no zip end-of-directory record")
    count, size, start = struct.unpack("<HII", data[end + 10 : end + 20])
    if start == 0xFFFFFFFF or count == 0xFFFF:
        raise FormatError("zip64 workbooks are not supported")
    members: list[Member] = []
    seen: dict[str, str] = {}
    pos = start
    for _ in range(count):
        if data[pos : pos + 4] != _CENTRAL_SIG or len(data) < pos + 46:
            raise FormatError(f"damaged zip central directory at byte {pos}")
        name_len, extra_len, comment_len = struct.unpack("<HHH", data[pos + 28 : pos + 34])
        (offset,) = struct.unpack("<I", data[pos + 42 : pos + 46])
        record = data[pos : pos + 46 + name_len + extra_len + comment_len]
        flags = struct.unpack("<H", data[pos + 8 : pos + 10])[0]
        raw_name = data[pos + 46 : pos + 46 + name_len]
        name = raw_name.decode("utf-8" if flags & 0x800 else "cp437", errors="replace")
        if (twin := seen.setdefault(name.lower(), name)) is not name:
            raise FormatError(
                f"the package holds two parts named {quote(twin)}"
                + ("" if twin == name else f" and {quote(name)}")
                + ": Excel would refuse it (part names are unique, whatever their case); "
                "it is damaged or was made to hide one copy"
            )
        members.append(Member(name, offset, record))
        pos += len(record)
    if start + size != pos:
        raise FormatError("damaged zip central directory: size mismatch")
    return members, start


def inflated_size(member: Member) -> int:
    """The size the central directory declares for the part once inflated."""
    (size,) = struct.unpack("<I", member.central[24:28])
    return int(size)


def read_part(
    data: bytes,
    member: Member,
    *,
    limit: int = MAX_PART_BYTES,
    scan: Callable[[bytes], None] | None = None,
) -> bytes:
    """The content of the part ``member`` of the package ``data``, inflated (stored or
    deflated, the two methods of APPNOTE 4.4.5 a workbook uses); ``scan``, when given, sees
    each piece as it is inflated and may refuse the part before the rest is (:class:`Scan`).
    A part a :class:`Scan` counts the elements of (one that deflates as no book's XML does) is
    inflated twice: once looked at and let go piece by piece, then, if it passes, kept.

    A zip bomb is refused before it is inflated: a part that declares more than ``limit``
    bytes (:data:`MAX_PART_BYTES`) is not read, and a deflated part is inflated at most to
    the size it declares, so one that declares less than it holds stops there.

    Raises:
        FormatError: the part is too large, damaged, or uses another compression method.
    """
    if isinstance(scan, Scan) and scan.counting:  # a likely bomb: looked at, then kept
        for piece in inflated_pieces(data, member, limit=limit):
            scan(piece)
        scan = None
    content = bytearray()
    for piece in inflated_pieces(data, member, limit=limit):
        if scan is not None:
            scan(piece)
        content += piece
    return bytes(content)


_PIECE: Final = 1 << 20
"""The bytes inflated at a time when a part is read in pieces (:func:`inflated_pieces`)."""


def inflated_pieces(data: bytes, member: Member, *, limit: int = MAX_PART_BYTES) -> Iterator[bytes]:
    """The content of the part ``member`` in pieces of at most a MiB, inflated one after the
    other (see :func:`read_part`); its size and checksum are checked after the last.

    Raises:
        FormatError: as :func:`read_part`.
    """
    method, _, _, crc, csize, usize = struct.unpack("<HHHIII", member.central[10:28])
    name = member.name
    if usize > limit:
        raise FormatError(
            f"the part {quote(name)} declares {usize:,} bytes inflated, more than the {limit:,} "
            "xlgrade reads (see docs/limits.md)"
        )
    if len(data) < member.offset + 30 or data[member.offset : member.offset + 4] != _LOCAL_SIG:
        raise FormatError(f"the part {quote(name)} is damaged: no local header at its offset")
    local_name_len, local_extra_len = struct.unpack(
        "<HH", data[member.offset + 26 : member.offset + 30]
    )
    begin = member.offset + 30 + local_name_len + local_extra_len
    raw = data[begin : begin + csize]
    if len(raw) < csize:
        raise FormatError(f"the part {quote(name)} is damaged: the file ends inside it")
    if method not in (0, 8):
        raise FormatError(f"zip member {quote(name)} uses compression method {method}")
    size, check = 0, 0
    if method == 0:
        pieces: Iterable[bytes] = (raw[at : at + _PIECE] for at in range(0, len(raw), _PIECE))
    else:
        pieces = _inflating(raw, usize, name)
    for piece in pieces:
        size += len(piece)
        check = zlib.crc32(piece, check)
        yield piece
    if size != usize or check & 0xFFFFFFFF != crc:
        raise FormatError(f"the part {quote(name)} is damaged: its checksum does not match")


def _inflating(raw: bytes, usize: int, name: str) -> Iterator[bytes]:
    """The deflate stream ``raw`` inflated a piece at a time, never past ``usize`` bytes."""
    inflater = zlib.decompressobj(-15)
    left, pending = usize + 1, raw  # one byte more than declared tells a lie
    try:
        while left > 0 and pending:
            piece = inflater.decompress(pending, min(_PIECE, left))
            stuck = not piece and len(inflater.unconsumed_tail) == len(pending)
            pending = inflater.unconsumed_tail
            left -= len(piece)
            if left > 0 and piece:
                yield piece
            if stuck:
                break
    except zlib.error as error:
        raise FormatError(f"the part {quote(name)} is damaged: {error}") from None
    if left <= 0:
        raise FormatError(f"the part {quote(name)} holds more than the {usize:,} bytes it declares")


MAX_CELL_CHARACTERS: Final = EXCEL_CELL_CHARACTERS
"""The most characters a cell holds: Excel's own limit
(:data:`xlgrade.cells.EXCEL_CELL_CHARACTERS`)."""
_WINDOW: Final = MAX_CELL_CHARACTERS // 2
"""A run of bytes without ``<`` this long, in every window of this size, makes a text of
twice that; a longer text is certain to be found by looking at each window once."""
_MOST_BYTES: Final = 6 * MAX_CELL_CHARACTERS + 1024
"""The most bytes the XML of a cell's text can take: six a character (``&quot;``), and the
tag."""
_ENTITY: Final = re.compile(r"&[#\w]{1,10};")


class Scan:
    """A worksheet or shared strings part looked at as it is inflated (:func:`read_part`'s
    ``scan``), so that what Excel never writes is refused before the whole part is in memory:
    more rows than Excel's :data:`MAX_ROWS`, more cell elements than :data:`MAX_SHEET_CELLS`
    (an empty-row or empty-cell bomb: ``<row/>`` and ``<c/>`` repeated, each the next row or
    cell), and a text longer than a cell holds (:data:`MAX_CELL_CHARACTERS`).

    Each element is counted by its start tag in each piece (one split between two pieces is
    not counted: the limits are far above any book's). A text is a run of bytes between two
    ``<``: the run is looked for a window of :data:`_WINDOW` bytes at a time, and only a run
    that may be too long is decoded and counted.
    """

    def __init__(self, sheet: str, member: Member | None = None) -> None:
        self.where = f"sheet {quote(sheet)}" if sheet else "the shared strings"
        # Elements are counted in a part that deflates far more than a book's XML does (a
        # bomb): XML that holds values deflates to a tenth or so.
        self.counting = member is None or inflated_size(member) > _BOMB_RATIO * max(
            struct.unpack("<I", member.central[20:24])[0], 1
        )
        self.rows = self.cells = self.elements = 0
        self.tail = b""  # the bytes since the last "<" of the pieces seen
        self.cell = ""  # the last cell reference seen
        self.tags: tuple[bytes, bytes] | None = None  # "<row" and "<c", with the part's prefix

    def __call__(self, piece: bytes) -> None:
        if self.counting:
            self._count(piece)
        text = self.tail + piece
        for at in range(0, len(text) - _WINDOW + 1, _WINDOW):
            if text.find(b"<", at, at + _WINDOW) < 0:
                self._long_text(text, at)
        last = text.rfind(b"<")
        ref = text.rfind(b' r="', 0, last if last >= 0 else len(text))
        if ref >= 0:
            self.cell = text[ref + 4 : text.find(b'"', ref + 4, ref + 40)].decode(errors="replace")
        self.tail = text[last:] if last >= 0 else text
        if len(self.tail) > _MOST_BYTES:  # a text too long whatever its characters
            text = self.tail[self.tail.find(b">") + 1 :]
            self._too_long(html.unescape(text.decode("utf-8", errors="replace")), whole=False)

    def _count(self, piece: bytes) -> None:
        """Count the rows and cells that start in ``piece``; refuse past the limits."""
        if self.tags is None:
            root = _ROOT_PREFIX.search(piece)
            prefix = (root.group(1) if root else None) or b""
            self.tags = (b"<" + prefix + b"row", b"<" + prefix + b"c")
        row, cell = self.tags
        self.rows += piece.count(row)
        self.cells += piece.count(cell)  # "<col" and "<cfRule" too: a few more at most
        self.elements += piece.count(b"<")
        if self.elements > MAX_SHEET_ELEMENTS:  # padding of any other element (<x/> repeated)
            raise FormatError(
                f"{self.where}: more than {MAX_SHEET_ELEMENTS:,} elements, the most xlgrade "
                "reads (see docs/limits.md): the part is damaged or made to exhaust memory"
            )
        if self.rows > MAX_ROWS:
            raise FormatError(
                f"{self.where}: more than {MAX_ROWS:,} rows (<row> elements), Excel's most: the "
                "part is damaged or made to exhaust memory"
            )
        if self.cells > MAX_SHEET_CELLS:
            raise FormatError(
                f"{self.where}: more than {MAX_SHEET_CELLS:,} cells (<c> elements), the most "
                "xlgrade reads (see docs/limits.md): the part is damaged or made to exhaust "
                "memory"
            )

    def _long_text(self, text: bytes, at: int) -> None:
        """Refuse the run of ``text`` around ``at`` if it holds more characters than a cell."""
        end = text.find(b"<", at)
        if end < 0:
            return  # it runs into the next piece: the tail keeps it
        start = text.rfind(b"<", 0, at) + 1
        ref = text.rfind(b' r="', 0, start)
        if ref >= 0:
            self.cell = text[ref + 4 : text.find(b'"', ref + 4, ref + 40)].decode(errors="replace")
        run = text[start:end]
        run = run[run.find(b">") + 1 :]  # the tag's own attributes are not the text
        if len(_ENTITY.sub("x", run.decode("utf-8", errors="replace"))) > MAX_CELL_CHARACTERS:
            self._too_long(html.unescape(run.decode("utf-8", errors="replace")))

    def _too_long(self, value: str, *, whole: bool = True) -> None:
        """Refuse the text ``value`` (its entities read), all of the cell's or, not ``whole``,
        the part of it inflated so far."""
        shown = quote(value) + ("" if whole else " and more")
        said = (
            f"cell {said_reference(self.cell)} holds {shown}"
            if self.where != "the shared strings"
            else f"a string {shown}"
        )
        raise FormatError(
            f"{self.where}: {said}: more than the {MAX_CELL_CHARACTERS:,} characters a cell of "
            "Excel holds"
        )


_ROOT_PREFIX: Final = re.compile(rb"<([\w.-]+:)?(?:worksheet|sst)\b")


def part_text(data: bytes, parts: Mapping[str, Member], name: str) -> str:
    """The text of the part ``name`` of the package ``data`` (:func:`xml_text`), ``parts`` its
    members by name.

    Raises:
        FormatError: the package lacks the part (a relationship points at nothing), or the
            part cannot be read.
    """
    member = parts.get(name)
    if member is None:
        raise FormatError(f"the package has no part {quote(name)}, though it refers to it")
    return xml_text(read_part(data, member), name)


@dataclass(frozen=True)
class Deflated:
    """A part's content already deflated (:func:`deflate_chunks`), for :func:`new_part`.

    Attributes:
        packed: the raw deflate stream (RFC 1951, no zlib header), as a zip member holds it.
        crc: the CRC-32 of the content.
        size: the content's length in bytes.
    """

    packed: bytes
    crc: int
    size: int


_LEVEL: Final = 5
"""The deflate level of a part written anew: zlib's level 5, which takes about half the time of
its default 6 on a sheet of cards for 2 % more bytes."""


def deflate_chunks(chunks: Iterable[bytes]) -> Deflated:
    """The content made of ``chunks`` (joined in order) deflated as :func:`new_part` deflates
    it, each piece in a second thread while the next is made: ``chunks`` may be a generator
    that writes the content a piece at a time (:func:`xlgrade.workbook.sheetxml.sheet_xml_chunks`),
    so the writing and the deflating of a large sheet overlap. An error making a piece is
    raised here, as it was raised.
    """
    compressor = zlib.compressobj(_LEVEL, zlib.DEFLATED, -15)
    crc = 0
    size = 0

    def step(chunk: bytes) -> bytes:  # run in order, one at a time, in the one worker
        nonlocal crc
        crc = zlib.crc32(chunk, crc)
        return compressor.compress(chunk)

    with ThreadPoolExecutor(max_workers=1) as worker:
        pieces: list[Future[bytes]] = []
        for chunk in chunks:
            size += len(chunk)
            pieces.append(worker.submit(step, chunk))
        pieces.append(worker.submit(compressor.flush))
        packed = b"".join(piece.result() for piece in pieces)
    return Deflated(packed, crc & 0xFFFFFFFF, size)


def new_part(name: str, content: bytes | Deflated, offset: int) -> tuple[bytes, bytes]:
    """The local header and data, and the central directory record, of a part ``name``
    holding ``content`` deflated (or already deflated: :class:`Deflated`), placed at byte
    ``offset`` of the new package."""
    if not isinstance(content, Deflated):
        compressor = zlib.compressobj(_LEVEL, zlib.DEFLATED, -15)
        packed = compressor.compress(content) + compressor.flush()
        content = Deflated(packed, zlib.crc32(content) & 0xFFFFFFFF, len(content))
    packed, crc, size = content.packed, content.crc, content.size
    encoded = name.encode("utf-8")
    time = (0 << 11) | (0 << 5)
    date = ((2025 - 1980) << 9) | (6 << 5) | 1
    common = struct.pack(
        "<HHHHHIIIH", 20, 0x800, 8, time, date, crc, len(packed), size, len(encoded)
    )
    local = b"PK\x03\x04" + common + struct.pack("<H", 0) + encoded + packed
    central = (
        _CENTRAL_SIG
        + struct.pack("<H", 20)
        + common
        + struct.pack("<HHHHII", 0, 0, 0, 0, 0, offset)
        + encoded
    )
    return local, central


def assemble_package(
    data: bytes,
    replace: Mapping[str, bytes | Deflated],
    add: Mapping[str, bytes | Deflated],
    remove: frozenset[str] = frozenset(),
) -> bytes:
    """A new package: the parts of ``data`` copied as raw compressed bytes, except those in
    ``replace`` (written anew with their new content) and those in ``remove`` (left out);
    the parts of ``add`` appended."""
    members, directory = package_members(data)
    bounds = sorted({m.offset for m in members} | {directory})
    following = dict(itertools.pairwise(bounds))
    body: list[bytes] = []
    central: list[bytes] = []
    offset = 0
    for member in members:
        if member.name in remove:
            continue
        if member.name in replace:
            local, record = new_part(member.name, replace[member.name], offset)
        else:
            local = data[member.offset : following[member.offset]]
            record = member.central[:42] + struct.pack("<I", offset) + member.central[46:]
        body.append(local)
        central.append(record)
        offset += len(local)
    for name, content in add.items():
        local, record = new_part(name, content, offset)
        body.append(local)
        central.append(record)
        offset += len(local)
    directory_bytes = b"".join(central)
    end = _EOCD_SIG + struct.pack(
        "<HHHHIIH", 0, 0, len(central), len(central), len(directory_bytes), offset, 0
    )
    return b"".join(body) + directory_bytes + end


def workbook_members(data: bytes) -> list[Member]:
    """The package's members, once an old ``.xls``, an encrypted book and an ``.ods`` are
    refused (:func:`check_package`)."""
    if data.startswith(_OLE2_SIG):
        if "EncryptedPackage".encode("utf-16-le") in data:
            raise FormatError(
                "the book is encrypted (it has a password to open): save a copy without the "
                "password (Excel: File ▸ Info ▸ Protect Workbook ▸ Encrypt with Password, "
                "clear it) and use that"
            )
        raise FormatError(
            "an Excel 97-2003 workbook (.xls), which xlgrade does not write: open it in Excel "
            "or LibreOffice and save it as .xlsm (or .xlsx)"
        )
    members, _ = package_members(data)
    by_name = {m.name: m for m in members}
    mimetype = by_name.get("mimetype")
    if mimetype is not None and read_part(data, mimetype).startswith(b"application/vnd.oasis"):
        raise FormatError(
            "an OpenDocument file (.ods), not an Excel workbook: save it from LibreOffice "
            "as .xlsm (or .xlsx)"
        )
    return members


def said_reference(text: str) -> str:
    """A cell reference as a message names it: as it is when it is one (letters, then
    digits), else quoted as any input is (:func:`xlgrade._rounding.quote`)."""
    return text if _REFERENCE.fullmatch(text) else quote(text)
