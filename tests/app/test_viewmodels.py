"""View models against real engine states: build from snapshots, answer prompts, feed the answers back."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion_app.viewmodels.board_model import build_board
from companion_app.viewmodels.camera_model import camera_report, dice_mode_switch
from companion_app.viewmodels.glossary import glossary_of
from companion_app.viewmodels.log_model import export_text, undo_steps
from companion_app.viewmodels.overlays import table_overlay
from companion_app.viewmodels.prompt_model import PromptModel
from companion_app.viewmodels.session import GameSession
from companion_app.viewmodels.setup_model import setup_view
from engine.actions import Choose, Roll, action_from_dict
from engine.game import Game
from engine.hexes import Hex
from engine.scenario import load_scenario
from engine.service.roles import gm_only
from engine.snapshot import game_snapshot, query_to_dict, scenario_to_dict
from engine.wire import CameraLink, TableMessage


@pytest.fixture()
def game() -> Game:
    return Game(load_scenario("goblins-treasure"))


def session_for(game: Game) -> GameSession:
    s = GameSession()
    s.set_scenario(scenario_to_dict(game.scenario, game.points()))
    s.set_snapshot(game_snapshot(game))
    return s


def play(game: Game, session: GameSession, action: dict[str, Any]) -> None:
    """Feed an app-made action to the real engine and the new state back to the session."""
    game.apply(action_from_dict(action))
    session.set_snapshot(game_snapshot(game))


def test_board_matches_the_scenario_and_state(game: Game) -> None:
    board = build_board(scenario_to_dict(game.scenario), game_snapshot(game))
    assert len(board.tiles) == len(game.scenario.board.tiles)
    kinds = {e.label: e.state for e in board.edges}
    assert kinds["J3|K3"] == "locked" and kinds["E5|F5"] == "closed" and kinds["E5|F4"] == "wall"
    assert board.tiles[(11, -2)].tokens == ("treasure",)  # L4
    assert board.tiles[(11, -2)].label == "L4"
    knight = board.figures["knight"]
    assert knight.key == (1, 3) and knight.label == "B4" and knight.letter == "F"
    # Sides differ by shape as well as colour.
    assert board.figures["knight"].shape != board.figures["chief"].shape
    assert "Chieftain" in board.figures["chief"].badges
    # Hit testing: the centre of a hex maps back to it; far off the map is None.
    x, y = board.centre((4, 2))
    assert board.hex_at(x, y) == (4, 2)
    assert board.hex_at(-1000.0, -1000.0) is None
    assert board.figure_at((1, 3)) is knight


def test_turn_order_roll_is_opposed_and_focus_moves_by_itself(game: Game) -> None:
    s = session_for(game)
    assert s.prompt is not None and s.prompt.kind == "roll"
    assert s.prompt.opposed
    assert [d.roller_name for d in s.prompt.dice] == ["Adventurers", "Goblins"]
    assert s.prompt.focus == 0
    assert s.prompt.enter_face(5) is None
    assert s.prompt.focus == 1
    with pytest.raises(ValueError, match="1 to 6"):
        s.prompt.enter_face(7)
    action = s.prompt.enter_face(3)
    assert action == {"kind": "roll", "values": [5, 3], "virtual": False}
    play(game, s, action)
    assert s.header.text == "Round 1 · Adventurers' turn · Movement"
    assert s.entries[-1].heading == "1. Adventurers rolled 5; Goblins rolled 3"  # a sentence, not "roll 5 3"


def test_movement_roll_states_outcomes_and_chances_before_the_roll(game: Game) -> None:
    s = session_for(game)
    play(game, s, {"kind": "roll", "values": [5, 3], "virtual": False})
    assert s.prompt is not None and s.prompt.kind == "choose"
    # The first tap on the knight shows it; the second answers "choose the next figure" with it.
    first = s.tap((1, 3))
    assert first.kind == "select" and first.figure == "knight" and "Tap Knight again to choose" in first.text
    s.select("knight")
    tap = s.tap((1, 3))
    assert tap.kind == "action" and tap.action == {"kind": "choose", "option": "knight"}
    play(game, s, tap.action)
    p = s.prompt
    assert p is not None and p.kind == "roll" and not p.opposed
    assert p.dice[0].summary == (
        "Adventurers roll 1d6 for the Knight (movement): 1–4: up to 2 hexes; 5–6: up to 3 hexes"
    )
    assert p.chances == ["up to 3 hexes: 33%", "up to 2 hexes: 67%"]
    assert p.summary_lines()[-1].startswith("Chances before the roll: ")


def test_move_prompt_taps_and_refusals(game: Game) -> None:
    s = session_for(game)
    for a in (Roll((5, 3)), Choose("knight"), Roll((6,))):
        game.apply(a)
    s.set_snapshot(game_snapshot(game))
    p, board = s.prompt, s.board
    assert p is not None and board is not None and p.kind == "move"
    assert (0, 3) in p.moves and p.moves[(0, 3)].label == "A4"
    with pytest.raises(ValueError, match="not a legal move for the Knight; legal: B4, A4"):
        p.move_to((9, 0), board)
    # Dragging the knight onto an illegal hex is refused with the reason; onto a legal one, it moves.
    refused = s.drag((1, 3), (9, 0))
    assert refused.kind == "refused" and "not a legal move" in refused.text
    # Dragging another figure says what must happen first.
    other = s.drag((1, 4), (0, 4))
    assert other.kind == "refused" and "Dwarf cannot move now" in other.text
    ok = s.drag((1, 3), (2, 2))
    assert ok.action == {"kind": "move", "figure": "knight", "to": [2, 2]}
    play(game, s, ok.action)
    assert game.state.figures["knight"].hex == Hex(2, 2)
    assert s.board is not None and s.board.figures["knight"].label == s.board.label((2, 2))


def answer_queries(s: GameSession, game: Game, figure: str) -> None:
    """What the app does on a tap: ask every query the rule set declares, feed each reply's overlay back."""
    for ask, subject in s.asks_for(figure):
        s.answer(figure, query_to_dict(game, ask.what, subject)["overlay"])


