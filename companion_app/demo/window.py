"""The demo's window: the tablet app pointed at the table hand (commands) and the camera's preview.

The only module of the demo that loads Kivy, and only when :func:`open_app` runs.
"""

from __future__ import annotations

from .launcher import DemoEndpoints, port_of


def app_arguments(endpoints: DemoEndpoints, size: str | None = None) -> list[str]:
    """``hexa app`` options for the demo: engine updates direct, commands through the hand, preview from vision."""
    args = ["--engine", "127.0.0.1", "--pub-port", str(port_of(endpoints.engine_pub)),
            "--command-port", str(port_of(endpoints.hand)), "--vision", endpoints.vision_pub]
    return [*args, "--size", size] if size else args


def open_app(endpoints: DemoEndpoints, size: str | None = None) -> int:
    """Run the app until its window is closed; its exit code."""
    from companion_app.cli import main as app_main

    return int(app_main(app_arguments(endpoints, size)))
