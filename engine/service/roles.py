"""Who may do what at the table: one table of every command, read by the engine and published to the tablets.

Two roles: the game master (the tablet named with ``hexa engine --gm NAME``, or any tablet giving the GM code)
and everyone else. Without a named GM the table decides everything together, as at a board game: every
command is anyone's but ``gm``, which is always the GM's (the GM code). With a GM named, the GM is the
referee: only the GM

- answers the prompts the rules leave to a GM (the prompt's ``decider`` is ``gm``);
- takes actions back (``undo``): a take-back may reach the GM's verdicts and rulings, so it is the
  referee's call, as a take-back is the arbiter's at a tournament; a player asks the GM;
- places figures outside the rules (``override``, as the GM's ``gm op=place``);
- starts or switches games (``new_game``, ``load``): either ends the game in play for everyone;
- changes the table's language (``language``): every tablet follows it.

Everything else stays anyone's: asking (``snapshot``, ``query``, ``scenarios``), saving the record, and the
table's setup chores (``assign_marker``, ``register_manual``). The tablets learn which commands are the GM's
from the scenario's ``gm_only`` (command → the reason, in the table's language) and grey those controls with
it unless they are the GM; the engine refuses the same commands with the same words.

The table also says which commands change the game: those are answered once per request ``id``
(:mod:`engine.service.answered`).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import EngineError
from engine.i18n import N_, gettext_for

_ = gettext_for(__name__)

ANYONE = "anyone"
GM = "gm"  # the game master's when one is named; anyone's otherwise
GM_ALWAYS = "gm_always"  # the game master's at every table (the GM code names one without --gm)
DECIDER = "decider"  # whoever the prompt's ``decider`` names (the GM for a GM's prompt at a table with one)


@dataclass(frozen=True)
class Rule:
    """Who may send a command, what it does in words (for refusals), and whether it changes the game."""

    who: str
    doing: str  # marked with N_, read with _(): "take actions back"
    changes: bool  # the game, the table or the journal: a repeated request id is answered, not done again


RULES: dict[str, Rule] = {
    "snapshot": Rule(ANYONE, N_("join the game"), changes=False),
    "query": Rule(ANYONE, N_("ask the rules"), changes=False),
    "scenarios": Rule(ANYONE, N_("list the scenarios"), changes=False),
    "save": Rule(ANYONE, N_("save the game record"), changes=False),
    "assign_marker": Rule(ANYONE, N_("give a tag to a figure"), changes=True),
    "register_manual": Rule(ANYONE, N_("place the map"), changes=True),
    "action": Rule(DECIDER, N_("answer the prompt"), changes=True),
    "dice": Rule(DECIDER, N_("answer the prompt's dice"), changes=True),  # the camera's reading: take, wrong, faces
    "undo": Rule(GM, N_("take actions back"), changes=True),
    "override": Rule(GM, N_("place figures outside the rules"), changes=True),
    "new_game": Rule(GM, N_("start a new game"), changes=True),
    "load": Rule(GM, N_("load another game"), changes=True),
    "language": Rule(GM, N_("change the table's language"), changes=True),
    "gm": Rule(GM_ALWAYS, N_("use the game master's tools"), changes=True),
}


class RoleError(EngineError):
    """A command this tablet's role may not send; the text names the role and the fix."""


def changes_the_game(cmd: str) -> bool:
    return RULES[cmd].changes


def why_gm_only(cmd: str) -> str:
    """Why a tablet that is not the GM may not send ``cmd``, short enough for the control greyed with it."""
    return _("only the GM may {doing} here", doing=_(RULES[cmd].doing))


def refusal(cmd: str, gm_tablet: str | None) -> str:
    """The refusal of ``cmd`` to a tablet that is not the GM: the role and the fix."""
    if gm_tablet is None:  # the gm command at a table without a named GM: the GM code makes the GM
        return _("only the game master may do that: this tablet is not the GM. Fix: use the tablet the engine was "
                 "started with as --gm, or enter the GM code the engine printed")
    return _("{reason}: this tablet is not the GM. Fix: ask the GM to do it on the GM's tablet {tablet!r}, or make "
             "this tablet the GM: enter the GM code the engine printed at start", reason=why_gm_only(cmd),
             tablet=gm_tablet)


def _gms(rule: Rule, gm_tablet: str | None) -> bool:
    return rule.who == GM_ALWAYS or (rule.who == GM and gm_tablet is not None)


def gm_only(gm_tablet: str | None) -> dict[str, str]:
    """The commands only the GM may send at this table, each with the reason the other tablets show."""
    return {cmd: why_gm_only(cmd) for cmd, rule in RULES.items() if _gms(rule, gm_tablet)}


def check(cmd: str, gm: bool, gm_tablet: str | None) -> None:
    """Refuse ``cmd`` from a tablet that is not the GM when the table leaves it to the GM (``action``: the
    prompt's decider says, see :func:`check_answer`)."""
    if not gm and _gms(RULES[cmd], gm_tablet):
        raise RoleError(refusal(cmd, gm_tablet))


def check_answer(gms_prompt: bool, turns_only: bool, prompt_text: str, gm_tablet: str | None) -> None:
    """An answer from a tablet that is not the GM to a prompt the GM answers is refused, saying who decides
    (turning a figure answers no prompt)."""
    if gms_prompt and not turns_only:
        raise RoleError(_("the game master decides this ({prompt}), and this tablet is not the GM. Fix: answer it on "
                          "the GM's tablet {tablet!r}, or make this tablet the GM: enter the GM code the engine "
                          "printed at start", prompt=prompt_text, tablet=gm_tablet))
