"""Collection settings for ``python -m pytest`` at the repository root.

The doctests of ``xlgrade/`` are collected by importing each module; ``__main__`` runs the
command line when imported, so it is left out.
"""

collect_ignore = ["xlgrade/__main__.py"]
