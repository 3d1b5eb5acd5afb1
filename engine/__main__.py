"""``python -m engine`` is the ``hexa`` command."""

import sys

from engine.cli.main import main

sys.exit(main())
