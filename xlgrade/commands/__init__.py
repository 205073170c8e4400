"""The command line's subcommands, one module each.

Each module defines ``register(subparsers)``, which adds its parser and sets ``func`` to a
function taking the parsed arguments and returning the exit code. :mod:`xlgrade.cli` lists
the modules in :data:`xlgrade.cli.COMMANDS`.
"""

__all__: list[str] = []
