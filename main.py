"""The tablet app on Android: python-for-android starts this file (see buildozer.spec). On a desktop: ``hexa app``."""

import sys

from companion_app.cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
