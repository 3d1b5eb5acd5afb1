"""Lost Worlds in the real app against a real engine serving the ruined tower: the levels shaded and numbered, a
combat prompt naming the page each player opens, a tapped character's movement points and costed reach, its battle
ranges with the one the height difference breaks.

Run in its own process under Xvfb: ``xvfb-run -a python -m tests.lost_worlds.lw_window``. Prints one JSON line like
the window scenarios of ``tests.app.window_scenario``, whose driver (``tests.app.window_driver``) it uses: it waits
on state, never on frames.
"""

from __future__ import annotations

import re
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

SCENARIO = "lost-worlds-ruined-tower"
SEED = 40  # the auto player's seed for the dice and every answer the director leaves to it
WATCHED = "dwarf"  # the character tapped at that combat
# Where the director sends characters: the skeleton to the balcony's edge (I4); below it the dwarf next to the troll
# (the skeleton 3 levels up, out of his battle range) and the elf, tall enough to fight the skeleton up there; the
# knight keeps still.
DESTINATIONS = {"dwarf": "I3", "elf": "J3", "skeleton": "I4", "troll": "H3"}


def distances_to(game: Any, goal: str) -> dict[Any, int]:
    """Movement points from every space to ``goal`` (1 a step on one level, 1 per level otherwise), walls heeded."""
    import heapq

    rules, board = game.rules, game.scenario.board
    start = board.from_label(goal)
    best = {start: 0}
    todo = [(0, start.q, start.r, start)]
    while todo:
        d, _q, _r, h = heapq.heappop(todo)
        if d > best[h]:
            continue
        for n in rules.spaces.steps(h):
            cost = d + max(1, abs(board.level(n) - board.level(h)))
            if cost < best.get(n, 1 << 30):
                best[n] = cost
                heapq.heappush(todo, (cost, n.q, n.r, n))
    return best


def directed(game: Any, player: Any) -> Any:
    """The auto player's answer, except where the director steers: a character with a destination steps toward it
    and ends its move there, the others end theirs at once; blocks are let pass, back spaces kept, and the first
    combat offered without the watched character is started (a tap on him then selects him, not a damage answer)."""
    from engine.actions import Choose

    ids = [o.id for o in game.prompt.options]
    mover = game.rules.acting(game.state)
    if mover is not None:
        here = game.state.figures[mover].hex
        goal = DESTINATIONS.get(mover)
        if goal is not None and here != game.scenario.board.from_label(goal):
            dist = distances_to(game, goal)
            steps = [o for o in game.prompt.options if o.id.startswith("to-") and o.hex in dist]
            nearer = min(steps, key=lambda o: dist[o.hex], default=None)
            if nearer is not None and dist[nearer.hex] < dist.get(here, 1 << 30):
                return Choose(nearer.id)
        if "end" in ids:
            return Choose("end")
    if any(":" in i for i in ids):  # a combat to start
        return Choose(next((i for i in ids if ":" in i and WATCHED not in i.split(":")), "pass"))
    for pick in (*DESTINATIONS, "pass" if ids == ["block", "pass"] else "", "keep"):
        if pick and pick in ids:
            return Choose(pick)
    return player.choose(game)


def broken_by_height(texts: tuple[str, ...]) -> bool:
    """A battle range answer with one range the height difference breaks and one range that holds."""
    return any("is not taller than" in t for t in texts) and any(t.endswith(": in battle range") for t in texts)


def to_the_combat() -> tuple[list[dict[str, Any]], int, str, str, str, tuple[str, ...]]:
    """The actions of a directed game (:func:`directed`) up to the first combat prompt at which the watched
    character's battle range is broken by height (the engine's own rules, in step); the first moment a character
    moving has spent some of its movement points: after how many actions, which character, and its points as the
    reach query words them ("3 of 4 movement points"); the combat prompt's text and the watched character's battle
    range texts then."""
    from engine.actions import action_to_dict
    from engine.autoplay import AutoPlayer
    from engine.game import Game
    from engine.scenario import load_scenario

    game = Game(load_scenario(SCENARIO))
    player = AutoPlayer(SEED, explore=0.0)  # the plain aims' game: the seed was picked for it
    actions: list[dict[str, Any]] = []
    moving: tuple[int, str, str] | None = None
    while not ("open your book at page" in game.prompt.text
               and broken_by_height(game.rules.query(game.state, "battle-range", WATCHED).texts)):
        who = game.prompt.figure
        if moving is None and who is not None and "movement points left" in game.prompt.text:  # its own action
            points = game.rules.query(game.state, "reachable", who).texts[0].split(": ", 1)[1]
            left, _, full = points.partition(" of ")
            if full and int(left) < int(full.split()[0]):
                moving = (len(actions), who, points)
        action = directed(game, player)
        actions.append(action_to_dict(action))
        game.apply(action)
        if len(actions) > 800:
            raise AssertionError(f"no such combat within 800 actions of the directed game (seed {SEED})")
    assert moving is not None, f"no character moved before the combat of seed {SEED}"
    return (actions, *moving, game.prompt.text, game.rules.query(game.state, "battle-range", WATCHED).texts)


