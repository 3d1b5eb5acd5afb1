"""``hexa demo``: the whole product on the synthetic table, in a window or headless.

Public API:

- :class:`companion_app.demo.launcher.DemoServices` starts the camera service (synthetic table with a
  control socket) and the engine on free loopback ports, waits until both answer, and stops them.
- :class:`companion_app.demo.table_hand.TableHandProxy` is the app's command port in the demo: moves
  dragged on the tablet become a hand placing the figure on the synthetic table, so the camera judges them.
- :func:`companion_app.demo.headless.play_headless` plays a scripted game through the camera loop.
- :func:`companion_app.demo.cli.main` is ``hexa demo``.

Nothing here imports Kivy at import time; only :mod:`companion_app.demo.window` opens the window.
"""
