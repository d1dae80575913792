"""Run the printkit command as `python -m printkit`."""

import sys

from .cli import main

sys.exit(main())
