"""Render the README's pictures of the example league workbook.

    python docs/render_pictures.py [--book workbook/example-league.xlsm] [--out docs/img]

Each picture is the first printed page of one sheet. For every wanted sheet the script makes a
copy of the book in which all other sheets are hidden and the sheet prints landscape, one page
wide, without gridlines; LibreOffice (headless, in a throw-away profile) prints that copy to PDF
and ``pdftoppm`` turns its first page into a PNG at 80 dpi. The copy is edited at the package
level, so charts, styles and the other sheets' data stay as they are, and formulas that look at
other sheets still work.

LibreOffice recalculates the book on load. The Results sheet's points columns call the Excel
function ``GRADE_POINTS``; the profile holds a small Basic function of that name that hands the
call to ``xlgrade_udfs.GRADE_POINTS`` through LibreOffice's Python script provider, so those
columns show numbers too.

Needs ``soffice`` (LibreOffice Calc) and ``pdftoppm`` (poppler-utils) on PATH.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# picture file name -> sheet name, in the order the README shows them
PICTURES = {
    "results.png": "Results",
    "grading-list.png": "Grading List",
    "player-cards.png": "Player Cards",
    "exceptions.png": "Exceptions",
    "grade-history.png": "Grade History",
}

# Sheets printed only as far as this column. The Exceptions sheet's last row holds the whole
# season summary on one line; fitting all of it into the page width would leave the table
# unreadably small, so the page stops where the other rows' reasons end.
LAST_COLUMN = {"Exceptions": "N"}

SOFFICE_TIMEOUT = 180  # seconds for one book to be printed to PDF
PDFTOPPM_TIMEOUT = 60

_BASIC_SHIM = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE script:module PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "module.dtd">
<script:module xmlns:script="http://openoffice.org/2000/script" script:name="Module1" \
script:language="StarBasic">
Function GRADE_POINTS(own, opponent, result, Optional horizon)
    Dim factory As Object, provider As Object, script As Object
    If IsMissing(horizon) Then horizon = &quot;&quot;
    factory = createUnoService(&quot;com.sun.star.script.provider.MasterScriptProviderFactory&quot;)
    provider = factory.createScriptProvider(&quot;&quot;)
    script = provider.getScript(&quot;vnd.sun.star.script:render_udfs.py$grade_points?\
language=Python&amp;location=user&quot;)
    GRADE_POINTS = script.invoke(Array(own, opponent, result, horizon), Array(), Array())
End Function
</script:module>
"""

_PYTHON_SIDE = """import sys

for _path in {paths!r}:
    if _path not in sys.path:
        sys.path.append(_path)

import xlgrade_udfs


def grade_points(own, opponent, result, horizon):
    return xlgrade_udfs.GRADE_POINTS(own, opponent, result, horizon)


g_exportedScripts = (grade_points,)
"""

# Recalculate OOXML books on load, and let the Basic function run.
_REGISTRY_ITEMS = (
    '<item oor:path="/org.openoffice.Office.Calc/Formula/Load">'
    '<prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>'
    '<item oor:path="/org.openoffice.Office.Common/Security/Scripting">'
    '<prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>0</value></prop></item>'
)

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


def _clean_env() -> dict[str, str]:
    """The environment for soffice, without this interpreter's or any pyenv/venv folders.

    LibreOffice's embedded Python would otherwise take a foreign standard library from PATH or
    PYTHONHOME, fail to start the script provider, and soffice.bin would never exit.
    """
    own = {os.path.dirname(sys.executable), os.path.join(sys.prefix, "bin")}
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYENV", "_PYENV", "PYTHONHOME", "PYTHONPATH", "VIRTUAL_ENV"))
    }
    env["PATH"] = os.pathsep.join(
        folder
        for folder in env.get("PATH", "").split(os.pathsep)
        if folder and folder not in own and "/.pyenv/" not in folder and "venv" not in folder
    )
    return env


