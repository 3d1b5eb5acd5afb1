"""Checking an answer against the prompt it answers, once, before any rule sees it.

A roll must give one result per listed die, each a face of that die (1d6, 1d10, …); a choice must
name an offered option; a move must move the prompted figure to a listed hex; a removal must name
the figure to take off. The messages say what was expected.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import Action, Choose, Move, Remove, Roll
from engine.errors import IllegalActionError
from engine.flow.words import cell_word, possessive
from engine.hexes import Hex
from engine.prompts import Prompt, PromptKind

EXPECTED = {
    PromptKind.ROLL: (Roll, "the die results (roll …)"),
    PromptKind.CHOOSE: (Choose, "one of the options (choose …)"),
    PromptKind.MOVE: (Move, "a move (move FIGURE HEX)"),
    PromptKind.REMOVE: (Remove, "the removal (remove FIGURE)"),
}


def check_answer(
    prompt: Prompt,
    action: Action,
    name: Callable[[str], str],
    label: Callable[[Hex], str],
    why_not: Callable[[str, Hex], str],
    board_kind: str = "hex",
) -> None:
    """Raise :class:`IllegalActionError` unless ``action`` answers ``prompt``.

    ``name`` gives a side's or figure's name, ``label`` a cell's; ``why_not(figure, cell)`` explains a refused move;
    ``board_kind`` names the cells in the message (hexes, zones).
    """
    if prompt.kind is PromptKind.GAME_OVER:
        raise IllegalActionError(f"the game is over ({prompt.text}); start a new game or undo")
    wanted, words = EXPECTED[prompt.kind]
    if not isinstance(action, wanted):
        if prompt.kind is PromptKind.REMOVE and prompt.figure is not None:
            raise IllegalActionError(f"first take {name(prompt.figure)} off the table (remove {prompt.figure})")
        raise IllegalActionError(f"{prompt.text} — answer with {words}, not {action.kind}")
    if isinstance(action, Roll):
        _check_roll(prompt, action, name)
    elif isinstance(action, Choose):
        if prompt.option(action.option) is None:
            allowed = ", ".join(o.id for o in prompt.options)
            raise IllegalActionError(f"{action.option!r} is not offered here; choose one of: {allowed}")
    elif isinstance(action, Move):
        fid = prompt.figure or ""
        if action.figure != fid:
            raise IllegalActionError(f"it is {possessive(name(fid))} move, not {possessive(name(action.figure))}")
        if action.to not in prompt.moves:
            legal = ", ".join(label(h) for h in sorted(prompt.moves, key=lambda h: (prompt.moves[h].cost, h)))
            raise IllegalActionError(f"{why_not(fid, action.to)}. Legal {cell_word(board_kind, 2)}: {legal}")
    elif isinstance(action, Remove) and action.figure != prompt.figure:
        raise IllegalActionError(f"first take {name(prompt.figure or '')} off the table (remove {prompt.figure})")


def _check_roll(prompt: Prompt, roll: Roll, name: Callable[[str], str]) -> None:
    if len(roll.values) != len(prompt.dice):
        rollers = ", ".join(f"{name(d.roller)} 1d{d.sides}" for d in prompt.dice)
        raise IllegalActionError(
            f"this roll needs {len(prompt.dice)} die result(s) ({rollers}), got {len(roll.values)}"
        )
    for v, d in zip(roll.values, prompt.dice, strict=True):
        if not 1 <= v <= d.sides:
            raise IllegalActionError(f"{v} is not a result of a {d.sides}-sided die (1–{d.sides})")
