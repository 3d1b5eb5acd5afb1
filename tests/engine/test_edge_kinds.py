"""Edge kinds declared by a rule set: the scenario places them ([map] edges), the board reports them with
their properties, the snapshot carries name and draw style, the app and the terminal map draw them by
style, the auto player walks by them; a misspelt kind is refused with its line and the closest name."""

from __future__ import annotations

import pytest

from companion_app.viewmodels import palette
from companion_app.viewmodels.board_model import build_board
from engine.autoplay import walk_graph
from engine.board import CORE_EDGE_KINDS, EDGE_STYLES, EdgeKind, EdgeKindSpec, edge_kinds
from engine.board.hex import HexBoard, board_from
from engine.board.hex.ascii_map import edge_legend, edge_marks, render_map
from engine.cli.play import board_text, figure_letters
from engine.game import Game
from engine.hexes import Hex, edge, from_label
from engine.scenario import ScenarioError, load_scenario_text
from engine.snapshot import game_snapshot, scenario_to_dict
from tests.engine.terrain_rules import YARD


def _side(a: str, b: str) -> tuple[Hex, Hex]:
    return from_label(a), from_label(b)


def _board() -> HexBoard:
    board = load_scenario_text(YARD).board
    assert isinstance(board, HexBoard)
    return board


def _line_of(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.strip().startswith(start))


def test_a_rule_set_s_own_edges_are_placed_and_reported_by_the_board() -> None:
    board = _board()
    assert board.edge_kind(*_side("A1", "A2")) == "line" and board.edge_kind(*_side("G1", "G2")) == "fence"
    assert board.edge_kind(*_side("H1", "H2")) is EdgeKind.WALL  # the shared kinds read as their constants
    line = board.edge_spec(edge(*_side("A1", "A2")))
    fence = board.edge_spec(edge(*_side("G1", "G2")))
    assert line is not None and fence is not None
    assert (line.blocks_movement, line.blocks_sight, line.style, line.door) == (True, False, "line", False)
    assert (fence.blocks_movement, fence.blocks_sight, fence.style) == (False, False, "fence")
    assert set(board.doors()) == {edge(*_side("C1", "C2"))}  # only a kind that opens is a door


def test_the_snapshot_carries_each_edge_s_kind_and_draw_style() -> None:
    board = scenario_to_dict(load_scenario_text(YARD))["board"]
    rows = {e["label"]: e for e in board["edges"]}
    assert (rows["A1|A2"]["kind"], rows["A1|A2"]["style"], rows["A1|A2"]["door"]) == ("line", "line", False)
    assert (rows["G1|G2"]["kind"], rows["G1|G2"]["style"]) == ("fence", "fence")
    assert (rows["H1|H2"]["kind"], rows["H1|H2"]["style"]) == ("wall", "wall")
    assert (rows["C1|C2"]["kind"], rows["C1|C2"]["style"], rows["C1|C2"]["door"]) == ("hatch", "door", True)
    kinds = {k["name"]: k for k in board["edge_kinds"]}
    assert kinds["fence"]["style"] == "fence" and kinds["locked"]["door"] and not kinds["wall"]["door"]


def test_the_app_draws_a_rule_set_s_edges_by_their_style() -> None:
    game = Game(load_scenario_text(YARD))
    view = build_board(scenario_to_dict(game.scenario), game_snapshot(game))
    edges = {e.label: e for e in view.edges}
    line, fence, wall, hatch = edges["A1|A2"], edges["G1|G2"], edges["H1|H2"], edges["C1|C2"]
    assert (line.style, line.state, line.door, line.colour) == ("line", "line", False, palette.EDGE_COLOURS["line"])
    assert (fence.style, fence.colour) == ("fence", palette.EDGE_COLOURS["fence"]) and fence.colour != wall.colour
    assert (wall.style, wall.state, wall.colour) == ("wall", "wall", palette.WALL)
    assert hatch.door and hatch.state == "closed" and hatch.colour == palette.DOOR_CLOSED  # a door by its state


def test_the_app_draws_an_unknown_edge_style_as_a_wall() -> None:
    game = Game(load_scenario_text(YARD))
    scenario = scenario_to_dict(game.scenario)
    for e in scenario["board"]["edges"]:
        if e["kind"] == "fence":
            e["style"] = "hedge"
    edges = {e.label: e for e in build_board(scenario, game_snapshot(game)).edges}
    assert (edges["G1|G2"].style, edges["G1|G2"].colour, edges["G1|G2"].door) == ("wall", palette.WALL, False)


def test_the_app_knows_every_edge_style_the_engine_offers() -> None:
    assert set(palette.EDGE_COLOURS) | set(palette.DOOR_EDGE_STYLES) == set(EDGE_STYLES)


def test_a_misspelt_edge_kind_is_refused_with_its_line_and_the_closest_name() -> None:
    text = YARD.replace("fence = [", "fense = [")
    with pytest.raises(ScenarioError) as err:
        load_scenario_text(text, "yard.toml")
    message = str(err.value)
    assert f"yard.toml, line {_line_of(text, 'edges =')}:" in message
    assert "'fense'" in message and "did you mean 'fence'?" in message and "line" in message


def test_edges_as_their_own_table_point_at_the_kind_s_line() -> None:
    own = 'edges = { line = ["A1|A2"], fence = ["G1|G2"], hatch = ["C1|C2"] }'
    table = '[map.edges]\nline = ["A1|A2"]\nfense = ["G1|G2"]\n\n[[sides]]'
    text = YARD.replace(own, "").replace("[[sides]]", table, 1)
    with pytest.raises(ScenarioError, match=rf"yard.toml, line {_line_of(text, 'fense =')}: .*did you mean 'fence'"):
        load_scenario_text(text, "yard.toml")


