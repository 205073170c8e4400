"""xlgrade in xlwings Lite: the worksheet functions and the buttons, registered for Office.js.

The Lite book's ``main.py`` is one import::

    from xlgrade_lite import *

Every function of :data:`xlgrade_udfs.FUNCTIONS` becomes a module attribute of the same name,
registered with ``xlwings.server`` from its one definition (:func:`xlgrade_udfs.lite_function`):
a function added to :mod:`xlgrade_udfs` appears here with nothing else to edit. The buttons of
the classic Grading tab are the scripts below, run from the xlwings Lite task pane; each works
on the book object through :mod:`xlgrade.workbook.live`, as the classic buttons do. Import and
New season read and write files only in xlwings Lite's Files ▸ Import/Export folder
(:data:`xlgrade.workbook.live.LITE_FILES`). What a script has to say (what it did, or why it
did nothing) is printed to the task pane's output, never a traceback. Each script first writes
the book's live formulas again (:func:`xlgrade.workbook.live.write_live_formulas`), so that a
call Excel stored unlinked from the add-in is linked once any button is pressed. A book without
its Players or Results sheet stops Recalculate season, Import and New season before anything
is written (:func:`xlgrade.workbook.live.refuse_missing_sheets`), saying so in the pane; Check
results, which grades nothing, lists the missing sheet on Exceptions.
"""

from __future__ import annotations

import os

import xlgrade_udfs
import xlwings as xw
from xlwings import server

from xlgrade.errors import GradingError
from xlgrade.workbook import layout, live

__all__ = [
    *xlgrade_udfs.FUNCTIONS,
    "check_results",
    "import_file",
    "new_season",
    "recalculate_season",
]

for _name, _function in xlgrade_udfs.FUNCTIONS.items():
    globals()[_name] = xlgrade_udfs.lite_function(_function)

_BUTTONS = {button.script: button.reference for button in layout.LITE_BUTTONS}
"""Each script's sheet button (:data:`xlgrade.workbook.layout.LITE_BUTTONS`): clicking it runs
the script and opens the task pane, where the script prints what it did."""


@server.script(name="Recalculate season", button=_BUTTONS["Recalculate season"], show_taskpane=True)
def recalculate_season(book: xw.Book) -> None:
    """Grade the season from Settings, Players and Results; rewrite the output sheets.

    The Recalculate season button: :func:`xlgrade.workbook.live.recalculate` on the book. A run
    that cannot grade prints why, and the lists stay those of the last good run.
    """
    try:
        live.refuse_missing_sheets(book)
        live.write_live_formulas(book)
        live.recalculate(book)
    except GradingError as error:
        print(f"Error: {error}")


@server.script(name="Check results", button=_BUTTONS["Check results"], show_taskpane=True)
def check_results(book: xw.Book) -> None:
    """List every cell of Settings, Players and Results that cannot be read on Exceptions.

    The Check results button: :func:`xlgrade.workbook.live.check_results` on the book.
    """
    live.write_live_formulas(book)
    live.check_results(book)  # a missing sheet is one of the lines it lists


@server.script(name="New season", button=_BUTTONS["New season"], show_taskpane=True)
def new_season(book: xw.Book) -> None:
    """Write next season's book to Files ▸ Import/Export, to download; this book is kept.

    The New season from this one button: :func:`xlgrade.workbook.live.new_season_file`,
    which writes the book whole or not at all through the one writer
    (:func:`xlgrade.formats.files.write_whole`; in Pyodide without its lock, there being no
    other run to wait for). A book that cannot be written is said so in the pane. The new book
    carries the engine running here, the open book's own, and the pane names it (its version
    and :func:`xlgrade.workbook.lite.engine_digest`): in the book, no digest outside it can
    be checked (docs/install.md, "What the Lite book carries").
    """
    from xlgrade.workbook.lite import running_engine  # openpyxl's side: only when it runs

    try:
        live.refuse_missing_sheets(book)
        live.write_live_formulas(book)
        path = live.new_season_file(book)
    except GradingError as error:
        print(f"Error: {error}")
        return
    except OSError as error:  # the book could not be written (a full disk, say)
        name = os.path.basename(error.filename) if error.filename else "next season's book"
        print(f"Error: {error.strerror or error}: {name}; nothing was written")
        return
    print(
        f"Wrote {path.rsplit('/', 1)[-1]}, next season's book: download it from xlwings Lite "
        "▸ Files ▸ Import/Export and open it. This book is not changed. It carries this "
        f"book's engine ({running_engine()}), the code running here; `xlgrade new-season` "
        "on a computer carries it only where it is a released xlgrade's."
    )


@server.script(name="Import", button=_BUTTONS["Import"], show_taskpane=True)
def import_file(book: xw.Book) -> None:
    """Add the files dropped on Files ▸ Import/Export (TRFs, ECF files, CSVs) and recalculate.

    The import: :func:`xlgrade.workbook.live.import_file` on the book.
    """
    try:
        live.refuse_missing_sheets(book)
        live.write_live_formulas(book)
        lines = live.import_file(book)
    except GradingError as error:
        print(f"Error: {error}")
        return
    print("\n".join(lines))
