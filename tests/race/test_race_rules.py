"""Race's rules on its own scenario: the declarations the loader checks, a turn, walls, one runner per hex, the win."""

from __future__ import annotations

import re

import pytest

from engine.actions import Choose, Move, Roll
from engine.autoplay import AutoPlayer, play_out
from engine.errors import IllegalActionError, ScenarioError
from engine.game import Game
from engine.prompts import PromptKind
from engine.rules.base import RuleSet
from engine.scenario import Scenario
from engine.state import GameState
from tests.race.conftest import load_race_text, race_text


def hexes(scenario: Scenario, labels: str) -> set[object]:
    return {scenario.board.from_label(x) for x in labels.split()}


def without_figure(text: str, name: str) -> str:
    """The scenario text without the [[figures]] table of the figure called ``name``."""
    return re.sub(rf'\[\[figures\]\]\nname = "{name}"\n(?:[^\[\n#][^\n]*\n)*\n?', "", text)


def to_run(game: Game, order: tuple[int, int], rolled: int, runner: str | None = None) -> None:
    """Answer the roll-off and the turn's die, and pick ``runner`` when the prompt asks."""
    game.apply(Roll(order))
    game.apply(Roll((rolled,)))
    if runner is not None:
        game.apply(Choose(runner))


@pytest.mark.usefixtures("race_loaded")
class TestTheScenarioDeclarations:
    def test_the_scenario_holds_the_rule_sets_own_fields(self, scenario: Scenario) -> None:
        assert scenario.ruleset == "race"
        assert {f.id: f.fields["stride"] for f in scenario.figures} == {"dash": 1, "pip": 0, "zip": 1, "bolt": 0}
        assert [v.type for v in scenario.victory] == ["reach", "reach"]
        assert set(scenario.victory[0].fields["exits"]) == hexes(scenario, "M1 M3 M5")
        assert set(scenario.board.hexes_with_token("exit")) == hexes(scenario, "M1 M3 M5")  # the X symbols

    def test_an_exit_off_the_map_is_refused_with_its_line(self) -> None:
        text = race_text({'exits = ["M1", "M3", "M5"]': 'exits = ["M1", "Q9"]'})
        with pytest.raises(ScenarioError) as refused:
            load_race_text(text)
        assert str(refused.value) == ("race.toml, line 72: 'exits' names Q9, which is not on the map. "
                                      "Fix: use a cell of the map")

    def test_an_exit_on_rock_is_refused_with_its_line(self) -> None:
        with pytest.raises(ScenarioError, match=r"race.toml, line 78: the exit E1 is a blocking hex no runner can "
                                                r"stand on. Fix: name a floor hex"):
            load_race_text(race_text({'exits = ["M1", "M3", "M5"]\ntext = "a blue': 'exits = ["E1"]\ntext = "a blue'}))

    def test_a_stride_out_of_range_is_refused_with_its_line(self) -> None:
        with pytest.raises(ScenarioError, match=r"race.toml, line 47: 'stride' is 5, outside 0 to 3. "
                                                r"Fix: give a value from 0 to 3"):
            load_race_text(race_text({"stride = 1": "stride = 5"}))

    def test_a_misspelt_stride_is_refused_with_the_closest_key(self) -> None:
        with pytest.raises(ScenarioError, match=r"line 47: key 'stirde' is not a key of \[\[figures\]\].*"
                                                r"did you mean 'stride'"):
            load_race_text(race_text({"stride = 1": "stirde = 1"}))

    def test_a_runner_starting_on_rock_is_refused_with_its_line(self) -> None:
        with pytest.raises(ScenarioError, match=r"line 46: runner 'Dash' starts at E1, a blocking hex. "
                                                r"Fix: start it on a floor hex"):
            load_race_text(race_text({'at = "A1"': 'at = "E1"'}))

    def test_a_runner_starting_on_its_own_exit_is_refused(self) -> None:
        with pytest.raises(ScenarioError, match=r"runner 'Dash' starts on its own exit M3. Fix: start it elsewhere"):
            load_race_text(race_text({'at = "A1"': 'at = "M3"'}))

    def test_without_victory_tables_every_side_races_to_the_x_hexes(self) -> None:
        text = race_text()
        text = text[: text.index("[[victory]]")]
        scenario = load_race_text(text)
        assert [(v.side, v.type, v.text) for v in scenario.victory] == [
            ("blue", "reach", "Blue: a runner reaches an exit"), ("red", "reach", "Red: a runner reaches an exit")]
        assert Game(scenario).rules.goals(Game(scenario).state, "dash") == sorted(hexes(scenario, "M1 M3 M5"))

    def test_a_victory_without_text_reads_as_its_type_says(self) -> None:
        scenario = load_race_text(race_text({'text = "a red runner reaches the gate"\n': ""}))
        assert scenario.victory[0].text == "Red: a runner reaches an exit"

    def test_no_exit_at_all_is_refused(self) -> None:
        text = race_text().replace("X", ".")
        text = text[: text.index("[[victory]]")]
        with pytest.raises(ScenarioError, match=r"side 'blue' has no exit to reach. Fix: draw an X on the map"):
            load_race_text(text)


