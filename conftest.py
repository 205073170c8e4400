"""Collection settings for ``python -m pytest`` at the repository root.

The doctests of ``xlgrade/`` are collected by importing each module; ``__main__`` runs the
command line when imported, so it is left out.

A command that reaches the command line's last line of defence (an exception that is not a
refusal of the input, :data:`xlgrade.cli.RAISE_INTERNAL`) raises it in every test, subprocesses
included, so no test passes through it unseen.
"""

import os

collect_ignore = ["xlgrade/__main__.py"]

os.environ["XLGRADE_RAISE_INTERNAL"] = "1"

pytest_plugins = ["tests.pyodide.record"]
"""Every Office.js call the tests make kept for the Pyodide check when asked
(tests/pyodide/record.py)."""
