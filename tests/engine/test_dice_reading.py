"""Dice the camera reads as answers to roll prompts: every rule set's dice prompts, throws, doubts and counts."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from engine.actions import Roll
from engine.autoplay import AutoPlayer
from engine.dice_reading import (
    DiceReading,
    ReadingKind,
    camera_reads,
    complete_with,
    die_groups,
    face_value,
    read_roll,
)
from engine.game import Game
from engine.prompts import DieRequest, Prompt, PromptKind
from engine.rules import find_ruleset
from engine.scenario import bundled_scenarios, load_scenario
from engine.wire import DieDoubt, DieKind, DieSeen, TraySeen

KIND = {6: DieKind.D6, 10: DieKind.D10}


def numeral(sides: int, value: int) -> int:
    """The face a die shows for a result: a d10's 10 is printed 0."""
    return 0 if sides == 10 and value == 10 else value


def tray(dice: Sequence[tuple[int, int | None] | DieSeen], name: str = "tray", roll: int = 1,
         settled: bool = True) -> TraySeen:
    """A settled tray holding (sides, printed face) dice laid out left to right."""
    seen = [d if isinstance(d, DieSeen) else
            DieSeen(i + 1, KIND[d[0]], d[1], 0.99, 20.0 + 30 * i, 40.0, settled, None if d[1] is not None else
                    DieDoubt.UNREADABLE)
            for i, d in enumerate(dice)]
    return TraySeen(name, roll, settled, tuple(seen))


def throw_all(prompt: Prompt, values: Sequence[int], trays: dict[str, str] | None = None) -> list[DiceReading]:
    """Every group thrown in turn (``trays``: side → its own tray, thrown last group first), as read."""
    known: tuple[int | None, ...] = (None,) * len(prompt.dice)
    readings = []
    groups = list(die_groups(prompt.dice))
    if trays:  # each side throws in its own tray: the last side first, each side's throws in order
        rollers = list(dict.fromkeys(g.roller for g in groups))
        groups.sort(key=lambda g: -rollers.index(g.roller))
    for n, group in enumerate(groups):
        name = (trays or {}).get(group.roller, "tray")
        seen = tray([(prompt.dice[i].sides, numeral(prompt.dice[i].sides, values[i])) for i in group.indexes],
                    name, roll=n + 1)
        reading = read_roll(prompt, known, seen, group.roller if trays else None)
        readings.append(reading)
        known = reading.values
    return readings


def games() -> Iterator[tuple[str, Game]]:
    for sid in sorted(bundled_scenarios()):
        yield sid, Game(load_scenario(sid))


def play_with_camera(game: Game, seed: int, trays: bool) -> list[Prompt]:
    """Play a whole game (or 400 actions) answering every roll with dice read in the tray; the prompts rolled."""
    player = AutoPlayer(seed)
    rolled = []
    for _turn in range(400):
        if game.over:
            break
        action = player.choose(game)
        prompt = game.prompt
        if isinstance(action, Roll):
            assert camera_reads(prompt), prompt.dice
            own = {d.roller: d.roller for d in prompt.dice} if trays else None
            readings = throw_all(prompt, action.values, own)
            assert [r.kind for r in readings[:-1]] == [ReadingKind.PARTIAL] * (len(readings) - 1)
            assert readings[-1].kind is ReadingKind.PROPOSAL, readings[-1]
            assert readings[-1].values == action.values
            action = Roll(action.values, source="camera")
            rolled.append(prompt)
        game.apply(action)
    return rolled


@pytest.mark.parametrize("trays", [False, True], ids=["shared tray", "a tray per side"])
def test_every_rule_sets_dice_prompts_are_answered_by_the_dice_thrown(trays: bool) -> None:
    by_rules: dict[str, list[Prompt]] = {}
    for sid, game in games():
        rules = find_ruleset(game.scenario.ruleset).name
        by_rules.setdefault(rules, []).extend(play_with_camera(game, seed=len(sid), trays=trays))
    assert len(by_rules) == 5
    rolled = {name for name, prompts in by_rules.items() if prompts}
    # Tenkey battle rolls no dice (its initiative is entered once): the camera has nothing to answer there.
    assert rolled == {"fantasy-battle", "filtwiz", "laramie", "lost-worlds"}, rolled
    every = [p for prompts in by_rules.values() for p in prompts]
    assert any(len({d.roller for d in p.dice}) > 1 for p in every), "an opposed roll"
    assert any(d.sides == 10 for p in every for d in p.dice), "a d10"
    assert any(d.sides == 6 for p in every for d in p.dice), "a d6"