def _stop(process: subprocess.Popen[bytes]) -> None:
    for ending in (signal.SIGTERM, signal.SIGKILL):
        if process.poll() is not None:
            return
        try:
            os.killpg(process.pid, ending)
            process.wait(timeout=5)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass


def _soffice(soffice: str, arguments: list[str], log: Path, done: Path | None = None) -> None:
    """Run soffice with a time limit; with ``done``, stop it once that file is complete."""
    with log.open("ab") as stream:
        process = subprocess.Popen(
            [soffice, *arguments],
            stdin=subprocess.DEVNULL,
            stdout=stream,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=_clean_env(),
        )
    try:
        deadline = time.monotonic() + SOFFICE_TIMEOUT
        size = -1
        while process.poll() is None:
            if done is not None and done.exists():
                if done.stat().st_size == size > 0:
                    break  # written and no longer growing; soffice.bin may linger
                size = done.stat().st_size
            if time.monotonic() > deadline:
                raise RenderError(
                    f"soffice did not finish within {SOFFICE_TIMEOUT} s; its output is in {log}"
                )
            time.sleep(0.5)
    finally:
        _stop(process)


def _profile(soffice: str, folder: Path, log: Path) -> str:
    """A fresh LibreOffice profile with the GRADE_POINTS function installed; its URL."""
    url = folder.as_uri()
    _soffice(soffice, [f"-env:UserInstallation={url}", "--headless", "--terminate_after_init"], log)
    user = folder / "user"
    module = user / "basic" / "Standard" / "Module1.xba"
    registry = user / "registrymodifications.xcu"
    if not module.exists() or not registry.exists():
        raise RenderError(f"soffice did not create its profile in {folder}; see {log}")
    module.write_text(_BASIC_SHIM, encoding="utf-8")
    scripts = user / "Scripts" / "python"
    scripts.mkdir(parents=True, exist_ok=True)
    paths = [str(ROOT / "udfs"), str(ROOT)]
    paths += dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    (scripts / "render_udfs.py").write_text(_PYTHON_SIDE.format(paths=paths), encoding="utf-8")
    text = registry.read_text(encoding="utf-8")
    registry.write_text(text.replace("</oor:items>", _REGISTRY_ITEMS + "</oor:items>"), "utf-8")
    return url


def _sheet_parts(book: zipfile.ZipFile) -> list[tuple[str, str]]:
    """(sheet name, part name) for every sheet, in tab order."""
    workbook = book.read("xl/workbook.xml").decode("utf-8")
    rels = book.read("xl/_rels/workbook.xml.rels").decode("utf-8")
    targets = {}
    for element in re.findall(r"<Relationship\b[^>]*>", rels):
        ident = re.search(r'\bId="([^"]+)"', element)
        target = re.search(r'\bTarget="([^"]+)"', element)
        if ident and target:
            path = target.group(1)
            path = path.lstrip("/") if path.startswith("/") else "xl/" + path
            targets[ident.group(1)] = path
    sheets = []
    for element in re.findall(r"<sheet\b[^>]*>", workbook):
        name = re.search(r'\bname="([^"]*)"', element)
        ident = re.search(r'\br:id="([^"]+)"', element)
        if name and ident:
            sheets.append((_unescape(name.group(1)), targets[ident.group(1)]))
    return sheets


def _unescape(text: str) -> str:
    for entity, char in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&apos;", "'")):
        text = text.replace(entity, char)
    return text.replace("&amp;", "&")


