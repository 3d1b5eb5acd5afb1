"""Grammar a player reads, over every bundled scenario of the five rule sets: a side is plural where its name is
("Adventurers roll", "Goblins' turn"), on the engine's prompts and log and on the tablet's titles alike."""

from __future__ import annotations

import contextlib

import pytest

from companion_app.viewmodels.header_model import HeaderView, header_view
from companion_app.viewmodels.prompt_model import PromptModel
from companion_app.viewmodels.session import GameSession
from engine.autoplay import AutoPlayer, AutoPlayError, play_out
from engine.cli.play import prompt_lines
from engine.flow.words import is_plural, possessive, verb
from engine.game import Game
from engine.prompts import Prompt
from engine.rules import builtin_rulesets
from engine.scenario import bundled_scenarios, load_scenario
from engine.snapshot import game_snapshot, scenario_to_dict

STEPS = 160  # answers per scenario: set-up, rolls, moves and combats of the first rounds


def _prompt_texts(game: Game, prompt: Prompt, session: GameSession) -> list[str]:
    texts = [prompt.text, prompt.note, *(o.label for o in prompt.options), *prompt_lines(game, prompt)]
    texts += [o.text for per_die in prompt.outcomes for o in per_die] + [c.text for c in prompt.chances]
    model: PromptModel | None = session.prompt
    if model is not None:
        texts += [d.summary for d in model.dice] + [d.column_title for d in model.dice]
        texts += [d.column_roller for d in model.dice] + model.summary_lines()
    texts.append(header_view(session.scenario, session.snapshot, session.board).text)
    return texts


def _wrong(texts: list[str], names: set[str]) -> list[str]:
    """The texts that treat a plural side name as singular ("Goblins's", "Adventurers rolls")."""
    out = []
    for text in texts:
        for name in names:
            if is_plural(name) and any(f"{name}{tail}" in text for tail in ("'s", " rolls ", " wins", " goes ")):
                out.append(text)
    return out


@pytest.mark.parametrize("scenario_id", sorted(bundled_scenarios()))
def test_plural_side_names_agree_in_every_text_a_player_reads(scenario_id: str) -> None:
    game = Game(load_scenario(scenario_id))
    names = {s.name for s in game.scenario.sides}  # figures are one person or unit each, whatever their names
    session = GameSession()
    session.set_scenario(scenario_to_dict(game.scenario, game.points()))
    texts: list[str] = []

    def seen(prompt: Prompt) -> None:
        session.set_snapshot(game_snapshot(game))
        texts.extend(_prompt_texts(game, prompt, session))

    seen(game.prompt)

    def on_step(step: object) -> None:
        texts.extend(e.text for e in getattr(step, "events", ()))
        seen(game.prompt)

    with contextlib.suppress(AutoPlayError):  # stopped after STEPS answers: long enough, the first rounds played
        play_out(game, AutoPlayer(3), max_steps=STEPS, on_step=on_step)
    assert len(texts) > 20
    assert _wrong(texts, names) == []


def test_the_scenarios_cover_every_built_in_rule_set() -> None:
    built_in = {cls.name for cls in builtin_rulesets()}
    assert len(built_in) >= 5
    assert {load_scenario(s).ruleset for s in bundled_scenarios()} >= built_in


def test_one_helper_agrees_with_plural_and_singular_names() -> None:
    assert possessive("Goblins") == "Goblins'" and possessive("Boss") == "Boss's" and possessive("Red") == "Red's"
    assert verb("Sheriffs", "rolls", "roll") == "Sheriffs roll" and verb("Gary", "rolls", "roll") == "Gary rolls"
    assert HeaderView(2, "Goblins", "goblins", "Movement", None).text == "Round 2 · Goblins' turn · Movement"
    assert HeaderView(2, "Red", "red", "Movement", None).text == "Round 2 · Red's turn · Movement"
    assert HeaderView(3, "", None, "Game over", "Adventurers").text == "Game over: Adventurers win"
    assert HeaderView(3, "", None, "Game over", "Red").text == "Game over: Red wins"
