"""Whole games: stored records of each bundled scenario replay to victory, and the auto player never gets stuck.

The records under ``records/`` were produced by the auto player with the seeds in FIXTURES (chosen so the
carry-out victory happens where the scenario has one) and then kept as text: they pin the rules' behaviour
over complete games. The stored records came from an earlier auto player (their headers name its
seeds); the seeds below give games of the same kind with today's rule-set-neutral auto player. To write
them again after an intended rules change::

    .venv/bin/python -m tests.engine.test_scripted_games
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.autoplay import AutoPlayer, Step, play_out
from engine.game import Game
from engine.prompts import PromptKind
from engine.record import export_record, parse_record, replay_parsed
from engine.rules.fantasy_battle.scenario_fields import bring_to
from engine.scenario import load_scenario

RECORDS = Path(__file__).parent / "records"

# scenario → (auto player seed, winner, result text, events that must happen)
FIXTURES: dict[str, tuple[int, str, str, tuple[str, ...]]] = {
    "tutorial": (2, "knights", "every goblin is down", ("retreated", "advanced", "killed", "removed")),
    "goblins-treasure": (
        89,
        "adventurers",
        "the treasure is carried out of the lair",
        ("door_opened", "picked_up", "ambush", "killed"),
    ),
    "captured-princess": (
        65,
        "heroes",
        "the princess is brought out",
        ("door_opened", "lock_held", "picked_up", "dropped"),
    ),
}
SEEDS_PER_SCENARIO = 4
SOAK_SEEDS = 40
STEP_CAP = 3000


def record_path(scenario_id: str) -> Path:
    return RECORDS / f"{scenario_id}.txt"


@pytest.mark.parametrize("scenario_id", sorted(FIXTURES))
def test_the_stored_game_replays_line_by_line_to_its_victory(scenario_id: str) -> None:
    _seed, winner, result, key_events = FIXTURES[scenario_id]
    path = record_path(scenario_id)
    record = parse_record(path.read_text(encoding="utf-8"), str(path), path.parent)
    replayed = replay_parsed(record)  # raises, naming the line, if any action is refused
    game = replayed.game
    assert len(game.history) == len(record.lines) > 20
    assert game.state.winner == winner
    assert game.prompt.kind is PromptKind.GAME_OVER
    kinds = [e.kind for p in game.history for e in p.events]
    victory = [e.text for p in game.history for e in p.events if e.kind == "victory"]
    assert victory == [f"{game.scenario.side(winner).name} win: {result}"]
    for kind in key_events:
        assert kind in kinds, f"{scenario_id}: expected a {kind!r} event in the stored game"


def test_the_carry_out_victories_really_carry_the_token_to_an_exit() -> None:
    for scenario_id, token in (("goblins-treasure", "treasure"), ("captured-princess", "prisoner")):
        path = record_path(scenario_id)
        game = replay_parsed(parse_record(path.read_text(encoding="utf-8"), str(path), path.parent)).game
        exits = next(bring_to(v) for v in game.scenario.victory if v.type == "bring")
        carriers = [f for f in game.state.alive() if token in f.carrying]
        assert len(carriers) == 1 and carriers[0].hex in exits
        assert game.state.tokens[token] is None


def test_the_auto_player_is_deterministic_for_a_seed() -> None:
    assert produce("tutorial", 7) == produce("tutorial", 7)
    assert produce("tutorial", 7) != produce("tutorial", 8)


@pytest.mark.parametrize("scenario_id", sorted(FIXTURES))
def test_auto_play_ends_every_game_and_only_answers_what_prompts_offer(scenario_id: str) -> None:
    check_auto_games(scenario_id, range(SEEDS_PER_SCENARIO))


@pytest.mark.slow
@pytest.mark.parametrize("scenario_id", sorted(FIXTURES))
def test_auto_play_soak_on_many_seeds(scenario_id: str) -> None:
    check_auto_games(scenario_id, range(SEEDS_PER_SCENARIO, SOAK_SEEDS))


def check_auto_games(scenario_id: str, seeds: range) -> None:
    """Every seeded auto game ends within the step cap, every answer taken from what its prompt offered."""
    scenario = load_scenario(scenario_id)
    for seed in seeds:
        game = Game(scenario)
        checked: list[Step] = []

        def check(step: Step, checked: list[Step] = checked) -> None:
            prompt, action = step.prompt, step.action
            if prompt.kind is PromptKind.CHOOSE:
                assert prompt.option(getattr(action, "option", "")) is not None
            elif prompt.kind is PromptKind.MOVE:
                assert getattr(action, "to", None) in prompt.moves
            elif prompt.kind is PromptKind.ROLL:
                values = getattr(action, "values", ())
                assert len(values) == len(prompt.dice)
                assert all(1 <= v <= d.sides for v, d in zip(values, prompt.dice, strict=True))
            checked.append(step)

        steps = play_out(game, AutoPlayer(seed), max_steps=STEP_CAP, on_step=check)
        assert game.over and game.prompt.kind is PromptKind.GAME_OVER, f"{scenario_id} seed {seed}"
        assert len(checked) == len(steps) < STEP_CAP


def produce(scenario_id: str, seed: int) -> str:
    """The record of the auto player's game of a scenario with a seed."""
    game = Game(load_scenario(scenario_id))
    play_out(game, AutoPlayer(seed), max_steps=STEP_CAP)
    return export_record(game, extra_headers={"produced-by": f"auto player, seed {seed}"})


if __name__ == "__main__":
    RECORDS.mkdir(exist_ok=True)
    for sid, (seed, *_) in FIXTURES.items():
        record_path(sid).write_text(produce(sid, seed), encoding="utf-8")
        print(f"wrote {record_path(sid)}")
