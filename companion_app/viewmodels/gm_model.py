"""The game master's tools on a tablet, from what the rule set declares: terrain kinds to mark cells with, the
rulings with their values, the calculators; and what a tap on the board means while the GM works. Builds the
``gm`` commands; holds no rules (the engine judges every one)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion_app.viewmodels.board_model import BoardView, HexKey
from companion_app.viewmodels.calc_form import CalculatorView, calculators_of, read_form, refusal_lines, result_lines
from companion_app.viewmodels.words import join_list
from engine.i18n import N_, gettext_for

MODES = ("terrain", "place", "out", "ruling", "calculate")
MODE_LABELS = {"terrain": N_("Mark terrain"), "place": N_("Move a figure"), "out": N_("Take out"),
               "ruling": N_("Rulings"), "calculate": N_("Calculators")}  # shown with _()
_ = gettext_for(__name__)


@dataclass
class GmAccess:
    """Whether this tablet is the GM: named by its key (the snapshot's ``gm``), or by a GM code the engine took."""

    by_key: bool = False
    code: str | None = None  # a code the engine accepted
    refused: str = ""  # why the last code entered was not taken

    @property
    def is_gm(self) -> bool:
        return self.by_key or self.code is not None

    def fields(self) -> dict[str, Any]:
        """What every GM command carries (the code, when this tablet is GM by one)."""
        return {"gm_code": self.code} if self.code is not None else {}

    def took(self, code: str, reply: Mapping[str, Any]) -> bool:
        """The engine's answer to a ``snapshot`` asked with ``code``: its ``gm`` says whether the code is right."""
        if reply.get("ok") and reply.get("gm"):
            self.code, self.refused = code, ""
            return True
        self.refused = (_("The engine did not take that GM code: enter the code its console printed at start")
                        if reply.get("ok") else _("The engine did not answer: {error}", error=reply.get("error")))
        return False


@dataclass(frozen=True)
class TerrainChoice:
    name: str
    help: str
    style: str


@dataclass(frozen=True)
class RulingView:
    name: str
    help: str
    subject: str  # what the subject names, in words ("two hexes: B3:D4")
    values: tuple[str, ...]


@dataclass(frozen=True)
class GmTools:
    """What this rule set's GM may do, as its scenario message declares it."""

    terrain: tuple[TerrainChoice, ...] = ()  # empty: the rules take no terrain marks in play
    rulings: tuple[RulingView, ...] = ()
    calculators: tuple[CalculatorView, ...] = ()

    @classmethod
    def of(cls, scenario: Mapping[str, Any]) -> GmTools:
        kinds = scenario.get("board", {}).get("terrain_kinds") or [] if scenario.get("terrain_marks") else []
        return cls(
            tuple(TerrainChoice(str(k["name"]), str(k.get("help", "")), str(k.get("style", ""))) for k in kinds),
            tuple(RulingView(str(r["name"]), str(r.get("help", "")), str(r.get("subject", "")),
                             tuple(str(v) for v in r.get("values") or [])) for r in scenario.get("rulings") or []),
            calculators_of(scenario),
        )

    @property
    def modes(self) -> tuple[str, ...]:
        """The tools this rule set offers (moving and taking out: always)."""
        return tuple(m for m in MODES if (m != "terrain" or self.terrain) and (m != "ruling" or self.rulings)
                     and (m != "calculate" or self.calculators))

    def calculator(self, name: str) -> CalculatorView:
        for c in self.calculators:
            if c.name == name:
                return c
        raise KeyError(f"no calculator {name!r}; the rule set declares: {', '.join(c.name for c in self.calculators)}")

    def calculate(self, name: str, values: Mapping[str, str | bool]) -> dict[str, Any]:
        """The ``gm`` command running a calculator on the form's values (FormError: a field cannot be read)."""
        return {"op": "calculate", "calculator": name, "input": read_form(self.calculator(name), values)}

    @staticmethod
    def ruling(kind: str, subject: str, value: str | None) -> dict[str, Any]:
        return {"op": "ruling", "key": f"{kind}:{subject.strip()}", "value": value}


@dataclass(frozen=True)
class GmStep:
    """What a tap on the board did on the GM screen: ``send`` a command (``fields``), or only a ``note``."""

    kind: str  # send | note
    text: str
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass
class GmDesk:
    """The GM screen's tool in hand and what it holds: the terrain kind, the figure picked, a ruling's subject."""

    tools: GmTools
    mode: str = "place"
    terrain: str | None = None
    figure: str | None = None
    subject: str = ""
    calculator: str | None = None  # the calculator whose form is open
    shown: tuple[str, ...] = ()  # the last calculation's result, or why the rules refuse it

    def calculated(self, reply: Mapping[str, Any]) -> tuple[str, ...]:
        """Show a ``calculate`` reply: its result as lines, or the refusal with each rule it breaks."""
        if reply.get("ok"):
            self.shown = tuple(result_lines(reply.get("result")))
        else:
            self.shown = tuple(refusal_lines(str(reply.get("error") or _("no answer"))))
        return self.shown

    def use(self, mode: str) -> None:
        if mode not in self.tools.modes:
            raise ValueError(_("the GM has no tool {mode} here; this rule set offers: {modes}", mode=repr(mode),
                               modes=join_list(self.tools.modes)))
        self.mode, self.figure = mode, None

    def tap(self, key: HexKey | None, board: BoardView) -> GmStep:
        if key is None or key not in board.tiles:
            return GmStep("note", "")
        where = board.label(key)
        top = board.pick(key)
        if self.mode == "terrain":
            if self.terrain is None:
                return GmStep("note", _("Pick a terrain kind first, then tap the cells to mark"))
            return GmStep("send", _("mark {cell} {terrain}", cell=where, terrain=self.terrain),
                          {"op": "terrain", "cell": list(key), "terrain": self.terrain})
        if self.mode == "place":
            if self.figure is None:
                if top is None:
                    return GmStep("note", _("Nobody on {cell}: tap the figure to move first", cell=where))
                self.figure = top.id
                return GmStep("note", _("{name} picked: tap where it goes", name=top.name))
            figure, self.figure = self.figure, None
            return GmStep("send", _("move {name} to {cell}", name=board.figure_name(figure), cell=where),
                          {"op": "place", "figure": figure, "to": list(key)})
        if self.mode == "out":
            self.figure = top.id if top is not None else None
            return GmStep("note", _("Take {name} out of play?", name=top.name) if top
                          else _("Nobody on {cell}", cell=where))
        if self.mode == "ruling":
            part = top.id if top is not None else where
            self.subject = f"{self.subject}:{part}" if self.subject else part
            return GmStep("note", _("subject: {subject}", subject=self.subject))
        return GmStep("note", "")

    def take_out(self) -> GmStep:
        """The confirmed ``out`` of the figure picked."""
        if self.figure is None:
            return GmStep("note", _("Tap the figure to take out first"))
        figure, self.figure = self.figure, None
        return GmStep("send", _("take {figure} out", figure=figure), {"op": "out", "figure": figure})
