"""``hexa app`` started as a player starts it, stopped once it shows the engine's board: its stderr is the test's.

``python -m tests.app.window_quiet_start APP-OPTIONS…`` runs :func:`companion_app.cli.main` itself; the only thing
added is a check on the UI clock that stops the app when the board is drawn (or after 60 s), printing one JSON line.
``--as-demo`` first sets up logging as ``hexa demo`` does before it opens the same app in its window.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from companion_app.demo.cli import configure_logging
from companion_app.kivy_start import prepare_kivy

TIMEOUT_S = 60.0


def main(argv: list[str]) -> int:
    if "--as-demo" in argv:
        argv = [a for a in argv if a != "--as-demo"]
        configure_logging(verbose=False)
    prepare_kivy(verbose="--verbose" in argv)  # what the app's main does first; it changes nothing when repeated
    from kivy.clock import Clock

    from companion_app.cli import main as app_main
    from companion_app.ui.app import HexaApp
    from companion_app.viewmodels.header_model import connection_text

    result: dict[str, Any] = {"ok": False, "error": f"no board within {TIMEOUT_S:.0f} s"}
    started = time.monotonic()

    def watch(app: HexaApp) -> None:
        def check(_dt: float) -> bool:
            drawn = app.session.board is not None and app.connection_badge == connection_text("live")
            if drawn or time.monotonic() - started > TIMEOUT_S:
                result.update(ok=drawn, error="" if drawn else result["error"], badge=app.connection_badge)
                app.stop()
                return False
            return True

        Clock.schedule_interval(check, 0.1)

    HexaApp.on_start = watch
    code = app_main(argv)
    print(json.dumps(result))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
