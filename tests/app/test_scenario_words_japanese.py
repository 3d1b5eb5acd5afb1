"""Every bundled scenario's words as a Japanese table sees them: the scenario's name, description, sides, victory
texts, and each figure's name, kind, side, badges (abilities, carried tokens, states), party and what a tap on it
says, through the same view models the tablet draws them with, and its fields as ``hexa play`` lists them. None may
stay in English.

What counts as English: a run of two or more Latin letters. What is kept as is (``KEPT``): HP, which the Japanese
rule books write in Latin letters too; dice notation (1d6, 1d10) and cell labels (A1, M8) have single letters
between digits. Names are translated, proper nouns included: figures and places by the scenario
(``{ en = …, ja = … }``); a rule set's own words by its catalogue, among them Fantasy Battle's ability cards
(Brave → 勇敢) and Laramie's weapons, whose makers' names a Japanese table reads in katakana (Colt Peacemaker →
コルト・ピースメーカー). A scenario that keeps an English proper noun in Japanese adds it to ``KEPT`` saying why."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from companion_app.viewmodels.session import GameSession, figure_heading
from companion_app.viewmodels.setup_model import setup_view
from engine.cli.play import own_fields_text
from engine.game import Game
from engine.i18n import speaking
from engine.rules import find_ruleset
from engine.scenario import bundled_scenarios, load_scenario
from engine.snapshot import game_snapshot, scenario_to_dict

KEPT = frozenset({"HP"})  # hit points: written HP in the Japanese rule books too
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def shown_texts(scenario_id: str) -> Iterator[tuple[str, str]]:
    """(where, text) of every text the tablet shows of the scenario and its figures, in the table's language."""
    game = Game(load_scenario(scenario_id))
    session = GameSession()
    scenario = scenario_to_dict(game.scenario, game.points())
    session.set_scenario(scenario)
    session.set_snapshot(game_snapshot(game))
    yield "name", str(scenario["name"])
    yield "description", str(scenario["description"])
    for v in scenario["victory"]:
        yield f"victory of {v['side']}", str(v["text"])
    setup = setup_view(session.scenario)
    for side in setup.sides:
        yield "setup", side.text
    board = session.board
    assert board is not None
    for fig in board.figures.values():
        where = f"figure {fig.id}"
        yield where, fig.name
        yield f"{where} kind", fig.kind_text
        yield f"{where} side", fig.side_name
        yield f"{where} heading", figure_heading(fig)
        for badge in fig.badges:
            yield f"{where} badge", badge
        if fig.key is not None:
            session.selection = None
            yield f"{where} tapped", session.tap(fig.key).text or ""
    for f in scenario["figures"]:  # the rule set's own fields the tablet shows (a party)
        for key in ("party",):
            if f.get(key):
                yield f"figure {f['id']} {key}", str(f[key])
    rules = find_ruleset(game.scenario.ruleset)
    for spec in game.scenario.figures:  # the terminal's figure list (hexa play)
        yield f"hexa play's figure {spec.id}", own_fields_text(spec, rules)


def untranslated(text: str) -> list[str]:
    return [w for w in LATIN_WORD.findall(text) if w not in KEPT]


@pytest.mark.parametrize("scenario_id", sorted(bundled_scenarios()))
def test_every_word_of_a_scenario_reads_in_japanese(scenario_id: str) -> None:
    with speaking("ja"):
        english = [(where, text) for where, text in shown_texts(scenario_id) if untranslated(text)]
    assert not english, f"{scenario_id} in English on a Japanese table: {english[:8]}"