def laramie_d10_game() -> Game:
    """A Laramie game at its first one-die roll (1d10)."""
    game = Game(load_scenario("laramie-station"))
    player = AutoPlayer(3)
    for _turn in range(200):
        if game.prompt.kind is PromptKind.ROLL and len(game.prompt.dice) == 1:
            return game
        game.apply(player.choose(game))
    raise AssertionError("no one-die roll in Laramie")


def laramie_d10() -> Prompt:
    return laramie_d10_game().prompt


def test_a_d10_printed_0_is_a_natural_10_and_1_stays_1() -> None:
    game = laramie_d10_game()
    prompt = game.prompt
    assert prompt.dice[0].sides == 10
    assert face_value(DieKind.D10, 0) == 10 and face_value(DieKind.D6, 6) == 6
    ten = read_roll(prompt, (None,), tray([(10, 0)]), None)
    assert ten.kind is ReadingKind.PROPOSAL and ten.values == (10,) and ten.text == "Read: 10"
    one = read_roll(prompt, (None,), tray([(10, 1)]), None)
    assert one.values == (1,)
    events = game.apply(Roll((10,), source="camera"))  # the rule set takes it as its natural 10
    assert any("10" in e.text for e in events)


OPPOSED = Prompt(PromptKind.ROLL, "knights", "combat",
                 dice=(DieRequest("knights", 6, "combat (attacker)", "knight"),
                       DieRequest("goblins", 6, "combat (defender)", "goblin-1")))
SEVERAL = Prompt(PromptKind.ROLL, "knights", "volley",
                 dice=(DieRequest("knights", 6, "volley", "archer"), DieRequest("knights", 6, "volley", "archer"),
                       DieRequest("knights", 10, "volley", "archer")))


def test_several_dice_of_one_throw_are_read_at_once_left_to_right_by_kind() -> None:
    assert die_groups(SEVERAL.dice)[0].indexes == (0, 1, 2)
    reading = read_roll(SEVERAL, (None,) * 3, tray([(6, 2), (10, 7), (6, 5)]), None)
    assert reading.kind is ReadingKind.PROPOSAL and reading.values == (2, 5, 7)


def test_an_opposed_roll_takes_one_throw_after_the_other_through_a_shared_tray() -> None:
    first = read_roll(OPPOSED, (None, None), tray([(6, 5)]), None, name=str.capitalize)
    assert first.kind is ReadingKind.PARTIAL and first.values == (5, None)
    assert first.text == "Read: 5 –. Next: 1d6 for Goblins."
    second = read_roll(OPPOSED, first.values, tray([(6, 3)], roll=2), None)
    assert second.kind is ReadingKind.PROPOSAL and second.values == (5, 3) and second.text == "Read: 5 3"


def test_a_side_tray_answers_only_that_sides_throw() -> None:
    goblins = read_roll(OPPOSED, (None, None), tray([(6, 2)], "goblins"), "goblins")
    assert goblins.kind is ReadingKind.PARTIAL and goblins.values == (None, 2)
    again = read_roll(OPPOSED, goblins.values, tray([(6, 4)], "goblins", roll=2), "goblins")
    assert again.kind is ReadingKind.IGNORED and again.values == (None, 2)
    knights = read_roll(OPPOSED, goblins.values, tray([(6, 6)], "knights"), "knights")
    assert knights.kind is ReadingKind.PROPOSAL and knights.values == (6, 2)


def test_both_sides_dice_in_one_shared_throw_are_asked_about_never_split_by_guess() -> None:
    reading = read_roll(OPPOSED, (None, None), tray([(6, 5), (6, 3)]), None, name=str.capitalize)
    assert reading.kind is ReadingKind.QUESTION and reading.missing == () and reading.values == (None, None)
    assert reading.text == ("I see 2 dice (5, 3), but the dice are thrown one throw at a time: first 1d6 for "
                            "Knights, alone. Roll again, or enter the faces.")