def test_selection_shows_reach_targets_with_reasons_and_threats(game: Game) -> None:
    s = session_for(game)
    assert [(q.what, q.about) for q in s.queries] == [("reachable", "figure"), ("targets", "figure"),
                                                      ("threatened", "side")]
    sel = s.select("ranger")
    answer_queries(s, game, "ranger")
    assert sel is not None and sel is s.selection
    reach = sel.cells("shade")
    assert reach and all(0.0 <= r.level <= 1.0 for r in reach)
    assert min(int(r.label) for r in reach) == 1
    by_target = {t.target: t for t in sel.sight_lines}
    wall = by_target["chief"]
    assert wall.verdict == "blocked" and "not allowed" in wall.text
    assert wall.blocker_edge == ((4, 2), (5, 1))
    assert "range 8" in wall.text and "blocked by the wall at E5|F4" in wall.text
    friend = by_target["goblin-archer"]
    assert friend.blocker_hex == (3, 3) and "your Mage at D5" in friend.text
    # Adventurers would be stopped next to the goblins: the rule set's "threatened" query about their side.
    expected = {(h.q, h.r) for h in game.threatened("adventurers")}
    assert {c.key for c in sel.cells("warn")} == expected and expected
    assert any("next to enemies" in line for line in sel.lines())


