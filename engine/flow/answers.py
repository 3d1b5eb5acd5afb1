"""Checking an answer against the prompt it answers, once, before any rule sees it.

A roll must give one result per listed die, each a face of that die (1d6, 1d10, …); a choice must
name an offered option; a move must move the prompted figure to a listed hex; a removal must name
the figure to take off. The messages say what was expected.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import Action, Choose, Move, Remove, Roll
from engine.board.base import Cell
from engine.errors import IllegalActionError
from engine.i18n import N_, gettext_for, ngettext_for
from engine.prompts import Prompt, PromptKind
from engine.texts import cell_noun, join_list, possessive

_ = gettext_for(__name__)
_n = ngettext_for(__name__)

EXPECTED = {
    PromptKind.ROLL: (Roll, N_("the die results (roll …)")),
    PromptKind.CHOOSE: (Choose, N_("one of the options (choose …)")),
    PromptKind.MOVE: (Move, N_("a move (move FIGURE HEX)")),
    PromptKind.REMOVE: (Remove, N_("the removal (remove FIGURE)")),
}


def check_answer(
    prompt: Prompt,
    action: Action,
    name: Callable[[str], str],
    label: Callable[[Cell], str],
    why_not: Callable[[str, Cell], str],
    board_kind: str = "hex",
    why_refused: Callable[[str], str] | None = None,
) -> None:
    """Raise :class:`IllegalActionError` unless ``action`` answers ``prompt``.

    ``name`` gives a side's or figure's name, ``label`` a cell's; ``why_not(figure, cell)`` explains a refused move;
    ``board_kind`` names the cells in the message (hexes, zones); ``why_refused(option)`` says why an option not
    offered is refused, where the rule set knows.
    """
    if prompt.kind is PromptKind.GAME_OVER:
        raise IllegalActionError(_("the game is over ({result}); start a new game or undo", result=prompt.text))
    wanted, words = EXPECTED[prompt.kind]
    if not isinstance(action, wanted):
        if prompt.kind is PromptKind.REMOVE and prompt.figure is not None:
            raise IllegalActionError(_("first take {name} off the table (remove {figure})", name=name(prompt.figure),
                                       figure=prompt.figure))
        raise IllegalActionError(_("{prompt} — answer with {expected}, not {kind}", prompt=prompt.text,
                                   expected=_(words), kind=action.kind))
    if isinstance(action, Roll):
        _check_roll(prompt, action, name)
    elif isinstance(action, Choose):
        if prompt.option(action.option) is None:
            allowed = join_list(o.id for o in prompt.options)
            why = why_refused(action.option) if why_refused is not None else ""
            if why:
                raise IllegalActionError(_("{option!r} is not offered here: {why}; choose one of: {allowed}",
                                           option=action.option, why=why, allowed=allowed))
            raise IllegalActionError(_("{option!r} is not offered here; choose one of: {allowed}", option=action.option,
                                       allowed=allowed))
    elif isinstance(action, Move):
        fid = prompt.figure or ""
        if action.figure != fid:
            raise IllegalActionError(_("it is {owner} move, not {other}", owner=possessive(name(fid)),
                                       other=possessive(name(action.figure))))
        if action.to not in prompt.moves:
            legal = join_list(label(h) for h in sorted(prompt.moves, key=lambda h: (prompt.moves[h].cost, h)))
            raise IllegalActionError(_("{why}. Legal {cells}: {legal}", why=why_not(fid, action.to),
                                       cells=cell_noun(board_kind, 2), legal=legal))
    elif isinstance(action, Remove) and action.figure != prompt.figure:
        raise IllegalActionError(_("first take {name} off the table (remove {figure})", name=name(prompt.figure or ""),
                                   figure=prompt.figure))


def _check_roll(prompt: Prompt, roll: Roll, name: Callable[[str], str]) -> None:
    if len(roll.values) != len(prompt.dice):
        rollers = join_list(f"{name(d.roller)} 1d{d.sides}" for d in prompt.dice)
        raise IllegalActionError(_n("this roll needs {n} die result(s) ({rollers}), got {got}",
                                    "this roll needs {n} die result(s) ({rollers}), got {got}", len(prompt.dice),
                                    rollers=rollers, got=len(roll.values)))
    for v, d in zip(roll.values, prompt.dice, strict=True):
        if not 1 <= v <= d.sides:
            raise IllegalActionError(_("{v} is not a result of a {sides}-sided die (1–{sides})", v=v, sides=d.sides))
