"""The tablet app on Android: python-for-android starts this file (see buildozer.spec). On a desktop: ``hexa app``.

A ``keys`` folder made by ``hexa keys --dir keys --client tablet`` at the top of the repository when the APK is
built goes into it, and the app then connects with those CURVE keys (an engine started with ``--lan`` needs them).
"""

import sys
from pathlib import Path

from companion_app.cli import main

KEYS = Path(__file__).resolve().with_name("keys")


def arguments(argv: list[str]) -> list[str]:
    """The app's options: those given, else the bundled keys when the APK carries them."""
    if not argv and (KEYS / "server.key").exists():
        return ["--keys", str(KEYS), "--client", "tablet"]
    return argv


if __name__ == "__main__":
    sys.exit(main(arguments(sys.argv[1:])))
