"""Render the README's pictures of the example league workbook.

    python docs/render_pictures.py [--book workbook/example-league.xlsm] [--out docs/img]

Each picture is the first printed page of one sheet (or the page ``PAGE`` names), as the book
prints it (its print area and titles). For every wanted sheet the script makes a copy of the
book in which all other sheets are hidden (their print areas taken out) and the sheet prints
landscape, one page wide, without gridlines (a sheet of ``USED_COLUMNS`` with its columns that are
blank under the header hidden); LibreOffice (headless, in a throw-away profile)
prints that copy to PDF and ``pdftoppm`` turns the page into a PNG at 80 dpi. The copy is
edited at the package level, so charts, styles and the other sheets' data stay as they are,
and formulas that look at other sheets still work.

LibreOffice recalculates the book on load. The Results sheet's points columns call the Excel
function ``GRADE_POINTS``; the profile holds a small Basic function of that name that hands the
call through LibreOffice's Python script provider to ``xlwings.server``, its arguments shaped as
Office.js passes them (:func:`xlgrade.workbook.excel_calls.officejs_call`), so those columns
show the numbers xlwings Lite gives.

Needs ``soffice`` (LibreOffice Calc) and ``pdftoppm`` (poppler-utils) on PATH.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "udfs")]  # this checkout's functions, for LibreOffice too

from xlgrade.workbook.libreoffice import (  # noqa: E402
    LibreOfficeError,
    calc_names,
    find_soffice,
    make_profile,
    run_soffice,
)
from xlgrade.workbook.package import read_sheets  # noqa: E402
from xlgrade.workbook.relationships import sheet_parts  # noqa: E402

# picture file name -> sheet name, in the order the README shows them
PICTURES = {
    "results.png": "Results",
    "grading-list.png": "Grading List",
    "player-cards.png": "Player Cards",
    "exceptions.png": "Exceptions",
    "grade-history.png": "Grade History",
    "rapid-list.png": "Rapid List",
    "divisions.png": "Divisions",
    "violations.png": "Violations",
}

# The page of a sheet pictured, where it is not the first: the Results page with the first rows
# the recalculation listed on Exceptions, coloured.
PAGE = {"results.png": 2}

# Sheets pictured with only the columns their data rows use: the Divisions sheet has a column
# for every kind of rule (over thirty), a blank one meaning no such rule; one page wide, all of
# them cannot be read.
USED_COLUMNS = {"divisions.png"}

PDFTOPPM_TIMEOUT = 60

_PAGE_SETUP = '<pageSetup orientation="landscape" fitToWidth="1" fitToHeight="0" />'


class RenderError(RuntimeError):
    pass


def _tool(name: str, package: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise RenderError(
            f"{name} is not on PATH; install {package} (e.g. apt-get install {package})"
        )
    return found


def _only_sheet(workbook: str, wanted: int) -> str:
    """workbook.xml with every sheet but the ``wanted``-th hidden and that one active, and the
    other sheets' print areas taken out (LibreOffice prints a hidden sheet's print area)."""
    position = iter(range(10**6))

    def visibility(match: re.Match[str]) -> str:
        element = re.sub(r'\sstate="[^"]*"', "", match.group(0))
        state = "visible" if next(position) == wanted else "hidden"
        return element.replace("<sheet ", f'<sheet state="{state}" ', 1)

    workbook = re.sub(r"<sheet\b[^>]*>", visibility, workbook)
    workbook = re.sub(r'\sfirstSheet="\d+"', "", workbook)
    workbook = re.sub(r'\sactiveTab="\d+"', "", workbook)
    workbook = re.sub(r"<workbookView\b", f'<workbookView activeTab="{wanted}"', workbook, count=1)
    return re.sub(
        r'<definedName name="_xlnm\.Print_Area" localSheetId="(\d+)"[^>]*>[^<]*</definedName>',
        lambda found: found.group(0) if int(found.group(1)) == wanted else "",
        workbook,
    )


def _printable(sheet: str) -> str:
    """Sheet XML set to print landscape, one page wide, without gridlines or a print area."""
    sheet = re.sub(r"<pageSetUpPr\b[^>]*?/>", '<pageSetUpPr fitToPage="1" />', sheet)
    if "<pageSetUpPr" not in sheet:
        if re.search(r"<sheetPr\b[^>]*/>", sheet):
            sheet = re.sub(
                r"<sheetPr\b([^>]*)/>", r'<sheetPr\1><pageSetUpPr fitToPage="1" /></sheetPr>', sheet
            )
        elif "<sheetPr" in sheet:
            sheet = sheet.replace("</sheetPr>", '<pageSetUpPr fitToPage="1" /></sheetPr>', 1)
        else:
            sheet = re.sub(
                r"(<worksheet\b[^>]*>)",
                r'\1<sheetPr><pageSetUpPr fitToPage="1" /></sheetPr>',
                sheet,
            )
    sheet = re.sub(r'<printOptions\b[^>]*gridLines="(1|true)"[^>]*/>', "", sheet)
    if re.search(r"<pageSetup\b", sheet):
        return re.sub(r"<pageSetup\b[^>]*?/>", _PAGE_SETUP, sheet)
    if "<pageMargins" in sheet:
        return re.sub(r"(<pageMargins\b[^>]*/>)", r"\1" + _PAGE_SETUP, sheet, count=1)
    # pageSetup follows pageMargins; without margins it goes before what may come after them
    for follower in ("<headerFooter", "<rowBreaks", "<colBreaks", "<drawing", "<legacyDrawing"):
        if follower in sheet:
            return sheet.replace(follower, _PAGE_SETUP + follower, 1)
    return sheet.replace("</worksheet>", _PAGE_SETUP + "</worksheet>")


def _blank_columns(source: Path, sheet_name: str) -> set[int]:
    """The columns (1 the first) of ``sheet_name`` that are blank in every row under the first."""
    rows = read_sheets(source, [sheet_name])[sheet_name]
    width = max((len(row) for row in rows), default=0)
    return {
        k + 1
        for k in range(width)
        if all(k >= len(row) or row[k] in (None, "") for row in rows[1:])
    }


def _hide_columns(sheet: str, hidden: set[int]) -> str:
    """Sheet XML with the ``<col>`` of each column in ``hidden`` hidden (one ``<col>`` a
    column, as the builder writes them)."""

    def hide(match: re.Match[str]) -> str:
        element = match.group(0)
        ends = dict(re.findall(r'\b(min|max)="(\d+)"', element))
        low, high = int(ends.get("min", 0)), int(ends.get("max", 0))
        if low != high or low not in hidden or 'hidden="' in element:
            return element
        return element.replace("<col ", '<col hidden="1" ', 1)

    return re.sub(r"<col\b[^>]*/>", hide, sheet)


def _book_for(source: Path, sheet_name: str, target: Path, used_only: bool = False) -> None:
    """Copy ``source`` to ``target`` showing and printing only ``sheet_name`` (``used_only``:
    its columns blank under the header hidden)."""
    hidden = _blank_columns(source, sheet_name) if used_only else set()
    sheets = list(sheet_parts(source.read_bytes()).items())
    with zipfile.ZipFile(source) as book:
        names = [name for name, _ in sheets]
        if sheet_name not in names:
            raise RenderError(f"{source} has no sheet {sheet_name!r}; it has {names}")
        wanted = names.index(sheet_name)
        part = sheets[wanted][1]
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as copy:
            for item in book.infolist():
                data = book.read(item)
                if item.filename == "xl/workbook.xml":
                    data = _only_sheet(data.decode("utf-8"), wanted).encode("utf-8")
                elif item.filename == part:
                    printable = _printable(data.decode("utf-8"))
                    data = _hide_columns(printable, hidden).encode("utf-8")
                if item.filename.endswith(".xml"):
                    data = calc_names(data)  # a stored Office.js name: the Basic function's
                copy.writestr(item, data)


def render(book: Path, out: Path, keep: Path | None = None) -> list[Path]:
    soffice = find_soffice() or _tool("soffice", "libreoffice-calc")
    pdftoppm = _tool("pdftoppm", "poppler-utils")
    if not book.is_file():
        raise RenderError(f"no workbook at {book}")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory(prefix="xlgrade-pictures-") as scratch:
        work = Path(keep) if keep else Path(scratch)
        work.mkdir(parents=True, exist_ok=True)
        log = work / "soffice.log"
        url = make_profile(soffice, work / "profile", log)
        for picture, sheet in PICTURES.items():
            stem = Path(picture).stem
            copy = work / f"{stem}{book.suffix}"
            _book_for(book, sheet, copy, picture in USED_COLUMNS)
            pdf = work / f"{stem}.pdf"
            pdf.unlink(missing_ok=True)
            print(f"{sheet}: printing to PDF", flush=True)
            run_soffice(
                soffice,
                [f"-env:UserInstallation={url}", "--headless", "--norestore",
                 "--convert-to", "pdf:calc_pdf_Export", "--outdir", str(work), str(copy)],
                log,
                done=pdf,
            )  # fmt: skip
            if not pdf.exists():
                raise RenderError(f"soffice wrote no PDF for {sheet!r}; see {log}")
            page = str(PAGE.get(picture, 1))
            try:
                subprocess.run(
                    [pdftoppm, "-png", "-r", "80", "-f", page, "-l", page, "-singlefile",
                     str(pdf), str(out / stem)],
                    check=True,
                    capture_output=True,
                    timeout=PDFTOPPM_TIMEOUT,
                )  # fmt: skip
            except subprocess.TimeoutExpired as error:
                raise RenderError(f"pdftoppm took over {PDFTOPPM_TIMEOUT} s on {pdf}") from error
            except subprocess.CalledProcessError as error:
                message = error.stderr.decode(errors="replace").strip()
                raise RenderError(f"pdftoppm failed on {pdf}: {message}") from error
            written.append(out / picture)
            print(f"{sheet}: wrote {out / picture}", flush=True)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--book", type=Path, default=ROOT / "workbook" / "example-league.xlsm")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument(
        "--keep", type=Path, help="keep the sheet copies, PDFs and soffice log in this folder"
    )
    args = parser.parse_args(argv)
    try:
        render(args.book, args.out, args.keep)
    except (RenderError, LibreOfficeError) as error:
        print(f"render_pictures: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
