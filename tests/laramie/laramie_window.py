"""Laramie in the real app against a real engine serving laramie-station: each figure's facing wedge and state
badge, a stack with its count and its list, and a tapped unit's to-hit number for every enemy with each modifier.

Run in its own process under Xvfb: ``xvfb-run -a python -m tests.laramie.laramie_window``. Prints one JSON line like
the window scenarios of ``tests.app.window_scenario``, whose driver (``tests.app.window_driver``) it uses: it waits
on state, never on frames.
"""

from __future__ import annotations

import sys
from typing import Any

from tests.app.window_driver import (
    Driver,
    Step,
    TableStandIn,
    _play,
    keep_for_guide,
    run_against_engine,
)

SCENARIO = "laramie-station"
SEED = 2  # the auto player's seed whose game brings Jack onto Gary's hex before the first combat phase


def to_the_combat() -> list[dict[str, Any]]:
    """The actions of the auto player's game up to the first combat phase with a stack on the board."""
    from engine.actions import action_to_dict
    from engine.autoplay import AutoPlayer
    from engine.game import Game
    from engine.scenario import load_scenario

    game = Game(load_scenario(SCENARIO))
    player = AutoPlayer(SEED, explore=0.0)  # the plain aims' game: the seed was picked for it
    actions: list[dict[str, Any]] = []

    def stacked() -> bool:
        places = [f.hex for f in game.state.figures.values() if f.alive and f.hex is not None]
        return len(set(places)) < len(places)

    while not ("combat order" in game.prompt.text and stacked()):
        action = player.choose(game)
        actions.append(action_to_dict(action))
        game.apply(action)
        if len(actions) > 500:
            raise AssertionError(f"no stack before a combat phase within 500 actions of seed {SEED}")
    return actions


def laramie_script(d: Driver) -> Step:
    """The town with every figure facing a way and showing its state; the game played to its first combat phase;
    the Gary and Jack stack tapped (its count and list), then Gary's to-hit list."""
    app = d.app
    s = app.session

    def live() -> bool:
        """the app live with the first prompt on the board"""
        return app.agent.state == "live" and s.prompt is not None and s.board is not None

    TableStandIn(app.agent, {})  # no camera runs: an empty table
    yield live
    play = _play(app)
    board, info = play.ids.board, play.ids.info
    actions = to_the_combat()
    for action in actions:
        before = len((s.snapshot or {}).get("history") or [])
        app.send_action(action)

        def taken(before: int = before) -> bool:
            """the engine's answer to the action on the tablet (one more entry in its history)"""
            return len((s.snapshot or {}).get("history") or []) > before

        yield taken
    yield d.expect(lambda: s.prompt is not None and "combat order" in s.prompt.text, "the combat phase begins")
    view = s.board
    assert view is not None
    alive = [f for f in view.figures.values() if f.alive]
    d.check(all(f.facing_deg is not None for f in alive), "every figure drawn with its front")
    d.check(all(f.badges and f.badges[0].startswith("[") and "] " in f.badges[0] for f in alive),
            "every figure's state as a badge of a letter and a word")
    gary = view.figures["gary"]
    d.check(gary.stack == 2 and view.figures["jack"].stack == 2 and "[*] hero" in gary.badges,
            "Gary and Jack drawn as a stack of two, Gary marked the hero")
    board.fit()
    yield d.drawn()
    d.screenshot("laramie-board")

    def answered(figure: str) -> bool:
        sel = s.selection
        return sel is not None and sel.figure == figure and set(sel.answers) == {q.what for q in s.queries}

    for _ in range(3):  # the stack: a tap picks its top figure, the next tap the other
        d.tap(*board.window_pos_of(gary.key))
        yield d.expect(lambda: s.selection is not None, "a tap on the stack selects a figure")
        yield d.expect(lambda: "of a stack of 2, tap again for the next: " in info.text,
                       "the stack's count and its list on screen")
        if s.selection is not None and s.selection.figure == "gary":
            break
    d.check("Gary ([N] normal)" in info.text and "Jack ([N] normal)" in info.text, "the stack lists both, with states")
    yield d.expect(lambda: answered("gary"), "every query answered about Gary")
    yield d.expect(lambda: "Jeff (I8, range 9): 1d10 +3 ≦ 7 (40%) — hit value +7; range 9 +1, lumber yard on the "
                           "line +2" in info.text, "the to-hit number with each modifier listed")
    yield d.expect(lambda: "Jesse (L8, range 11): no normal fire — the line of sight is blocked" in info.text,
                   "why a target cannot be fired at")
    d.check(info.text.index("Jeff (I8") < info.text.index("Jesse (L8"), "the targets it can fire at listed first")
    sel = s.selection
    assert sel is not None
    d.check({line.target for line in sel.sight_lines} >= {"jesse", "joe", "john", "tony", "tom", "thomas", "jeff"},
            "a line to every enemy")
    yield d.drawn()
    keep_for_guide(d.screenshot("laramie-to-hit"), "laramie-tablet.png")  # the guide's picture, when asked to


def main() -> int:
    return run_against_engine(SCENARIO, laramie_script)


if __name__ == "__main__":
    sys.exit(main())
