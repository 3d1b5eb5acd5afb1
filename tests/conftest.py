"""The test process speaks English unless a test asks otherwise: a Japanese system locale changes no assertion."""

from __future__ import annotations

import os

os.environ["HEXA_LANG"] = "en"
