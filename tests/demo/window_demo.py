"""The demo in a real window: services started as ``hexa demo`` does, the app on the table hand, one drag judged.

Run in its own process under Xvfb: ``xvfb-run -a python -m tests.demo.window_demo [SCENARIO]``. It starts the
camera service on the synthetic table and the engine (goblins-treasure unless named), the table hand proxy and the
app; answers
rolls and choices through the app's link like button taps, drags the figure the engine asks to move with a
simulated touch, and waits until the engine applies that move *from the camera*. Prints one JSON line
``{"ok", "checks", "error", "moved"}`` and saves ``artifacts/screenshots/demo.png`` and ``demo-camera.png``
(for another scenario ``demo-SCENARIO.png`` and ``demo-SCENARIO-camera.png``).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from companion_app.kivy_start import prepare_kivy

prepare_kivy()  # Kivy set up as `hexa demo` sets it up for the app (its providers, its clock), before Kivy loads

from kivy.config import Config  # noqa: E402

Config.set("graphics", "width", "1280")  # before any window exists
Config.set("graphics", "height", "800")

from kivy.clock import Clock  # noqa: E402

from companion_app.demo.launcher import DemoServices, port_of  # noqa: E402
from companion_app.demo.table_hand import TableHandProxy  # noqa: E402
from companion_app.net.agent import NetworkAgent  # noqa: E402
from companion_app.ui.app import HexaApp  # noqa: E402
from engine import wire  # noqa: E402
from engine.actions import Move, action_from_dict, action_to_dict  # noqa: E402
from engine.autoplay import AutoPlayer  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.prompts import PromptKind  # noqa: E402
from engine.scenario import Scenario, load_scenario  # noqa: E402
from engine.service.client import EngineClient  # noqa: E402
from tests.app.window_driver import Driver, Step  # noqa: E402 - the app tests' touch driver on the Kivy clock

SCENARIO = "goblins-treasure"


class Watcher:
    """The test's own view of the engine (not the app's): game replica and the sources of applied actions."""

    def __init__(self, client: EngineClient, scenario: Scenario) -> None:
        self.client, self.scenario = client, scenario
        self.sources: list[tuple[str, str]] = []  # (action text, source) of every game.events message
        client.sync()

    def pump(self) -> None:
        while (message := self.client.poll(0.002)) is not None:  # poll(0) would not look at all
            if isinstance(message, wire.GameEventsMessage):
                self.sources.append((message.action, message.source))

    def game(self) -> Game:
        assert self.client.game is not None
        return Game.replay(self.scenario, [action_from_dict(h["action"]) for h in self.client.game["history"]])


def demo_script(watcher: Watcher, moved: dict[str, Any], shot: str = "demo") -> Any:
    def script(d: Driver) -> Step:
        app = d.app
        s = app.session
        player = AutoPlayer(1)

        def live() -> bool:
            """the app live on the demo's engine with a prompt"""
            watcher.pump()
            return app.agent.state == "live" and s.prompt is not None and s.board is not None

        yield live
        yield d.expect(lambda: "Live" in app.connection_badge, "the app is live through the table hand")
        for _ in range(40):
            watcher.pump()
            game = watcher.game()
            if game.prompt.kind is PromptKind.MOVE:
                break
            n = len(game.history)
            app.agent.request("action", action=action_to_dict(player.choose(game)))  # as a button tap would

            def answered(n: int = n) -> bool:
                """the engine's answer to a roll or choice"""
                watcher.pump()
                return len(watcher.client.game["history"]) > n if watcher.client.game else False

            yield answered
        else:
            raise AssertionError("no move prompt within 40 answers")

        def app_has_move_prompt() -> bool:
            """the app showing the move prompt"""
            return s.prompt is not None and s.prompt.kind == "move"

        yield app_has_move_prompt
        yield d.drawn()  # the board laid out and drawn: the drag lands on the figure
        figure = game.prompt.figure or ""
        here = game.state.figures[figure].hex
        assert here is not None
        choice = player.choose(game)
        to = choice.to if isinstance(choice, Move) and choice.to != here else \
            next(h for h in sorted(game.prompt.moves, key=lambda h: (h.q, h.r)) if h != here)
        moved.update(figure=figure, to=watcher.scenario.label(to))
        board = app.sm.get_screen("play").ids.board
        d.drag(board.window_pos_of((here.q, here.r)), board.window_pos_of((to.q, to.r)))
        action_text = f"move {figure} {watcher.scenario.label(to)}"

        def judged_from_camera() -> bool:
            """the engine applying the dragged move from what the camera sees"""
            watcher.pump()
            return (action_text, "camera") in watcher.sources

        yield judged_from_camera
        d.check(True, f"dragged {figure} to {moved['to']}: the hand moved it, the camera saw it, the engine took it")

        def app_shows_it() -> bool:
            """the app's board with the figure on its new hex"""
            return s.board is not None and s.board.figures[figure].key == (to.q, to.r)

        yield app_shows_it

        def next_prompt() -> bool:
            """the app holding the engine's newest game (the prompt after the move)"""
            watcher.pump()
            return s.snapshot is not None and s.snapshot == watcher.client.game

        yield next_prompt
        yield d.drawn()
        d.screenshot(shot)
        yield from camera_preview(d, f"{shot}-camera")

    return script


def camera_preview(d: Driver, shot: str) -> Step:
    """The Camera screen once it shows the synthetic camera's picture: checked and screenshot as ``shot``."""
    d.app.show_screen("camera")
    camera = d.app.sm.get_screen("camera")

    def preview() -> bool:
        """the synthetic camera's preview on the Camera screen"""
        return camera.ids.preview.texture is not None

    yield preview
    yield d.drawn()
    d.check(True, "the camera preview of the synthetic table is shown")
    d.screenshot(shot)


def main(name: str = SCENARIO) -> int:
    scenario = load_scenario(name)
    shot = "demo" if name == SCENARIO else f"demo-{name}"
    moved: dict[str, Any] = {}
    with DemoServices(name, say=lambda line: print(line, file=sys.stderr)) as services:
        ep = services.endpoints
        with TableHandProxy(ep.hand, ep.engine_commands, ep.engine_pub, ep.control, scenario):
            watcher = Watcher(EngineClient(ep.engine_pub, ep.engine_commands), scenario)
            agent = NetworkAgent(f"tcp://127.0.0.1:{port_of(ep.engine_pub)}", f"tcp://127.0.0.1:{port_of(ep.hand)}",
                                 ep.vision_pub)
            app = HexaApp(agent)
            driver = Driver(app, demo_script(watcher, moved, shot), timeout_s=60.0)
            Clock.schedule_interval(driver.tick, 0)
            try:
                app.run()
            finally:
                watcher.client.close()
    ok = driver.error is None
    print(json.dumps({"ok": ok, "checks": driver.checks, "error": driver.error, "moved": moved}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:2]))