def _only_sheet(workbook: str, wanted: int, print_area: str | None = None) -> str:
    """workbook.xml with every sheet but the ``wanted``-th hidden and that one active.

    With ``print_area`` (a reference such as ``'Exceptions'!$A$1:$K$18``) that sheet prints only
    that range.
    """
    position = iter(range(10**6))

    def visibility(match: re.Match[str]) -> str:
        element = re.sub(r'\sstate="[^"]*"', "", match.group(0))
        state = "visible" if next(position) == wanted else "hidden"
        return element.replace("<sheet ", f'<sheet state="{state}" ', 1)

    workbook = re.sub(r"<sheet\b[^>]*>", visibility, workbook)
    workbook = re.sub(r'\sfirstSheet="\d+"', "", workbook)
    workbook = re.sub(r'\sactiveTab="\d+"', "", workbook)
    workbook = re.sub(r"<workbookView\b", f'<workbookView activeTab="{wanted}"', workbook, count=1)
    if print_area is None:
        return workbook
    workbook = re.sub(
        rf'<definedName name="_xlnm\.Print_Area" localSheetId="{wanted}"[^>]*>[^<]*</definedName>',
        "",
        workbook,
    )
    area = _escape(print_area)
    name = f'<definedName name="_xlnm.Print_Area" localSheetId="{wanted}">{area}</definedName>'
    if "<definedNames>" in workbook:
        return workbook.replace("<definedNames>", "<definedNames>" + name, 1)
    for follower in ("<calcPr", "<oleSize", "<customWorkbookViews", "<pivotCaches", "<extLst"):
        if follower in workbook:
            return workbook.replace(follower, f"<definedNames>{name}</definedNames>{follower}", 1)
    return workbook.replace("</workbook>", f"<definedNames>{name}</definedNames></workbook>")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _print_area(sheet_name: str, sheet: str, last_column: str) -> str:
    """The sheet's used rows, from column A to ``last_column``, as a defined-name reference."""
    dimension = re.search(r'<dimension ref="[A-Z]+\d+(?::[A-Z]+(\d+))?"', sheet)
    last_row = dimension.group(1) if dimension and dimension.group(1) else "1048576"
    quoted = sheet_name.replace("'", "''")
    return f"'{quoted}'!$A$1:${last_column}${last_row}"


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


def _book_for(source: Path, sheet_name: str, target: Path) -> None:
    """Copy ``source`` to ``target`` showing and printing only ``sheet_name``."""
    with zipfile.ZipFile(source) as book:
        sheets = _sheet_parts(book)
        names = [name for name, _ in sheets]
        if sheet_name not in names:
            raise RenderError(f"{source} has no sheet {sheet_name!r}; it has {names}")
        wanted = names.index(sheet_name)
        part = sheets[wanted][1]
        area = None
        if sheet_name in LAST_COLUMN:
            sheet = book.read(part).decode("utf-8")
            area = _print_area(sheet_name, sheet, LAST_COLUMN[sheet_name])
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as copy:
            for item in book.infolist():
                data = book.read(item)
                if item.filename == "xl/workbook.xml":
                    data = _only_sheet(data.decode("utf-8"), wanted, area).encode("utf-8")
                elif item.filename == part:
                    data = _printable(data.decode("utf-8")).encode("utf-8")
                copy.writestr(item, data)


def render(book: Path, out: Path, keep: Path | None = None) -> list[Path]:
    soffice = _tool("soffice", "libreoffice-calc")
    pdftoppm = _tool("pdftoppm", "poppler-utils")
    if not book.is_file():
        raise RenderError(f"no workbook at {book}")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory(prefix="xlgrade-pictures-") as scratch:
        work = Path(keep) if keep else Path(scratch)
        work.mkdir(parents=True, exist_ok=True)
        log = work / "soffice.log"
        url = _profile(soffice, work / "profile", log)
        for picture, sheet in PICTURES.items():
            stem = Path(picture).stem
            copy = work / f"{stem}{book.suffix}"
            _book_for(book, sheet, copy)
            pdf = work / f"{stem}.pdf"
            pdf.unlink(missing_ok=True)
            print(f"{sheet}: printing to PDF", flush=True)
            _soffice(
                soffice,
                [f"-env:UserInstallation={url}", "--headless", "--norestore",
                 "--convert-to", "pdf:calc_pdf_Export", "--outdir", str(work), str(copy)],
                log,
                done=pdf,
            )  # fmt: skip
            if not pdf.exists():
                raise RenderError(f"soffice wrote no PDF for {sheet!r}; see {log}")
            try:
                subprocess.run(
                    [pdftoppm, "-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile",
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
    except RenderError as error:
        print(f"render_pictures: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
