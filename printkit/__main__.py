"""Run the printkit command as `python -m printkit`."""

import sys

from printkit.cli import main

sys.exit(main())