def test_the_info_lines_of_a_tapped_figure_read_as_before(game: Game) -> None:
    """Fantasy Battle on screen as before the overlays came from the rule set: reach, then targets, then threats."""
    s = session_for(game)
    s.select("ranger")
    answer_queries(s, game, "ranger")
    assert s.selection is not None
    lines = s.selection.lines()
    reach = game.reachable("ranger")
    far = max(r.cost for r in reach.values())
    n = sum(1 for r in reach.values() if r.cost > 0)
    assert lines[0] == f"{n} hexes in reach (up to {far:g} away)"
    assert lines[1] == "shoot Goblin Chief: range 8, not allowed: no clear shot: blocked by the wall at E5|F4"
    assert lines[-1] == f"{len(game.threatened('adventurers'))} hexes next to enemies (a move stops there)"
    assert s.tap_hint == "Tap a figure to see its moves, targets and threats."


def test_an_answer_about_another_figure_is_dropped(game: Game) -> None:
    s = session_for(game)
    s.select("ranger")
    s.select("knight")
    s.answer("ranger", query_to_dict(game, "reachable", "ranger")["overlay"])
    assert s.selection is not None and s.selection.figure == "knight" and s.selection.answers == {}


def test_virtual_roll_is_logged_as_such_and_undo_lists_steps(game: Game) -> None:
    s = session_for(game)
    assert s.prompt is not None
    action = s.prompt.virtual_roll(random.Random(4))
    assert action["virtual"] is True and len(action["values"]) == 2
    while game.prompt.kind.value == "roll":  # ties re-roll
        play(game, s, s.prompt.virtual_roll(random.Random(len(game.history))))
    entries = s.entries
    assert entries and all(e.virtual for e in entries)
    assert "(the app rolled)" in entries[0].heading
    steps = undo_steps(entries)
    assert steps[0].n == len(entries)
    assert steps[0].undo_label.startswith(f"Undo {len(entries)}: ")
    text = export_text(s.scenario, entries)
    assert text.startswith("# The Goblins' Treasure\n# scenario: goblins-treasure")
    assert "roll! " in text and "#   Turn order: " in text


def test_setup_points_and_balance_warning(game: Game) -> None:
    scen = scenario_to_dict(game.scenario, game.points())
    view = setup_view(scen)
    names = [line.name for line in view.sides]
    assert names == ["Adventurers", "Goblins"]
    assert view.sides[0].points == game.points()["adventurers"]
    assert "Knight" in view.sides[0].figures and view.sides[0].players == ("Adventurers",)
    if len(set(game.points().values())) > 1:
        assert view.warning.startswith("Points differ")
    scen["points"] = {"adventurers": 5, "goblins": 5}
    assert setup_view(scen).warning == ""
    scen["points"] = {"adventurers": 5, "goblins": 7}
    assert setup_view(scen).warning == (
        "Points differ: Adventurers 5, Goblins 7. Balance the sides or agree on the handicap."
    )


def test_table_overlay_ghosts_illegal_and_desync(game: Game) -> None:
    board = build_board(scenario_to_dict(game.scenario), game_snapshot(game))
    table = {
        "cameras": ["cam0"],
        "lifted": [{"figure": "knight", "moves": [[0, 3], {"hex": [0, 4]}]}],
        "desync": [{"figure": "dwarf", "expected": [1, 4], "seen": [2, 4], "text": ""}],
        "illegal": {"figure": "mage", "to": [9, 0], "reason": "too far", "legal": ["D4", [4, 2]]},
        "unknown_markers": [77],
        "duplicates": [],
        "registration": None,
    }
    ov = table_overlay(table, board)
    assert ov.ghosts[0].moves == ((0, 3), (0, 4))
    assert ov.desyncs[0].start == (2, 4) and ov.desyncs[0].end == (1, 4)
    assert ov.desyncs[0].text == "Put Dwarf back on B5"
    assert ov.illegal is not None and ov.illegal.start == (3, 3) and ov.illegal.end == (9, 0)
    assert "too far" in ov.illegal.text and "Legal: D4, E5" in ov.illegal.text
    assert any("Unknown markers on the table: 77" in w for w in ov.lines(board))
    assert table_overlay(None, board).ghosts == []