@pytest.mark.usefixtures("race_loaded")
class TestATurn:
    def test_order_then_roll_then_pick_then_run(self, game: Game) -> None:
        assert game.prompt.kind is PromptKind.ROLL and len(game.prompt.dice) == 2  # the flow's roll-off
        events = game.apply(Roll((2, 5)))
        assert [e.text for e in events] == ["Turn order: Red 2, Blue 5 (rolled) — Blue, Red.", "Round 1: Blue's turn."]
        prompt = game.prompt
        assert prompt.kind is PromptKind.ROLL and prompt.side == "blue" and prompt.dice[0].sides == 6
        assert prompt.chances[0].text == "a runner can reach an exit" and prompt.chances[0].probability == 0.0
        game.apply(Roll((4,)))
        options = {o.id: o.label for o in game.prompt.options}
        assert options == {"bolt": "Bolt at A5: up to 4 hexes", "zip": "Zip at A2: up to 5 hexes"}  # 4 + stride
        game.apply(Choose("zip"))
        assert game.prompt.kind is PromptKind.MOVE and game.prompt.figure == "zip"
        assert max(r.cost for r in game.prompt.moves.values()) == 5
        events = game.apply(Move("zip", game.scenario.board.from_label("E2")))
        assert [e.text for e in events] == ["Zip runs from A2 to E2.", "Round 1: Red's turn."]
        assert game.state.figures["zip"].hex == game.scenario.board.from_label("E2")

    def test_a_player_with_one_runner_is_not_asked_which(self, race_loaded: None) -> None:
        game = Game(load_race_text(without_figure(without_figure(race_text(), "Pip"), "Bolt")))
        to_run(game, (5, 2), 3)
        assert game.prompt.kind is PromptKind.MOVE and game.prompt.figure == "dash"  # picked by itself

    def test_walls_and_rock_block_and_runners_never_share_a_hex(self, race_loaded: None) -> None:
        game = Game(load_race_text(race_text({'at = "A4"': 'at = "D3"'})))  # Pip beside the wall D3|E3
        to_run(game, (5, 2), 1, "pip")
        label = game.scenario.label
        assert {label(h) for h in game.prompt.moves} == {"D3", "C3", "C4", "D4"}  # not E3 (wall), not D2 (rock)
        refused = "E3 is 5 hexes away by the shortest open way; Pip may run 1. Legal hexes: D3, C3, C4, D4"
        with pytest.raises(IllegalActionError, match=re.escape(refused)):
            game.apply(Move("pip", game.scenario.board.from_label("E3")))
        assert game.rules.why_not(game.state, "pip", game.scenario.board.from_label("D2")) == (
            "Pip cannot get to D2: rock or walls are in the way")
        game = Game(load_race_text(race_text()))
        to_run(game, (5, 2), 3, "dash")
        moves = {label(h): r for h, r in game.prompt.moves.items()}
        assert "A2" not in moves and moves["A3"].cost == 2  # Zip's hex is passed, never taken
        assert game.rules.why_not(game.state, "dash", game.scenario.board.from_label("A2")) == (
            "A2 is taken by Zip: runners pass each other but never share a hex")

    def test_a_runner_may_stay_where_it_is(self, game: Game) -> None:
        to_run(game, (5, 2), 1, "dash")
        events = game.apply(Move("dash", game.scenario.board.from_label("A1")))
        assert events[0].text == "Dash stays at A1."

    def test_ending_a_run_on_an_exit_wins_and_ends_the_game_there(self, race_loaded: None) -> None:
        game = Game(load_race_text(race_text({'at = "A1"': 'at = "I1"'})))
        to_run(game, (5, 2), 4)
        assert game.prompt.text == "Red: which runner runs? (4 rolled)"
        game.apply(Choose("dash"))
        events = game.apply(Move("dash", game.scenario.board.from_label("M3")))
        assert [e.text for e in events] == ["Dash runs from I1 to M3.", "Red wins: Dash reaches the exit M3"]
        assert game.state.winner == "red" and game.prompt.kind is PromptKind.GAME_OVER

    def test_the_chances_count_the_faces_that_reach_an_exit(self, race_loaded: None) -> None:
        game = Game(load_race_text(race_text({'at = "A1"': 'at = "I1"'})))  # Dash: 5 hexes from M3, stride 1
        game.apply(Roll((5, 2)))
        assert game.prompt.chances[0].probability == pytest.approx(3 / 6)  # 4, 5 or 6

    def test_the_state_round_trips_through_json(self, game: Game) -> None:
        to_run(game, (5, 2), 3, "dash")
        data = game.state.to_dict()
        assert data["step"]["kind"] == "race.run" and data["step"]["allowance"] == 4
        assert GameState.from_dict(data).to_dict() == data

    def test_race_writes_no_shooting_queries(self, game: Game) -> None:
        assert type(game.rules).targets is RuleSet.targets and game.targets("dash") == []
        assert game.threatened("red") == set()


@pytest.mark.usefixtures("race_loaded")
@pytest.mark.parametrize("seed", range(6))
def test_the_auto_player_runs_to_an_exit(scenario: Scenario, seed: int) -> None:
    game = Game(scenario)
    play_out(game, AutoPlayer(seed), max_steps=400)
    assert game.state.winner in ("red", "blue")
    winner = next(f for f in game.state.figures.values()
                  if f.side == game.state.winner and f.hex in hexes(scenario, "M1 M3 M5"))
    assert winner is not None