def lost_worlds_script(d: Driver) -> Step:
    """The tower's levels on the board; the game played to its first combat prompt, a character tapped on the way
    while it moves (the points it has left, its costed reach); then the dwarf tapped at the combat: his movement
    points, his reach with costs, his battle ranges (the skeleton on the balcony out of range)."""
    app = d.app
    s = app.session

    def live() -> bool:
        """the app live with the initiative roll on the board"""
        return app.agent.state == "live" and s.prompt is not None and s.board is not None

    TableStandIn(app.agent, {})  # no camera runs: an empty table
    yield live
    play = _play(app)
    board, info = play.ids.board, play.ids.info
    view = s.board
    assert view is not None
    level = {t.label: t.level for t in view.tiles.values()}
    d.check(level["E2"] == 0 and level["A1"] == 2 and level["E5"] == 3 and level["H5"] == 4 and level["I5"] == 5,
            "every space's level on the board")
    fills = {t.level: t.fill for t in view.tiles.values() if t.terrain == view.tiles[next(iter(view.tiles))].terrain}
    d.check(len(set(fills.values())) == len(fills), "each level shaded its own way")
    yield d.drawn()
    d.screenshot("lost-worlds-board")
    actions, moved_after, mover, points, combat_text, ranges = to_the_combat()
    for n, action in enumerate(actions):
        if n == moved_after:  # a character in the middle of its move: the points it has left on the tablet
            yield d.drawn()
            figure = s.board.figures[mover]  # type: ignore[union-attr]
            name = figure.name
            d.tap(*board.window_pos_of(figure.key))
            words = f"{name}: {points}"
            yield d.expect(lambda: s.selection is not None and s.selection.figure == mover
                           and f"{points} left" in s.prompt.text  # type: ignore[union-attr]
                           and words in info.text, "the movement points left while moving")  # noqa: B023 - awaited now
            d.check(all(c.label.isdigit() for c in s.selection.cells("shade")  # type: ignore[union-attr]
                        if c.label != "in range"),  # the battle range's shade beside the reach's costs
                    "each reachable space labelled with its cost while moving")
            yield d.drawn()
            d.screenshot("lost-worlds-moving")
        before = len((s.snapshot or {}).get("history") or [])
        app.send_action(action)

        def taken(before: int = before) -> bool:
            """the engine's answer to the action on the tablet (one more entry in its history)"""
            return len((s.snapshot or {}).get("history") or []) > before

        yield taken
    yield d.expect(lambda: s.prompt is not None and "open your book at page" in s.prompt.text,
                   "the combat prompt on the tablet")

    def panel_texts() -> list[str]:
        return [w.text for w in play.ids.prompt.walk() if hasattr(w, "text")]

    yield d.drawn()
    pages = [f"{who}: open your book at page {page}" for who, page in
             re.findall(r"(\w+): open your book at page (\d+)", combat_text)]
    assert len(pages) == 2, combat_text
    yield d.expect(lambda: any(all(p in t for p in pages) for t in panel_texts()),
                   "the page each player opens, in the prompt panel")
    watched = next(f for f in s.board.figures.values() if f.id == WATCHED)  # type: ignore[union-attr]
    d.tap(*board.window_pos_of(watched.key))

    def answered() -> bool:
        sel = s.selection
        return sel is not None and sel.figure == WATCHED and set(sel.answers) == {q.what for q in s.queries}

    yield d.expect(answered, "every query answered about the tapped character")
    sel = s.selection
    assert sel is not None
    yield d.expect(lambda: f"{watched.name}: " in info.text and "movement points" in info.text,
                   "his movement points left on screen")
    d.check(all(c.label.isdigit() for c in sel.cells("shade") if c.label != "in range"),
            "each reachable space labelled with its cost")
    broken = next(t for t in ranges if "is not taller than" in t)
    yield d.expect(lambda: broken in info.text, "where height breaks a battle range, with the reason")
    held = next(t for t in ranges if t.endswith(": in battle range"))
    back = next(t for t in ranges if t.startswith("back space"))
    yield d.expect(lambda: held in info.text and back in info.text,
                   "a battle range that holds and the back space")
    yield d.drawn()
    keep_for_guide(d.screenshot("lost-worlds-combat"), "lost-worlds-tablet.png")  # the guide's picture, when asked to


def main() -> int:
    return run_against_engine(SCENARIO, lost_worlds_script)


if __name__ == "__main__":
    sys.exit(main())