def table_with(*cameras: CameraLink, dice_mode: str = "tablet") -> dict[str, Any]:
    """A ``table`` body as the network agent hands it over: encoded by the engine, decoded by the app."""
    message = TableMessage(1, 1.0, "run", 1, cameras=cameras, unknown_markers=(77,),
                           registration={"ok": True, "text": "4 anchors, 1.2 mm"}, dice_mode=dice_mode)
    decoded = TableMessage.from_json(message.to_frames()[1])
    return decoded.body()


def test_the_camera_screen_says_a_camera_with_an_unknown_key_was_refused(game: Game) -> None:
    session = session_for(game)
    session.set_table(table_with(CameraLink("camera-0", "waiting", None, "tcp://pi:5555", refused=True),
                                 CameraLink("cam1", "ok", 0.1, "tcp://pi2:5555")))
    report = camera_report(session, has_preview=True)
    assert report.warnings.splitlines()[0] == (
        "A camera with an unknown key was refused: give the camera service and the engine the same --keys folder, "
        "made by one 'hexa keys' run.")
    assert "Unknown markers on the table: 77" in report.warnings
    assert report.links == "Camera camera-0: waiting, refused\nCamera cam1: ok"
    assert report.verdict == "Calibration good: 4 anchors, 1.2 mm"
    session.set_table(table_with(CameraLink("cam0", "ok", 0.1, "tcp://pi:5555")))  # the right key now
    report = camera_report(session, has_preview=False)
    assert "refused" not in report.warnings + report.links
    assert report.links.startswith("Camera cam0: ok\nNo live preview")


def test_a_camera_that_cannot_read_its_tray_is_told_on_the_camera_screen_and_the_board(game: Game) -> None:
    session = session_for(game)
    problem = "the dice tray could not be read in 12 frames (ValueError: no paper)"
    session.set_table(table_with(CameraLink("cam0", "ok", 0.1, "tcp://pi:5555", problem=problem),
                                 CameraLink("cam1", "ok", 0.1, "tcp://pi2:5555")))
    report = camera_report(session, has_preview=True)
    assert report.links == "Camera cam0: ok\nCamera cam1: ok"
    assert f"Camera cam0: {problem}" in report.warnings.splitlines() and "cam1" not in report.warnings
    assert session.board is not None
    assert f"Camera cam0: {problem}" in table_overlay(session.table, session.board).lines(session.board)
    session.set_table(table_with(CameraLink("cam0", "ok", 0.1, "tcp://pi:5555")))  # it reads again
    assert "could not be read" not in camera_report(session, has_preview=True).warnings
    assert session.board is not None
    assert not any("could not be read" in line
                   for line in table_overlay(session.table, session.board).lines(session.board))


def test_the_camera_screen_says_where_the_dice_come_from_and_offers_the_other_way() -> None:
    camera = dice_mode_switch(table_with(dice_mode="camera"))
    assert camera is not None and camera.to == "tablet"
    assert camera.text == "Dice: read by the camera in the tray (the prompt's face buttons still work)."
    assert camera.button == "Enter the dice on the tablet only"
    tablet = dice_mode_switch(table_with(dice_mode="tablet"))
    assert tablet is not None and tablet.to == "camera" and tablet.button == "Let the camera read the dice"
    assert dice_mode_switch(None) is None and dice_mode_switch({"dice_mode": "dice bag"}) is None


def test_the_camera_screen_without_any_report() -> None:
    report = camera_report(GameSession(), has_preview=True)
    assert report.verdict == "No camera report from the engine yet."
    assert report.links.startswith("No camera connected") and report.warnings == ""


def test_glossary_finds_terms_in_prompt_text(game: Game) -> None:
    glossary = glossary_of(scenario_to_dict(game.scenario))
    assert glossary.terms_in("Decisive battle! Roll again.") == ["decisive battle"]
    assert "low obstacle" in glossary.terms_in("The crates are low obstacles next to the target")
    assert glossary.lookup("Roll-Offs") is not None and glossary.lookup("nonsense") is None
    assert glossary.lookup("back space") is None  # a Lost Worlds term: not Fantasy Battle's


