"""``python -m study``: the win-rate study's command line (``study/cli.py``)."""

import sys

from study.cli import main

sys.exit(main())
