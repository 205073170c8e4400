"""``python -m xlgrade``: the same as the ``xlgrade`` command."""

import sys

from xlgrade.cli import main

sys.exit(main())