def test_a_long_press_explains_what_the_rule_set_says_about_the_hex(game: Game) -> None:
    s = session_for(game)
    assert s.board is not None
    assert s.glossary.term_at(s.board, (9, -2)) == "locked door"  # J3, in front of the locked door J3|K3
    low = next(k for k, t in s.board.tiles.items() if t.terrain == "low")
    assert s.glossary.term_at(s.board, low) == "low obstacle"
    plain = next(k for k, t in s.board.tiles.items()
                 if t.terrain == "floor" and not any(k in (e.a, e.b) for e in s.board.edges))
    assert s.glossary.term_at(s.board, plain) is None


def test_a_whole_turn_answered_only_through_the_view_models(game: Game) -> None:
    """Turn order, then every adventurer's move roll and move, until the goblins' turn: no engine calls but apply."""
    s = session_for(game)
    rng = random.Random(7)
    for _ in range(60):
        p = s.prompt
        assert p is not None
        if s.header.active_side == "goblins":
            break
        if p.kind == "roll":
            action = None
            for d in p.dice:
                action = p.enter_face(rng.randint(1, d.sides))
            assert action is not None
        elif p.kind == "choose":
            action = p.choose(p.options[0].id)
        elif p.kind == "move":
            key = max(p.moves.values(), key=lambda m: m.cost).key
            assert s.board is not None
            action = p.move_to(key, s.board)
        elif p.kind == "remove":
            action = p.remove()
        else:
            break
        play(game, s, action)
    assert s.header.active_side == "goblins"
    assert s.header.round == 1
    assert len(s.entries) == len(game.history) > 4


def test_prompt_without_snapshot_prompt_waits() -> None:
    game = Game(load_scenario("tutorial"))
    board = build_board(scenario_to_dict(game.scenario), None)
    p = PromptModel.from_snapshot({}, board)
    assert p.kind == "game_over" and p.text.startswith("Waiting")
    assert p.enter_face(3) is None


def test_viewport_round_trips_and_keeps_pinch_anchor() -> None:
    from companion_app.viewmodels.viewport import Viewport

    v = Viewport()
    v.fit((0.0, 0.0, 400.0, 300.0), (800.0, 600.0))
    assert v.to_screen(200.0, 150.0) == pytest.approx((400.0, 300.0))
    # Map y is down, screen y is up: the map's top edge is above the centre on screen.
    assert v.to_screen(200.0, 0.0)[1] > 300.0
    v.zoom_about(2.0, 100.0, 100.0)
    anchor = v.to_map(100.0, 100.0)
    v.zoom_about(1.5, 100.0, 100.0)
    assert v.to_map(100.0, 100.0) == pytest.approx(anchor)
    v.rotate_to(180.0, (400.0, 300.0))
    for x, y in ((0.0, 0.0), (123.0, 45.0)):
        assert v.to_map(*v.to_screen(x, y)) == pytest.approx((x, y))


def test_an_unrelated_update_keeps_the_faces_entered_so_far(game: Game) -> None:
    s = session_for(game)
    assert s.prompt is not None
    s.prompt.enter_face(4)
    before = s.prompt
    s.set_snapshot(game_snapshot(game))  # e.g. the camera saw a figure nudged: same prompt
    assert s.prompt is before and s.prompt.entered == [4, None] and s.prompt.focus == 1
    game.apply(Roll((4, 2)))
    s.set_snapshot(game_snapshot(game))
    assert s.prompt is not before and s.prompt.kind == "choose"