def test_a_bad_side_of_an_own_edge_kind_is_refused_with_its_line() -> None:
    text = YARD.replace('fence = ["G1|G2"]', 'fence = ["G1|G3"]')
    with pytest.raises(ScenarioError, match=rf"line {_line_of(text, 'edges =')}: edges fence entry 'G1\|G3' joins "
                                            "hexes that are not neighbours"):
        load_scenario_text(text, "yard.toml")
    twice = YARD.replace('fence = ["G1|G2"]', 'fence = ["H2|H1"]')
    with pytest.raises(ScenarioError, match=r"edges fence entry 'H2\|H1' is already listed in walls"):
        load_scenario_text(twice, "yard.toml")


def test_an_edge_kind_of_another_rule_set_is_refused() -> None:
    """Fantasy Battle declares no lines: its maps refuse them, naming the kinds it has."""
    fantasy = (YARD.replace('ruleset = "lumber-yard"', 'ruleset = "fantasy-battle"')
               .replace('symbols = { H = "house" }', "")
               .replace(".   L   H   .", ".   .   #   .").replace("  .   L   .   .", "  .   .   .   ."))
    with pytest.raises(ScenarioError, match=r"edge kind 'line', which .*Fantasy Battle does not have. "
                                            r"Fix: use one of: wall, door, locked$"):
        load_scenario_text(fantasy, "battle.toml")


def test_the_shared_kinds_may_be_listed_under_edges_too() -> None:
    text = YARD.replace('walls = ["H1|H2"]\n', "").replace("edges = { ", 'edges = { wall = ["H1|H2"], ')
    board = load_scenario_text(text).board
    assert isinstance(board, HexBoard) and board.edges == _board().edges


def test_edge_kinds_are_checked_when_declared() -> None:
    with pytest.raises(ValueError, match="draw style 'hedge'"):
        EdgeKindSpec("hedge", "green", style="hedge")
    with pytest.raises(ValueError, match="a door is drawn as one of"):
        EdgeKindSpec("gate", "a gate", style="fence", door=True)
    with pytest.raises(ValueError, match="lower-case word"):
        EdgeKindSpec("Black Line", "ink", style="line")
    with pytest.raises(ValueError, match="declared twice"):
        edge_kinds((EdgeKindSpec("wall", "again"),))
    with pytest.raises(ValueError, match="declares no edge kind for"):
        board_from([Hex(0, 0), Hex(0, 1)], edges={edge(Hex(0, 0), Hex(0, 1)): "moat"})


def test_the_shared_edge_kinds_keep_their_names_and_behaviour() -> None:
    assert EdgeKind.LOCKED_DOOR == "locked" and CORE_EDGE_KINDS["wall"].blocks_movement
    assert CORE_EDGE_KINDS["door"].door and CORE_EDGE_KINDS["locked"].style == "locked"
    assert not CORE_EDGE_KINDS["wall"].door and CORE_EDGE_KINDS["wall"].blocks_sight
    board = board_from([Hex(0, 0), Hex(0, 1)], edges={edge(Hex(0, 0), Hex(0, 1)): "door"})
    assert board.edge_kind(Hex(0, 0), Hex(0, 1)) is EdgeKind.DOOR
    assert board.to_dict()["edges"][0]["kind"] == "door" and board.to_dict()["edges"][0]["style"] == "door"


def test_the_auto_player_walks_by_terrain_and_edge_kinds() -> None:
    board = _board()
    graph = walk_graph(board)
    links = {h: {n for n, _ in ns} for h, ns in graph.items()}
    a1, a2, c1, c2, e1, e2, g1, g2 = (from_label(x) for x in ("A1", "A2", "C1", "C2", "E1", "E2", "G1", "G2"))
    assert c1 in graph and e1 not in graph and e2 not in graph  # lumber is stood on; a house and water are not
    assert a2 not in links[a1] and a1 not in links[a2]  # a line stops feet
    assert g2 in links[g1]  # a fence does not
    assert (c2, edge(c1, c2)) in graph[c1]  # a door of the rule set's own is passed as a door
    assert from_label("H2") not in links[from_label("H1")]  # the wall as before


def test_a_figure_may_not_start_on_terrain_no_figure_stands_on() -> None:
    text = YARD.replace('at = "C1"', 'at = "E1"')
    with pytest.raises(ScenarioError) as err:
        load_scenario_text(text, "yard.toml")
    message = str(err.value)
    line = text.splitlines().index('at = "E1"') + 1
    assert f"yard.toml, line {line}:" in message and "a house hex" in message and "no figure may stand on" in message
    assert "lumber" in message  # the fix names where figures may stand
    load_scenario_text(YARD.replace('at = "C1"', 'at = "D1"'))  # lumber is fine


def test_the_terminal_map_draws_own_terrain_and_edges_with_the_scenario_s_symbols() -> None:
    game = Game(load_scenario_text(YARD))
    board = game.scenario.board
    assert isinstance(board, HexBoard)
    marks = edge_marks(board, game.state.doors)
    assert marks[edge(*_side("A1", "A2"))] == ":" and marks[edge(*_side("G1", "G2"))] == "^"
    assert marks[edge(*_side("H1", "H2"))] == "=" and marks[edge(*_side("C1", "C2"))] == "+"
    assert "?" not in render_map(board, symbols=game.scenario.symbols)
    legend = edge_legend(board)
    assert ": line" in legend and "^ fence" in legend and "hatch" not in legend  # a door is drawn as a door
    text = board_text(game, figure_letters(game))
    assert "?" not in text and ": line" in text
    drawn = text.split("\n\n")[0]
    assert "L" in drawn and "H" in drawn
    assert not set(figure_letters(game).values()) & set(game.scenario.symbols)  # figure letters differ from symbols