def test_a_count_or_kind_that_differs_is_a_question() -> None:
    prompt = laramie_d10()
    more = read_roll(prompt, (None,), tray([(10, 4), (10, None)]), None, name=lambda s: "Gary")
    assert more.kind is ReadingKind.QUESTION and more.missing == ()
    assert more.text == "I see 2 dice (4, ?), but this throw is 1d10 for Gary: roll again, or enter the faces."
    d6 = read_roll(prompt, (None,), tray([(6, 4)]), None)
    assert d6.kind is ReadingKind.QUESTION and d6.values == (None,)
    fewer = read_roll(SEVERAL, (None,) * 3, tray([(6, 2), (10, 7)]), None)
    assert fewer.kind is ReadingKind.QUESTION and fewer.missing == ()


@pytest.mark.parametrize("doubt, words", [(DieDoubt.COCKED, "cocked"), (DieDoubt.OUTSIDE, "partly outside the tray"),
                                          (DieDoubt.TOUCHING, "touching another die"),
                                          (DieDoubt.UNREADABLE, "face unreadable"),
                                          (DieDoubt.LOW_CONFIDENCE, "not read surely")])
def test_any_doubt_asks_for_that_die_and_a_tap_completes_the_roll(doubt: DieDoubt, words: str) -> None:
    doubtful = DieSeen(9, DieKind.D10, 4 if doubt is not DieDoubt.UNREADABLE else None, 0.4, 80.0, 40.0, True, doubt)
    reading = read_roll(SEVERAL, (None,) * 3, tray([(6, 5), (6, 3), doubtful]), None)
    assert reading.kind is ReadingKind.QUESTION and reading.values == (5, 3, None) and reading.missing == (2,)
    assert reading.text == f"I see 5, 3 and one die I can't read ({words}): reroll it or tap its face."
    assert complete_with(reading, [10], SEVERAL.dice) == (5, 3, 10)
    with pytest.raises(ValueError, match="not a result of a 10-sided die"):
        complete_with(reading, [11], SEVERAL.dice)
    with pytest.raises(ValueError, match="tap the face of the one die"):
        complete_with(reading, [1, 2], SEVERAL.dice)


def test_a_die_read_without_doubt_but_unsurely_is_still_asked_about() -> None:
    unsure = DieSeen(1, DieKind.D6, 6, 0.1, 20.0, 40.0, True, None)
    reading = read_roll(OPPOSED, (None, None), tray([unsure]), None)
    assert reading.kind is ReadingKind.QUESTION and reading.missing == (0,)
    assert reading.text == "I see one die I can't read (not read surely): reroll it or tap its face."


def test_rolling_dice_an_empty_tray_and_prompts_without_dice_give_nothing() -> None:
    assert read_roll(OPPOSED, (None, None), tray([(6, 5)], settled=False), None).kind is ReadingKind.IGNORED
    assert read_roll(OPPOSED, (None, None), tray([]), None).kind is ReadingKind.IGNORED
    choose = Prompt(PromptKind.CHOOSE, "knights", "pick")
    assert not camera_reads(choose)
    assert read_roll(choose, (), tray([(6, 5)]), None).kind is ReadingKind.IGNORED
    d8 = Prompt(PromptKind.ROLL, "knights", "d8", dice=(DieRequest("knights", 8, "x"),))
    assert not camera_reads(d8)


def test_a_die_not_read_counts_as_the_throws_die_whatever_kind_the_camera_took_it_for() -> None:
    """One die thrown, seen but unread and taken for a d10: its face is asked for, not the count."""
    unread = DieSeen(1, DieKind.D10, None, 0.2, 20.0, 40.0, True, DieDoubt.UNREADABLE)
    reading = read_roll(OPPOSED, (None, None), tray([unread]), None)
    assert reading.kind is ReadingKind.QUESTION and reading.missing == (0,)
    assert reading.text == "I see one die I can't read (face unreadable): reroll it or tap its face."
    read_d10 = DieSeen(1, DieKind.D10, 7, 0.99, 20.0, 40.0, True, None)
    assert read_roll(OPPOSED, (None, None), tray([read_d10]), None).missing == ()  # a d10 read: the wrong die