def test_a_snapshot_the_app_cannot_read_is_refused_and_the_view_stays(game: Game) -> None:
    s = session_for(game)
    board, prompt = s.board, s.prompt
    bad = game_snapshot(game)
    bad["state"]["figures"]["knight"]["hex"] = "B4"  # not [q, r]
    bad["state"]["doors"] = [[1, 2, 3]]
    bad["prompt"]["dice"] = [{"sides": "six"}]
    assert s.set_snapshot(bad) is False
    assert s.board is board and s.prompt is prompt
    assert "The engine sent a snapshot this app cannot show" in s.notice and "same release" in s.notice
    broken = scenario_to_dict(game.scenario)
    del broken["board"]["tiles"][0]["hex"]
    assert s.set_scenario(broken) is False and s.board is board
    assert s.set_snapshot(game_snapshot(game)) is True


def test_unknown_tags_offer_every_figure_in_play_named_with_its_hex() -> None:
    from companion_app.viewmodels.marker_assignment import unknown_tags
    from engine.game import Game
    from engine.scenario import load_scenario
    from engine.snapshot import game_snapshot, scenario_to_dict

    scenario = load_scenario("tutorial")
    game = Game(scenario)
    scenario_dict = scenario_to_dict(scenario)
    assert unknown_tags(scenario_dict, game_snapshot(game), {"unknown_markers": []}) == ()
    game.state.figures["goblin-2"].alive = False
    (tag,) = unknown_tags(scenario_dict, game_snapshot(game), {"unknown_markers": [42]})
    labels = [c.label for c in tag.choices]
    assert tag.marker == 42 and "Goblin (G2)" in labels and "Goblin (G4)" not in labels
    assert len(labels) == 5


def test_who_rolls_agrees_with_a_plural_or_a_singular_side_name() -> None:
    from companion_app.viewmodels.prompt_model import DieView

    def title(name: str) -> str:
        return DieView(0, "side", name, 6, "movement", "Knight", ()).title

    assert title("Goblins") == "Goblins roll 1d6 for the Knight"
    assert title("Red") == "Red rolls 1d6 for the Knight"


def test_a_resync_keeps_the_tapped_figure_shown(game: Game) -> None:
    """The agent resyncs after a silence: the scenario comes again and the selection stays (the app re-asks)."""
    s = session_for(game)
    s.select("ranger")
    answer_queries(s, game, "ranger")
    s.set_scenario(scenario_to_dict(game.scenario, game.points()))
    assert s.selection is not None and s.selection.figure == "ranger" and s.selection.sight_lines


def test_opposed_dice_are_entered_in_any_order_and_changed_until_the_last_is_in(game: Game) -> None:
    s = session_for(game)
    p = s.prompt
    assert p is not None and p.opposed and p.focus == 0
    assert p.enter_face(3, 1) is None and p.entered == [None, 3] and p.focus == 0  # the second side first
    assert p.enter_face(2, 1) is None and p.entered == [None, 2]  # changed its mind
    assert p.enter_face(5, 0) == {"kind": "roll", "values": [5, 2], "virtual": False}


def test_a_players_tablet_greys_what_the_engine_leaves_to_the_gm_with_the_engines_reason(game: Game) -> None:
    s = session_for(game)
    play(game, s, {"kind": "roll", "values": [4, 2]})
    assert s.why_no_undo() == ""  # no GM named: the table decides, anyone takes back
    s.set_scenario({**scenario_to_dict(game.scenario, game.points()), "gm_only": gm_only("gm-tablet")})
    reason = s.why_no_undo()
    assert reason == "only the GM may take actions back here" == s.why_gm_only("undo")
    assert s.why_gm_only("new_game") == "only the GM may start a new game here"
    assert s.why_gm_only("override") and s.why_gm_only("language") and not s.why_gm_only("query")
    s.gm.by_key = True  # the engine names this tablet the GM: nothing greyed
    assert s.why_no_undo() == "" and s.why_gm_only("new_game") == ""
    assert s.why_no_undo(big_screen=True) == "read-only big screen"
