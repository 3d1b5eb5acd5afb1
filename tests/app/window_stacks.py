"""Window scenarios with stacks of figures on the synthetic table (the Skirmish test rule set): run through
``tests.app.window_scenario`` (``stacks``, ``stack-choose``)."""

from __future__ import annotations

from typing import Any

from tests.app.window_driver import BigButton, Driver, Popup, Step, Wait, Window, _opened, _play


def stacks_script(d: Driver) -> Step:
    """Camera → engine → tablet on the synthetic table (the Skirmish test rule set): a hand sets the squire onto
    the knight's hex and turns the knight; the board shows the stack with its count and the knight's facing wedge;
    taps on the stack pick its figures in turn."""
    from engine.hexes import from_label
    from engine.scenario import load_scenario
    from tests.rulesets import SKIRMISH_SCENARIO

    app = d.app
    s = app.session
    hand = d.hand
    assert hand is not None

    def figures() -> dict[str, Any]:
        snapshot = s.snapshot or {}
        state = snapshot.get("state") or {}
        found: dict[str, Any] = state.get("figures") or {}
        return found

    def upright() -> bool:
        """every figure facing up the table, as the camera sees the upright tags"""
        return app.agent.state == "live" and len(figures()) == 3 and all(f["facing"] == 2 for f in figures().values())

    yield upright
    b2 = from_label("B2")
    key = (b2.q, b2.r)
    x, y = load_scenario(str(SKIRMISH_SCENARIO)).layout.hex_to_mm(b2)
    hand.place(1, x - 20.0, y, 0.0)
    hand.place(2, x + 20.0, y, 0.0)

    def stacked() -> bool:
        """the squire on the knight's hex, drawn as a stack of two"""
        board = s.board
        return board is not None and [f.id for f in board.figures_at(key)] == ["squire", "knight"]

    yield stacked
    hand.place(1, x - 20.0, y, 240.0)  # the knight's tag turned: it looks down-left (direction 4)

    def turned() -> bool:
        """the knight facing direction 4 on the board"""
        board = s.board
        return board is not None and board.figures["knight"].facing_deg is not None and abs(
            board.figures["knight"].facing_deg - 150.0) < 1e-6

    yield turned
    play = _play(app)
    board_widget = play.ids.board
    board_widget.fit()
    yield d.drawn()
    d.check(s.board is not None and s.board.figures["squire"].stack == 2, "the stack counts two figures")
    d.screenshot("play-stack-facing")
    # The knight's move: a tap on its own hex leaves it there. Then the bandit's move (B2 is not among its hexes):
    # taps on B2 pick the stack's figures one after another.
    yield d.expect(lambda: s.prompt is not None and s.prompt.figure == "knight", "the knight's move")
    d.tap(*board_widget.window_pos_of(key))
    yield d.expect(lambda: s.prompt is not None and s.prompt.figure == "bandit", "the bandit's move")
    yield d.drawn()
    d.tap(*board_widget.window_pos_of(key))
    yield d.expect(lambda: s.selection is not None and s.selection.figure == "squire", "a tap picks the top figure")
    yield d.expect(lambda: "2 of a stack of 2" in play.ids.info.text, "the info line says which of the stack")
    yield d.drawn()
    d.tap(*board_widget.window_pos_of(key))
    yield d.expect(lambda: s.selection is not None and s.selection.figure == "knight", "a second tap picks the next")
    yield d.drawn()
    d.screenshot("play-stack-pick")
    # The tablet overrides the tag: the selected knight dragged onto A2 turns to face it (direction 3).
    a2 = from_label("A2")
    d.drag(board_widget.window_pos_of(key), board_widget.window_pos_of((a2.q, a2.r)))

    def faces_a2() -> bool:
        """the knight facing A2 (direction 3) after the drag"""
        board = s.board
        angle = board.figures["knight"].facing_deg if board is not None else None
        return angle is not None and abs(angle + 150.0) < 1e-6

    yield faces_a2
    yield d.expect(lambda: s.prompt is not None and s.prompt.figure == "bandit", "turning is not a move")
    yield d.drawn()
    d.screenshot("play-stack-turned")


def stack_choose_script(d: Driver) -> Step:
    """Skirmish with picks, from the tablet alone: the squire joins the knight on B2; red's next pick names both,
    so a tap on B2 lists them and a button of the list chooses the lower one of the stack."""
    from engine.hexes import from_label

    app = d.app
    s = app.session

    def picks(*figures: str) -> Wait:
        def asked() -> bool:
            return (app.agent.state == "live" and s.prompt is not None and s.prompt.kind == "choose"
                    and sorted(o.figure or "" for o in s.prompt.options) == sorted(figures))
        return d.expect(asked, f"red or blue picks among {', '.join(figures)}")

    def moves(figure: str) -> Wait:
        return d.expect(lambda: s.prompt is not None and s.prompt.kind == "move" and s.prompt.figure == figure,
                        f"the {figure}'s move")

    b2, e3 = from_label("B2"), from_label("E3")
    for figure, to, left in (("squire", b2, ("squire", "knight")), ("knight", b2, ("knight",)),
                             ("bandit", e3, ("bandit",))):
        yield picks(*left)
        app.send_action({"kind": "choose", "option": figure})
        yield moves(figure)
        app.send_action({"kind": "move", "figure": figure, "to": [to.q, to.r]})
    yield picks("squire", "knight")
    play = _play(app)
    board = play.ids.board
    board.fit()
    yield d.drawn()
    d.tap(*board.window_pos_of((b2.q, b2.r)))

    def listed() -> list[str]:
        popups = [w for w in Window.children if isinstance(w, Popup) and _opened(w)]
        return [w.text for w in popups[0].walk() if isinstance(w, BigButton)] if len(popups) == 1 else []

    yield d.expect(lambda: listed() == ["move Squire (B2)", "move Knight (B2)", "Cancel"],
                   "a tap on the stack lists both figures, top first")
    d.check(s.notice == "2 choices on B2: pick one", "the notice says the hex holds two choices")
    yield d.drawn()
    d.screenshot("play-stack-choose")
    popup = next(w for w in Window.children if isinstance(w, Popup))
    knight = next(w for w in popup.walk() if isinstance(w, BigButton) and w.text == "move Knight (B2)")
    d.tap_widget(knight)
    yield moves("knight")
    yield d.expect(lambda: not any(isinstance(w, Popup) for w in Window.children), "the list closes")
