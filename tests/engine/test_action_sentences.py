"""Actions said as sentences: every bundled scenario's played actions read as people talk, never as commands."""

from __future__ import annotations

import re

import pytest

from engine import i18n
from engine.action_sentences import action_sentence
from engine.actions import Choose, Face, Move, Remove, Roll
from engine.autoplay import AutoPlayer
from engine.game import Game
from engine.scenario import bundled_scenarios, load_scenario

COMMAND = re.compile(r"^(roll!?|choose|move|remove|face) ")


@pytest.mark.parametrize("scenario_id", sorted(bundled_scenarios()))
def test_every_played_action_is_a_sentence_the_same_when_said_at_once_or_after_a_replay(scenario_id: str) -> None:
    game = Game(load_scenario(scenario_id))
    player = AutoPlayer(seed=3)
    for _ in range(60):
        if game.over:
            break
        game.prompt  # noqa: B018 - a tablet asks the prompt before it answers, as every client does
        game.apply(player.choose(game))
    said_at_once = [game.sentence(n) for n in range(1, len(game.history) + 1)]
    replayed = Game.replay(game.scenario, game.actions)  # nobody asked its prompts
    said_after = [replayed.sentence(n) for n in range(1, len(replayed.history) + 1)]
    assert said_at_once == said_after
    for sentence in said_at_once:
        assert sentence and not COMMAND.match(sentence), sentence


def test_a_turn_names_the_cell_faced_and_each_kind_reads_in_both_languages() -> None:
    scenario = load_scenario("laramie-station")
    game = Game(scenario)
    figure = scenario.figures[0]
    start = game.state.figures[figure.id].hex
    assert start is not None
    way = next(d for d in range(6) if start.neighbour(d) in scenario.board)
    faced = scenario.board.label(start.neighbour(way))
    assert action_sentence(Face(figure.id, way), scenario, None, game.state) == f"{figure.name} turns to face {faced}"
    assert action_sentence(Move(figure.id, start), scenario) == f"{figure.name} moves to {scenario.board.label(start)}"
    assert action_sentence(Remove(figure.id), scenario) == f"{figure.name} is taken off the table"
    assert action_sentence(Roll((4, 7)), scenario) == "Rolled 4, 7"
    assert action_sentence(Choose("opt"), scenario) == "Chose “opt”"
    i18n.set_language("ja")
    try:
        assert faced in action_sentence(Face(figure.id, way), scenario, None, game.state)
        assert "取り除" in action_sentence(Remove(figure.id), scenario)
    finally:
        i18n.set_language("en")


def test_a_roll_names_who_rolled_what_and_a_choice_its_label() -> None:
    game = Game(load_scenario("goblins-treasure"))
    prompt = game.prompt
    assert len(prompt.dice) == 2 and prompt.dice[0].roller != prompt.dice[1].roller
    first, second = (game.scenario.side(d.roller).name for d in prompt.dice)
    assert action_sentence(Roll((5, 2)), game.scenario, prompt) == f"{first} rolled 5; {second} rolled 2"
    assert action_sentence(Roll((5, 2), virtual=True), game.scenario, prompt).endswith("(the app rolled)")
    assert action_sentence(Roll((5, 2), source="camera"), game.scenario, prompt).endswith("(read by the camera)")
    game.apply(Roll((5, 2)))
    choice = game.prompt
    option = choice.options[0]
    assert action_sentence(Choose(option.id), game.scenario, choice) == f"Chose “{option.label}”"
